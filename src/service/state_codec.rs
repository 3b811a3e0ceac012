//! Game state, moves and events ⇄ their `pips.v1` messages. Decoding only
//! turns wire values into rule values (reporting fields that cannot even be
//! represented); every rule of consistency is checked by
//! [`Game::from_setup`].

use crate::proto::{self, ErrorReason};
use crate::rules::tile::MAX_PIP_LIMIT;
use crate::rules::{
    Action, End, Event, Game, HandEnd, HistoryEntry, Move, Outcome, Placed, ScoreReason, Seat,
    Setup, SpinnerAt, Tile, TileSet,
};

use super::error::ApiError;
use super::rules_codec::{decode_rules, encode_rules};

/// The state format this server reads and writes.
pub const FORMAT_VERSION: u32 = 1;

// ---- decoding -------------------------------------------------------------

// Field paths are built only when an error needs one (`field` closures):
// formatting a path for every tile and move of a state would cost more than
// the decoding itself.

/// A half's pips, if any set could hold it.
fn decode_half(value: u32, field: &impl Fn() -> String) -> Result<u8, ApiError> {
    u8::try_from(value)
        .ok()
        .filter(|&pips| pips <= MAX_PIP_LIMIT)
        .ok_or_else(|| {
            ApiError::invalid(
                ErrorReason::InvalidTile,
                field(),
                format!("{value} pips: no set has a half above {MAX_PIP_LIMIT}"),
            )
        })
}

/// A tile given at `field`.
pub fn decode_tile(tile: &proto::Tile, field: &impl Fn() -> String) -> Result<Tile, ApiError> {
    Ok(Tile::new(
        decode_half(tile.a, field)?,
        decode_half(tile.b, field)?,
    ))
}

fn decode_optional_tile(
    tile: Option<&proto::Tile>,
    field: &impl Fn() -> String,
) -> Result<Option<Tile>, ApiError> {
    tile.map(|t| decode_tile(t, field)).transpose()
}

/// A seat number at `field` (its range is checked against the game later).
pub fn decode_seat(value: u32, field: &impl Fn() -> String) -> Result<Seat, ApiError> {
    Seat::try_from(value).map_err(|_| {
        ApiError::invalid(
            ErrorReason::SeatOutOfRange,
            field(),
            format!("seat {value} does not exist"),
        )
    })
}

/// An `End` value as the rules' end: `Some(None)` for END_UNSPECIFIED (no
/// end named), `None` for a value that is not an `End`.
fn end_from_wire(value: i32) -> Option<Option<End>> {
    match proto::End::try_from(value).ok()? {
        proto::End::Unspecified => Some(None),
        proto::End::Left => Some(Some(End::Left)),
        proto::End::Right => Some(Some(End::Right)),
        proto::End::Up => Some(Some(End::Up)),
        proto::End::Down => Some(Some(End::Down)),
    }
}

fn decode_end(
    value: i32,
    field: &impl Fn() -> String,
    reason: ErrorReason,
) -> Result<Option<End>, ApiError> {
    end_from_wire(value)
        .ok_or_else(|| ApiError::invalid(reason, field(), format!("{value} is not an End")))
}

fn encode_end(end: Option<End>) -> i32 {
    match end {
        None => proto::End::Unspecified,
        Some(End::Left) => proto::End::Left,
        Some(End::Right) => proto::End::Right,
        Some(End::Up) => proto::End::Up,
        Some(End::Down) => proto::End::Down,
    }
    .into()
}

