//! What the service answers besides states: events, the update after a
//! move, legal moves and one seat's view. What a seat may see is decided by
//! the rules ([`View`], [`Event::seen_by`]); this only encodes it.

use crate::proto;
use crate::rules::{Event, Game, HandEnd, HistoryEntry, Move, ScoreReason, Seat, View};

use super::readable::encode_layout;
use super::rules::encode_rules;
use super::wire::{encode_end, encode_move, encode_outcome, encode_phase, encode_tile};

/// Why points were scored, as its wire value.
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

/// One event.
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
            tile: tile.map(encode_tile),
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

/// Moves, ready to be sent back.
fn encode_moves(moves: Vec<Move>) -> Vec<proto::Move> {
    moves.into_iter().map(encode_move).collect()
}

/// The legal moves to show: all of them, or only a `viewer`'s own.
fn legal_moves_for(game: &Game, viewer: Option<View<'_>>) -> Vec<proto::Move> {
    encode_moves(match viewer {
        Some(view) => view.legal_moves(),
        None => game.legal_moves(),
    })
}

/// The seat to act, while the match goes on.
fn seat_to_act(game: &Game) -> Option<u32> {
    game.outcome().is_none().then(|| u32::from(game.to_act()))
}

/// The answer to `NewGame` or `Play`.
///
/// The state itself (readable or sealed) is the caller's to add. With a
/// `viewer`, the answer is for that seat alone: the events as it sees them,
/// and legal moves only when it is to act.
#[must_use]
pub fn encode_update(
    game: &Game,
    events: &[Event],
    score_change: Vec<i32>,
    viewer: Option<Seat>,
) -> proto::GameUpdate {
    let view = viewer.and_then(|seat| game.view(seat));
    let events = match view {
        Some(view) => events
            .iter()
            .map(|event| encode_event(&event.seen_by(view.seat())))
            .collect(),
        None => events.iter().map(encode_event).collect(),
    };
    proto::GameUpdate {
        state: None,
        events,
        score_change,
        to_act: seat_to_act(game),
        legal_moves: legal_moves_for(game, view),
        state_token: Vec::new(),
        seat_tokens: Vec::new(),
    }
}

/// The answer to `LegalMoves` (for a `viewer`, only when it is to act).
#[must_use]
pub fn encode_legal_moves(game: &Game, viewer: Option<Seat>) -> proto::LegalMovesResponse {
    proto::LegalMovesResponse {
        seat: seat_to_act(game),
        legal_moves: legal_moves_for(game, viewer.and_then(|seat| game.view(seat))),
    }
}

/// The history as readable entries.
fn encode_history(history: &[HistoryEntry]) -> Vec<proto::HistoryEntry> {
    history
        .iter()
        .map(|entry| proto::HistoryEntry {
            hand: entry.hand,
            r#move: Some(encode_move(entry.mv)),
        })
        .collect()
}

/// What one seat may know, as `View` answers it.
#[must_use]
pub fn encode_view(view: View<'_>) -> proto::ViewResponse {
    let players = view.players();
    proto::ViewResponse {
        seat: u32::from(view.seat()),
        variant: view.variant().to_owned(),
        rules: Some(encode_rules(view.rules())),
        players: u32::from(players),
        side_of_seat: (0..players).map(|s| u32::from(view.side_of(s))).collect(),
        hand_number: view.hand_number(),
        hand: view.hand().iter().map(encode_tile).collect(),
        hand_sizes: (0..players).map(|s| view.hand_size(s)).collect(),
        boneyard_size: u32::try_from(view.boneyard_len()).unwrap_or(u32::MAX),
        layout: Some(encode_layout(view.layout(), view.rules().geometry())),
        scores: view.scores().to_vec(),
        phase: encode_phase(view.outcome()),
        to_act: view.to_act().map(u32::from),
        hand_leader: u32::from(view.hand_leader()),
        required_lead: view.required_lead().map(encode_tile),
        result: view.outcome().map(encode_outcome),
        history: encode_history(view.history()),
        legal_moves: encode_moves(view.legal_moves()),
    }
}
