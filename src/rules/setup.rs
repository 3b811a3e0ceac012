//! An unvalidated state, as received from a client, and the one checked
//! constructor that turns it into a [`Game`].

use super::deal::{MAX_SEATS, forced_lead_for};
use super::errors::SetupError;
use super::events::Outcome;
use super::game::{Game, HistoryEntry, MAX_HANDS};
use super::layout::{End, Layout, Placed, SpinnerAt};
use super::moves::{Action, Seat};
use super::options::{DrawRule, LeadRule, MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError};
use super::tile::{Tile, TileSet};

/// A state as a client sent it: nothing here has been checked. Seats are
/// kept as the wire's `u32` so that an out-of-range seat can be reported.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The preset it was started from (informational).
    pub variant: String,
    /// The rules in force.
    pub rules: Rules,
    /// Number of seats.
    pub players: u32,
    /// Seed every hand is dealt from.
    pub seed: u64,
    /// Current hand, from 1.
    pub hand_number: u32,
    /// Each seat's tiles.
    pub hands: Vec<Vec<Tile>>,
    /// Undrawn tiles, next to draw first.
    pub boneyard: Vec<Tile>,
    /// The lead, if placed.
    pub lead: Option<Tile>,
    /// The left arm, nearest the lead first.
    pub left: Vec<Placed>,
    /// The right arm, nearest the lead first.
    pub right: Vec<Placed>,
    /// The first arm from the spinner's short end, nearest the spinner first.
    pub up: Vec<Placed>,
    /// The second arm from the spinner's short end.
    pub down: Vec<Placed>,
    /// Where the spinner lies, if there is one.
    pub spinner: Option<SpinnerAt>,
    /// Score per side.
    pub scores: Vec<i32>,
    /// Seat to move.
    pub to_act: u32,
    /// Seat that leads the current hand.
    pub hand_leader: u32,
    /// Tile the leader must lead, while forced.
    pub required_lead: Option<Tile>,
    /// Whether the seat to act has drawn this turn (one-then-pass drawing).
    pub drew_this_turn: bool,
    /// `Some` once the match is over.
    pub outcome: Option<Outcome>,
    /// Every move so far.
    pub history: Vec<HistoryEntry>,
}

impl From<&Game> for Setup {
    fn from(game: &Game) -> Setup {
        let players = game.players();
        Setup {
            variant: game.variant().to_owned(),
            rules: *game.rules(),
            players: u32::from(players),
            seed: game.seed(),
            hand_number: game.hand_number(),
            hands: (0..players)
                .map(|s| game.hand(s).iter().collect())
                .collect(),
            boneyard: game.boneyard().collect(),
            lead: game.layout().lead(),
            left: game.layout().arm(End::Left).to_vec(),
            right: game.layout().arm(End::Right).to_vec(),
            up: game.layout().arm(End::Up).to_vec(),
            down: game.layout().arm(End::Down).to_vec(),
            spinner: game.layout().spinner(),
            scores: game.scores().to_vec(),
            to_act: u32::from(game.to_act()),
            hand_leader: u32::from(game.hand_leader()),
            required_lead: game.required_lead(),
            drew_this_turn: game.drew_this_turn(),
            outcome: game.outcome(),
            history: game.history().to_vec(),
        }
    }
}

/// Records where each tile has been seen, to prove the set is conserved.
struct TileCensus {
    /// The set's highest half.
    max_pip: u8,
    /// Tiles seen so far.
    seen: TileSet,
}

impl TileCensus {
    fn count(&mut self, tile: Tile, field: impl FnOnce() -> String) -> Result<(), SetupError> {
        if !tile.fits_set(self.max_pip) {
            return Err(SetupError::InvalidTile {
                field: field(),
                tile,
                max_pip: self.max_pip,
            });
        }
        if !self.seen.insert(tile) {
            return Err(SetupError::TileDuplicated {
                field: field(),
                tile,
            });
        }
        Ok(())
    }
}

/// `value` as a seat of a `players`-seat game; `field` names it on error
/// (built only then).
fn seat(value: u32, field: impl FnOnce() -> String, players: u8) -> Result<Seat, SetupError> {
    match Seat::try_from(value) {
        Ok(seat) if seat < players => Ok(seat),
        _ => Err(SetupError::SeatOutOfRange {
            field: field(),
            seat: value,
            players,
        }),
    }
}