pub(super) fn decode_spinner(
    spinner: Option<&proto::SpinnerPosition>,
    field: &dyn Fn() -> String,
) -> Result<Option<SpinnerAt>, ApiError> {
    let Some(spinner) = spinner else {
        return Ok(None);
    };
    // (The field path is formatted only for an error: this runs on every
    // call.)
    let bad = |message: &str| ApiError::invalid(ErrorReason::LayoutMismatch, field(), message);
    match decode_end(
        spinner.arm,
        &|| format!("{}.arm", field()),
        ErrorReason::LayoutMismatch,
    )? {
        None if spinner.index == 0 => Ok(Some(SpinnerAt::Lead)),
        None => Err(bad("the lead has no index: leave index 0")),
        Some(end @ (End::Left | End::Right)) => Ok(Some(SpinnerAt::Arm {
            end,
            index: usize::try_from(spinner.index).map_err(|_| bad("index out of range"))?,
        })),
        Some(_) => Err(bad(
            "the spinner lies on the lead, the left or the right arm",
        )),
    }
}

pub(super) fn encode_spinner(spinner: Option<SpinnerAt>) -> Option<proto::SpinnerPosition> {
    spinner.map(|at| match at {
        SpinnerAt::Lead => proto::SpinnerPosition {
            arm: encode_end(None),
            index: 0,
        },
        SpinnerAt::Arm { end, index } => proto::SpinnerPosition {
            arm: encode_end(Some(end)),
            index: u32::try_from(index).unwrap_or(u32::MAX),
        },
    })
}