impl Game {
    /// Checks a received state once, completely, and returns the game it
    /// describes. After this, no rule re-checks the state.
    ///
    /// Checked: the rules and player count; every tile of the set exactly
    /// once across hands, boneyard and layout; every touching pair of halves
    /// on the layout; seats in range; one score per side; the phase (a match
    /// in play has no empty hand, no blocked table and no side at its target);
    /// the lead (a forced lead is the one the rules force, held by the seat to
    /// act); and the history's seats and hand numbers.
    pub fn from_setup(setup: Setup) -> Result<Game, SetupError> {
        let players = u8::try_from(setup.players)
            .ok()
            .filter(|n| (MIN_PLAYERS..=MAX_PLAYERS).contains(n))
            .ok_or_else(|| RulesError {
                option: "players",
                message: format!(
                    "{} players: the engine seats {MIN_PLAYERS} to {MAX_PLAYERS}",
                    setup.players
                ),
            })?;
        setup.rules.validate(players)?;
        let rules = setup.rules;
        if !(1..=MAX_HANDS).contains(&setup.hand_number) {
            return Err(SetupError::inconsistent(
                "hand_number",
                format!("hands are numbered from 1 to {MAX_HANDS}"),
            ));
        }
        if setup.hands.len() != usize::from(players) {
            return Err(SetupError::inconsistent(
                "hands",
                format!("{} hands for {players} players", setup.hands.len()),
            ));
        }
        let sides = rules.sides(players);
        if setup.scores.len() != usize::from(sides) {
            return Err(SetupError::inconsistent(
                "scores",
                format!("{} scores for {sides} sides", setup.scores.len()),
            ));
        }
        if !rules.scores_can_be_negative() {
            if let Some(side) = setup.scores.iter().position(|&score| score < 0) {
                return Err(SetupError::inconsistent(
                    format!("scores[{side}]"),
                    "scores never go below 0 under these rules",
                ));
            }
        }

        let mut census = TileCensus {
            max_pip: rules.max_pip,
            seen: TileSet::EMPTY,
        };
        let mut hands = [TileSet::EMPTY; MAX_SEATS];
        for (s, tiles) in setup.hands.iter().enumerate() {
            for (i, &tile) in tiles.iter().enumerate() {
                census.count(tile, || format!("hands[{s}].tiles[{i}]"))?;
                if let Some(hand) = hands.get_mut(s) {
                    hand.insert(tile);
                }
            }
        }
        for (i, &tile) in setup.boneyard.iter().enumerate() {
            census.count(tile, || format!("boneyard[{i}]"))?;
        }
        if let Some(lead) = setup.lead {
            census.count(lead, || "layout.lead".to_owned())?;
        }
        let arms = [setup.left, setup.right, setup.up, setup.down];
        for end in End::ALL {
            for (i, placed) in arms[end.index()].iter().enumerate() {
                census.count(placed.tile(), || format!("layout.{}[{i}]", end.name()))?;
            }
        }
        if let Some(tile) = rules.tile_set().minus(census.seen).iter().next() {
            return Err(SetupError::TileMissing { tile });
        }
        let layout = Layout::from_parts(setup.lead, arms, setup.spinner, rules.geometry())
            .map_err(|error| SetupError::LayoutMismatch {
                field: match (error.end, error.position) {
                    (Some(end), Some(i)) => format!("layout.{}[{i}]", end.name()),
                    (Some(end), None) => format!("layout.{}", end.name()),
                    (None, _) => "layout.spinner".to_owned(),
                },
                message: error.message,
            })?;
        if setup.drew_this_turn && (rules.draw != DrawRule::OneThenPass || setup.outcome.is_some())
        {
            return Err(SetupError::inconsistent(
                "drew_this_turn",
                "only a match in play with one-then-pass drawing records a draw this turn",
            ));
        }

        let to_act = seat(setup.to_act, || "to_act".to_owned(), players)?;
        let hand_leader = seat(setup.hand_leader, || "hand_leader".to_owned(), players)?;
        if let Some(Outcome::Winner(side)) = setup.outcome {
            if side >= sides {
                return Err(SetupError::inconsistent(
                    "result.winner",
                    format!("side {side} does not exist; there are {sides} sides"),
                ));
            }
        }
        let mut last_hand = 0;
        let mut played_this_hand = TileSet::EMPTY;
        for (i, entry) in setup.history.iter().enumerate() {
            // (The error is built only when needed: this loop runs for every
            // move of the match on every call.)
            if entry.mv.seat >= players {
                seat(
                    u32::from(entry.mv.seat),
                    || format!("history[{i}].move.seat"),
                    players,
                )?;
            }
            if entry.hand < last_hand || entry.hand > setup.hand_number {
                return Err(SetupError::inconsistent(
                    format!("history[{i}].hand"),
                    format!(
                        "hand {} is out of order (previous {last_hand}, current {})",
                        entry.hand, setup.hand_number
                    ),
                ));
            }
            if entry.hand != last_hand {
                played_this_hand = TileSet::EMPTY;
            }
            last_hand = entry.hand;
            if let Action::Play { tile, .. } = entry.mv.action {
                if !tile.fits_set(rules.max_pip) {
                    return Err(SetupError::InvalidTile {
                        field: format!("history[{i}].move.play.tile"),
                        tile,
                        max_pip: rules.max_pip,
                    });
                }
                if !played_this_hand.insert(tile) {
                    return Err(SetupError::inconsistent(
                        format!("history[{i}]"),
                        format!("{tile} is played twice in hand {}", entry.hand),
                    ));
                }
            }
        }
        // Every tile the history plays in the current hand is on the table.
        // (The history may lack moves: a position set up by hand has none
        // for the tiles it started with.)
        let on_table: TileSet = layout.tiles().collect();
        let current = if last_hand == setup.hand_number {
            played_this_hand
        } else {
            TileSet::EMPTY
        };
        if let Some(tile) = current.minus(on_table).iter().next() {
            return Err(SetupError::inconsistent(
                "history",
                format!("the history plays {tile} in this hand, but it is not on the layout"),
            ));
        }

        let mut scores = [0; MAX_SEATS];
        scores[..setup.scores.len()].copy_from_slice(&setup.scores);
        let mut boneyard = setup.boneyard;
        boneyard.reverse();
        let game = Game {
            variant: setup.variant,
            rules,
            players,
            seed: setup.seed,
            hand_number: setup.hand_number,
            hands,
            boneyard,
            layout,
            scores,
            to_act,
            hand_leader,
            required_lead: setup.required_lead,
            drew_this_turn: setup.drew_this_turn,
            outcome: setup.outcome,
            history: setup.history,
        };
        game.check_phase()?;
        Ok(game)
    }

    /// The checks that need the assembled game: a match in play must be
    /// playable, and a forced lead must be the one the rules force.
    fn check_phase(&self) -> Result<(), SetupError> {
        if self.outcome.is_some() {
            return Ok(());
        }
        for seat in 0..self.players {
            if self.hand(seat).is_empty() {
                return Err(SetupError::inconsistent(
                    format!("hands[{seat}]"),
                    "an empty hand means the hand is over, but the phase is PLAYING",
                ));
            }
        }
        if let Some(side) = self.some_side_at_target() {
            return Err(SetupError::inconsistent(
                format!("scores[{side}]"),
                "this side has reached the target, so the match should be over",
            ));
        }
        if self.layout.is_empty() {
            if self.to_act != self.hand_leader {
                return Err(SetupError::inconsistent(
                    "to_act",
                    "the layout is empty, so the hand's leader must be to act",
                ));
            }
            let hands = &self.hands[..usize::from(self.players)];
            let forced = forced_lead_for(self.rules.first_lead, hands);
            let must_force = self.hand_number == 1 && self.rules.first_lead != LeadRule::Lot;
            match (self.required_lead, forced) {
                (Some(_), None) => {
                    return Err(SetupError::inconsistent(
                        "required_lead",
                        "a lead by lot may be any tile",
                    ));
                }
                (Some(tile), Some((holder, forced))) => {
                    if (holder, forced) != (self.to_act, tile) {
                        return Err(SetupError::inconsistent(
                            "required_lead",
                            format!("the forced lead is {forced}, held by seat {holder}"),
                        ));
                    }
                }
                (None, _) if must_force => {
                    return Err(SetupError::inconsistent(
                        "required_lead",
                        "the first hand's lead is forced by the rules but no tile is given",
                    ));
                }
                (None, _) => {}
            }
        } else {
            if self.required_lead.is_some() {
                return Err(SetupError::inconsistent(
                    "required_lead",
                    "the lead is already down",
                ));
            }
            if self.is_blocked() {
                return Err(SetupError::inconsistent(
                    "layout",
                    "nobody can place a tile or draw, so the hand should be over",
                ));
            }
        }
        Ok(())
    }
}