/// A move given at `prefix` (`move`, or `state.history[3].move`).
pub fn decode_move(
    mv: Option<&proto::Move>,
    prefix: &impl Fn() -> String,
) -> Result<Move, ApiError> {
    let mv = mv.ok_or_else(|| ApiError::missing(prefix()))?;
    let seat = decode_seat(mv.seat, &|| format!("{}.seat", prefix()))?;
    let action = match &mv.action {
        Some(proto::r#move::Action::Play(play)) => {
            let field = || format!("{}.play.tile", prefix());
            let tile = play
                .tile
                .as_ref()
                .ok_or_else(|| ApiError::missing(field()))?;
            Action::Play {
                tile: decode_tile(tile, &field)?,
                end: decode_end(
                    play.end,
                    &|| format!("{}.play.end", prefix()),
                    ErrorReason::MalformedMove,
                )?,
            }
        }
        Some(proto::r#move::Action::Draw(_)) => Action::Draw,
        Some(proto::r#move::Action::Pass(_)) => Action::Pass,
        None => {
            return Err(ApiError::invalid(
                ErrorReason::MalformedMove,
                prefix(),
                "a move must set one of play, draw or pass",
            ));
        }
    };
    Ok(Move { seat, action })
}

fn decode_arm(
    arm: &[proto::PlacedTile],
    field: &impl Fn() -> String,
) -> Result<Vec<Placed>, ApiError> {
    arm.iter()
        .enumerate()
        .map(|(i, placed)| {
            let field = || format!("{}[{i}]", field());
            Ok(Placed {
                inner: decode_half(placed.inner, &field)?,
                outer: decode_half(placed.outer, &field)?,
            })
        })
        .collect()
}

/// How the match stands, from its `phase` and `result` fields at `prefix`.
pub(super) fn decode_outcome(
    phase: i32,
    result: Option<&proto::MatchResult>,
    prefix: &str,
) -> Result<Option<Outcome>, ApiError> {
    let phase_field = || format!("{prefix}.phase");
    match proto::Phase::try_from(phase) {
        Ok(proto::Phase::Playing) => match result {
            None => Ok(None),
            Some(_) => Err(ApiError::invalid(
                ErrorReason::InconsistentState,
                format!("{prefix}.result"),
                "a match in play has no result",
            )),
        },
        Ok(proto::Phase::MatchOver) => {
            let result = result.ok_or_else(|| ApiError::missing(format!("{prefix}.result")))?;
            Ok(Some(match result.winner {
                None => Outcome::Draw,
                Some(side) => Outcome::Winner(u8::try_from(side).map_err(|_| {
                    ApiError::invalid(
                        ErrorReason::InconsistentState,
                        format!("{prefix}.result.winner"),
                        format!("side {side} does not exist"),
                    )
                })?),
            }))
        }
        Ok(proto::Phase::Unspecified) => Err(ApiError::missing(phase_field())),
        Err(_) => Err(ApiError::invalid(
            ErrorReason::InconsistentState,
            phase_field(),
            format!("{phase} is not a Phase"),
        )),
    }
}

/// Fails unless a state at `prefix` is written in the format this server
/// reads.
pub(super) fn check_format_version(version: u32, prefix: &str) -> Result<(), ApiError> {
    if version == FORMAT_VERSION {
        return Ok(());
    }
    Err(ApiError::invalid(
        ErrorReason::UnsupportedFormatVersion,
        format!("{prefix}.format_version"),
        format!(
            "format version {version} is not read by this server, which reads {FORMAT_VERSION}"
        ),
    ))
}

/// The rules of a state at `prefix` (every field must be set).
pub(super) fn decode_state_rules(
    rules: Option<&proto::Rules>,
    prefix: &str,
) -> Result<crate::rules::Rules, ApiError> {
    let field = format!("{prefix}.rules");
    let rules = rules.ok_or_else(|| ApiError::missing(&field))?;
    decode_rules(rules, None, &field)
}

/// The state at `prefix` in a request, fully checked.
pub fn decode_state(state: Option<&proto::GameState>, prefix: &str) -> Result<Game, ApiError> {
    let state = state.ok_or_else(|| ApiError::missing(prefix))?;
    let field = |name: &str| format!("{prefix}.{name}");
    check_format_version(state.format_version, prefix)?;
    let rules = decode_state_rules(state.rules.as_ref(), prefix)?;
    let hands = state
        .hands
        .iter()
        .enumerate()
        .map(|(s, hand)| {
            hand.tiles
                .iter()
                .enumerate()
                .map(|(i, t)| decode_tile(t, &|| field(&format!("hands[{s}].tiles[{i}]"))))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let boneyard = state
        .boneyard
        .iter()
        .enumerate()
        .map(|(i, t)| decode_tile(t, &|| field(&format!("boneyard[{i}]"))))
        .collect::<Result<Vec<_>, _>>()?;
    let empty_layout = proto::Layout::default();
    let layout = state.layout.as_ref().unwrap_or(&empty_layout);
    let history = decode_history(&state.history, &field("history"))?;
    let setup = Setup {
        variant: state.variant.clone(),
        rules,
        players: state.players,
        seed: state.seed,
        hand_number: state.hand_number,
        hands,
        boneyard,
        lead: decode_optional_tile(layout.lead.as_ref(), &|| field("layout.lead"))?,
        left: decode_arm(&layout.left, &|| field("layout.left"))?,
        right: decode_arm(&layout.right, &|| field("layout.right"))?,
        up: decode_arm(&layout.up, &|| field("layout.up"))?,
        down: decode_arm(&layout.down, &|| field("layout.down"))?,
        spinner: decode_spinner(layout.spinner.as_ref(), &|| field("layout.spinner"))?,
        scores: state.scores.clone(),
        to_act: state.to_act,
        hand_leader: state.hand_leader,
        required_lead: decode_optional_tile(state.required_lead.as_ref(), &|| {
            field("required_lead")
        })?,
        drew_this_turn: state.drew_this_turn,
        outcome: decode_outcome(state.phase, state.result.as_ref(), prefix)?,
        history,
    };
    let game = Game::from_setup(setup).map_err(|e| ApiError::from_setup(e, prefix))?;
    let given = !layout.open_ends.is_empty();
    if given
        && (encode_open_ends(&game) != layout.open_ends || game.ends_total() != layout.ends_total)
    {
        return Err(ApiError::invalid(
            ErrorReason::OpenEndsMismatch,
            field("layout.open_ends"),
            "the open ends (or ends total) given do not follow from the tiles; \
             leave them empty or send them as the server wrote them",
        ));
    }
    Ok(game)
}

// ---- encoding -------------------------------------------------------------

/// A tile, larger half first.
pub fn encode_tile(tile: Tile) -> proto::Tile {
    proto::Tile {
        a: u32::from(tile.high()),
        b: u32::from(tile.low()),
    }
}

/// A move, ready to be sent back as `PlayRequest.move`.
pub fn encode_move(mv: Move) -> proto::Move {
    use proto::r#move::Action as Wire;
    let action = match mv.action {
        Action::Play { tile, end } => Wire::Play(proto::PlayTile {
            tile: Some(encode_tile(tile)),
            end: encode_end(end),
        }),
        Action::Draw => Wire::Draw(proto::DrawTile {}),
        Action::Pass => Wire::Pass(proto::Pass {}),
    };
    proto::Move {
        seat: u32::from(mv.seat),
        action: Some(action),
    }
}

/// Bit layout of a packed history entry (see `GameState.history`).
const ACTION_BITS: u32 = 2;
const SEAT_SHIFT: u32 = 2;
pub(super) const TILE_SHIFT: u32 = 5;
pub(super) const END_SHIFT: u32 = 12;
const HAND_SHIFT: u32 = 15;

/// One history entry as its packed number.
pub(super) fn encode_history_code(entry: &HistoryEntry) -> u32 {
    let (action, tile, end) = match entry.mv.action {
        Action::Play { tile, end } => (0, tile.index(), encode_end(end) as u32),
        Action::Draw => (1, 0, 0),
        Action::Pass => (2, 0, 0),
    };
    action
        | u32::from(entry.mv.seat) << SEAT_SHIFT
        | tile << TILE_SHIFT
        | end << END_SHIFT
        | entry.hand << HAND_SHIFT
}

/// Tiles in the largest set (double-twelve): tile indices are below this.
pub(super) const TILE_COUNT: u32 = TileSet::full(MAX_PIP_LIMIT).len();

/// The refusal of a tile index at `field` that no set holds.
#[cold]
pub(super) fn tile_index_error(index: u32, field: String) -> ApiError {
    ApiError::invalid(
        ErrorReason::InvalidTile,
        field,
        format!("tile index {index} is beyond double-{MAX_PIP_LIMIT}"),
    )
}

/// A tile given by its index (high*(high+1)/2 + low) at `field`.
pub(super) fn decode_tile_index(index: u32, field: &impl Fn() -> String) -> Result<Tile, ApiError> {
    if index >= TILE_COUNT {
        return Err(tile_index_error(index, field()));
    }
    Ok(Tile::from_index(index))
}

/// A packed history at `field`, unpacked. (One loop with a small error
/// type: a `Result` carrying an [`ApiError`] per entry would cost more than
/// the unpacking.)
pub(super) fn decode_history(codes: &[u32], field: &str) -> Result<Vec<HistoryEntry>, ApiError> {
    // Room for the move about to be played, so that it does not regrow.
    let mut history = Vec::with_capacity(codes.len() + 2);
    for (i, &code) in codes.iter().enumerate() {
        match unpack_history_code(code) {
            Ok(entry) => history.push(entry),
            Err(fault) => return Err(fault.error(code, format!("{field}[{i}]"))),
        }
    }
    Ok(history)
}

/// Why a packed history number is not a move.
#[derive(Clone, Copy, Debug)]
pub(super) enum CodeFault {
    /// The tile index is beyond the largest set.
    Tile(u32),
    /// The end is not an `End` value.
    End,
    /// A draw or pass names a tile or an end.
    NamesTile,
    /// The action is not play, draw or pass.
    Action,
}

impl CodeFault {
    /// The error for `code` at `field`.
    #[cold]
    pub(super) fn error(self, code: u32, field: String) -> ApiError {
        let malformed = |what: &str| {
            ApiError::invalid(
                ErrorReason::MalformedMove,
                field.clone(),
                format!("{code} is not a packed move: {what}"),
            )
        };
        match self {
            CodeFault::Tile(index) => tile_index_error(index, field),
            CodeFault::End => malformed(&format!("{} is not an End", (code >> END_SHIFT) & 7)),
            CodeFault::NamesTile => malformed("a draw or pass names no tile"),
            CodeFault::Action => malformed("unknown action"),
        }
    }
}

/// One packed history number, unpacked.
pub(super) fn unpack_history_code(code: u32) -> Result<HistoryEntry, CodeFault> {
    let bits = |shift: u32, width: u32| (code >> shift) & ((1 << width) - 1);
    let seat = bits(SEAT_SHIFT, 3) as Seat;
    let (tile, end) = (bits(TILE_SHIFT, 7), bits(END_SHIFT, 3));
    let action = match bits(0, ACTION_BITS) {
        0 => {
            if tile >= TILE_COUNT {
                return Err(CodeFault::Tile(tile));
            }
            let end = i32::try_from(end)
                .ok()
                .and_then(end_from_wire)
                .ok_or(CodeFault::End)?;
            Action::Play {
                tile: Tile::from_index(tile),
                end,
            }
        }
        1 | 2 if tile != 0 || end != 0 => return Err(CodeFault::NamesTile),
        1 => Action::Draw,
        2 => Action::Pass,
        _ => return Err(CodeFault::Action),
    };
    Ok(HistoryEntry {
        hand: code >> HAND_SHIFT,
        mv: Move { seat, action },
    })
}

fn encode_history(history: &[HistoryEntry]) -> Vec<proto::HistoryEntry> {
    history
        .iter()
        .map(|entry| proto::HistoryEntry {
            hand: entry.hand,
            r#move: Some(encode_move(entry.mv)),
        })
        .collect()
}

/// The layout with its derived open ends and ends total.
pub fn encode_layout(game: &Game) -> proto::Layout {
    let layout = game.layout();
    let arm = |end| {
        layout
            .arm(end)
            .iter()
            .map(|p| proto::PlacedTile {
                inner: u32::from(p.inner),
                outer: u32::from(p.outer),
            })
            .collect()
    };
    proto::Layout {
        lead: layout.lead().map(encode_tile),
        left: arm(End::Left),
        right: arm(End::Right),
        up: arm(End::Up),
        down: arm(End::Down),
        spinner: encode_spinner(layout.spinner()),
        open_ends: encode_open_ends(game),
        ends_total: game.ends_total(),
    }
}

/// The open ends as the server writes them (and checks them on input).
fn encode_open_ends(game: &Game) -> Vec<proto::OpenEnd> {
    let geometry = game.geometry();
    game.open_ends()
        .map(|(end, pips)| proto::OpenEnd {
            end: encode_end(Some(end)),
            pips: u32::from(pips),
            counts: game.layout().counts(end, geometry),
        })
        .collect()
}

pub(super) fn encode_outcome(outcome: Outcome) -> proto::MatchResult {
    proto::MatchResult {
        winner: match outcome {
            Outcome::Winner(side) => Some(u32::from(side)),
            Outcome::Draw => None,
        },
    }
}

pub(super) fn encode_phase(game: &Game) -> i32 {
    match game.outcome() {
        None => proto::Phase::Playing,
        Some(_) => proto::Phase::MatchOver,
    }
    .into()
}

/// The complete state.
pub fn encode_state(game: &Game) -> proto::GameState {
    proto::GameState {
        format_version: FORMAT_VERSION,
        variant: game.variant().to_owned(),
        rules: Some(encode_rules(game.rules())),
        players: u32::from(game.players()),
        seed: game.seed(),
        hand_number: game.hand_number(),
        hands: (0..game.players())
            .map(|seat| proto::Hand {
                tiles: game.hand(seat).iter().map(encode_tile).collect(),
            })
            .collect(),
        boneyard: game.boneyard().map(encode_tile).collect(),
        layout: Some(encode_layout(game)),
        scores: game.scores().to_vec(),
        to_act: u32::from(game.to_act()),
        hand_leader: u32::from(game.hand_leader()),
        required_lead: game.required_lead().map(encode_tile),
        phase: encode_phase(game),
        result: game.outcome().map(encode_outcome),
        history: game.history().iter().map(encode_history_code).collect(),
        drew_this_turn: game.drew_this_turn(),
        sealed_seed: Vec::new(),
        tag: Vec::new(),
    }
}

fn encode_reason(reason: ScoreReason) -> i32 {
    match reason {
        ScoreReason::Ends => proto::ScoreReason::Ends,
        ScoreReason::Domino => proto::ScoreReason::Domino,
        ScoreReason::Closed => proto::ScoreReason::Closed,
        ScoreReason::Blocked => proto::ScoreReason::Blocked,
        ScoreReason::Penalty => proto::ScoreReason::Penalty,
        ScoreReason::OwnPips => proto::ScoreReason::OwnPips,
    }
    .into()
}

fn encode_event(event: &Event) -> proto::Event {
    use proto::event::Kind;
    let kind = match event {
        Event::TilePlayed {
            seat,
            tile,
            end,
            ends_total,
        } => Kind::TilePlayed(proto::TilePlayed {
            seat: u32::from(*seat),
            tile: Some(encode_tile(*tile)),
            end: encode_end(*end),
            ends_total: *ends_total,
        }),
        Event::TileDrawn { seat, tile } => Kind::TileDrawn(proto::TileDrawn {
            seat: u32::from(*seat),
            tile: Some(encode_tile(*tile)),
        }),
        Event::Passed { seat } => Kind::Passed(proto::Passed {
            seat: u32::from(*seat),
        }),
        Event::PointsScored {
            side,
            seat,
            points,
            reason,
        } => Kind::PointsScored(proto::PointsScored {
            side: u32::from(*side),
            seat: seat.map(u32::from),
            points: *points,
            reason: encode_reason(*reason),
        }),
        Event::PointsVoided {
            side,
            seat,
            points,
            reason,
        } => Kind::PointsVoided(proto::PointsVoided {
            side: u32::from(*side),
            seat: seat.map(u32::from),
            points: *points,
            reason: encode_reason(*reason),
        }),
        Event::HandEnded {
            hand,
            end,
            winner,
            pips,
            settlement,
        } => Kind::HandEnded(proto::HandEnded {
            hand: *hand,
            reason: match end {
                HandEnd::Domino(_) => proto::HandEndReason::Domino,
                HandEnd::Closed(_) => proto::HandEndReason::Closed,
                HandEnd::Blocked => proto::HandEndReason::Blocked,
            }
            .into(),
            seat: end.seat().map(u32::from),
            winner: winner.map(u32::from),
            pips: pips.clone(),
            settlement: settlement.clone(),
        }),
        Event::HandDealt {
            hand,
            leader,
            required_lead,
        } => Kind::HandDealt(proto::HandDealt {
            hand: *hand,
            leader: u32::from(*leader),
            required_lead: required_lead.map(encode_tile),
        }),
        Event::MatchEnded { outcome, scores } => Kind::MatchEnded(proto::MatchEnded {
            result: Some(encode_outcome(*outcome)),
            scores: scores.clone(),
        }),
    };
    proto::Event { kind: Some(kind) }
}

/// The seat to act, while the match goes on.
fn seat_to_act(game: &Game) -> Option<u32> {
    game.outcome().is_none().then(|| u32::from(game.to_act()))
}

/// The answer to `NewGame` or `Play`.
///
/// The state itself (readable or sealed) is the caller's to add. With a
/// `viewer`, the answer is for that seat alone: other seats' drawn tiles and
/// forced leads are left out of the events, and legal moves are listed only
/// when the viewer is to act.
pub fn encode_update(
    game: &Game,
    events: &[Event],
    score_change: Vec<i32>,
    viewer: Option<Seat>,
) -> proto::GameUpdate {
    let mut encoded: Vec<proto::Event> = events.iter().map(encode_event).collect();
    if let Some(me) = viewer.map(u32::from) {
        for event in &mut encoded {
            match event.kind.as_mut() {
                Some(proto::event::Kind::TileDrawn(drawn)) if drawn.seat != me => drawn.tile = None,
                Some(proto::event::Kind::HandDealt(dealt)) if dealt.leader != me => {
                    dealt.required_lead = None;
                }
                _ => {}
            }
        }
    }
    proto::GameUpdate {
        state: None,
        events: encoded,
        score_change,
        to_act: seat_to_act(game),
        legal_moves: legal_moves_for(game, viewer),
        state_token: Vec::new(),
        seat_tokens: Vec::new(),
    }
}

/// The legal moves to show: all of them, or, for a `viewer`, only its own.
fn legal_moves_for(game: &Game, viewer: Option<Seat>) -> Vec<proto::Move> {
    match viewer {
        Some(me) if game.to_act() != me => Vec::new(),
        _ => game.legal_moves().into_iter().map(encode_move).collect(),
    }
}

/// The answer to `LegalMoves` (for a `viewer`, only when it is to act).
pub fn encode_legal_moves(game: &Game, viewer: Option<Seat>) -> proto::LegalMovesResponse {
    proto::LegalMovesResponse {
        seat: seat_to_act(game),
        legal_moves: legal_moves_for(game, viewer),
    }
}

/// What `seat` may know: public information and its own hand only.
pub fn encode_view(game: &Game, seat: Seat) -> proto::ViewResponse {
    let to_act = seat_to_act(game);
    let own_turn = to_act == Some(u32::from(seat));
    proto::ViewResponse {
        seat: u32::from(seat),
        variant: game.variant().to_owned(),
        rules: Some(encode_rules(game.rules())),
        players: u32::from(game.players()),
        side_of_seat: (0..game.players())
            .map(|s| u32::from(game.side_of(s)))
            .collect(),
        hand_number: game.hand_number(),
        hand: game.hand(seat).iter().map(encode_tile).collect(),
        hand_sizes: (0..game.players()).map(|s| game.hand(s).len()).collect(),
        boneyard_size: u32::try_from(game.boneyard_len()).unwrap_or(u32::MAX),
        layout: Some(encode_layout(game)),
        scores: game.scores().to_vec(),
        phase: encode_phase(game),
        to_act,
        hand_leader: u32::from(game.hand_leader()),
        required_lead: game
            .required_lead()
            .filter(|_| game.hand_leader() == seat)
            .map(encode_tile),
        result: game.outcome().map(encode_outcome),
        history: encode_history(game.history()),
        legal_moves: if own_turn {
            game.legal_moves().into_iter().map(encode_move).collect()
        } else {
            Vec::new()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::PRESETS;

    #[test]
    fn packed_history_round_trips_for_every_preset() {
        for preset in PRESETS {
            let players = *preset.players.end();
            let (mut game, _) =
                Game::new(preset.id, preset.rules(players, None), players, 3).expect("valid");
            while game.outcome().is_none() {
                let mv = game.legal_moves()[0];
                game.play(mv).expect("legal");
            }
            let state = encode_state(&game);
            assert_eq!(state.history.len(), game.history().len());
            let decoded = decode_state(Some(&state), "state").expect("valid");
            assert_eq!(decoded, game, "{}", preset.id);
        }
    }

    #[test]
    fn malformed_packed_moves_are_refused() {
        let cases = [
            (3, ErrorReason::MalformedMove),                   // no such action
            (100 << TILE_SHIFT, ErrorReason::InvalidTile),     // beyond double-12
            (1 | 5 << TILE_SHIFT, ErrorReason::MalformedMove), // a draw naming a tile
            (2 | 1 << END_SHIFT, ErrorReason::MalformedMove),  // a pass naming an end
            (7 << END_SHIFT, ErrorReason::MalformedMove),      // no such end
        ];
        for (code, reason) in cases {
            let error = decode_history(&[code], "state.history").expect_err("refused");
            assert_eq!(
                (error.reason, error.field.as_str()),
                (reason, "state.history[0]"),
                "{code}"
            );
        }
        let entry = decode_history(&[1 << SEAT_SHIFT | 2 << HAND_SHIFT | 1], "state.history");
        assert_eq!(
            entry.map(|e| e.iter().map(|e| (e.hand, e.mv)).collect()),
            Ok(vec![(2, Move::draw(1))])
        );
    }
}
