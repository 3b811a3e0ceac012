//! The checked constructor's step for a line's history: the hand's moves
//! must be moves that could have been made, in the order given, and must
//! leave the state. A line's history holds the hand's last moves (all of
//! them, from the lead, in every state pips hands out; a position set up
//! by hand may start it later), so the position it starts from is the
//! state with those moves taken back: each placed tile off the end of its
//! arm (or the lead) and back in its placer's hand, each drawn tile back on
//! the boneyard. From there every move is replayed as the rules check it:
//! a pass only where the seat could neither place nor draw, a draw only
//! from a boneyard the rules let it draw from, and no move after the hand
//! was over. What the replay ends with (the layout, the seat to act, a draw
//! this turn) must be the state.
//!
//! Points are not replayed: a state carries its scores (the hands before
//! it are not in it), and the points a move scored move no tile and no
//! turn. The replay runs under the rules with in-play points and bonuses
//! left out, so that a score near the target cannot end it early; a move
//! that ended the match by its points is the history's last, as it is for
//! any move that ended the match.

use crate::rules::deal::forced_lead_for;
use crate::rules::end::{ByEnd, End};
use crate::rules::errors::{LayoutPlace, SetupError, TilePlace};
use crate::rules::family::Family;
use crate::rules::game::Game;
use crate::rules::layout::{Layout, SpinnerAt};
use crate::rules::moves::Action;
use crate::rules::options::{DrawRule, InPlayScoring, LeadRule, Rules};
use crate::rules::record::MatchDigest;
use crate::rules::setup::taken_back;

impl Game {
    /// Checks a line's history against the rest of the state (`self`,
    /// assembled from the setup; its tiles, seats and layout already
    /// checked).
    pub(in crate::rules) fn check_line_history(&self) -> Result<(), SetupError> {
        let Some(first) = self.history.first() else {
            return Ok(());
        };
        let mut replay = self.line_start()?;
        if replay.layout().is_empty() {
            replay.to_act = self.hand_leader;
            let must_force = self.hand_number == 1 && self.rules.first_lead != LeadRule::Lot;
            if must_force {
                let dealt = replay.hands.get(..usize::from(self.players));
                replay.required_lead = dealt
                    .and_then(|hands| forced_lead_for(self.rules.first_lead, hands))
                    .map(|(_, tile)| tile);
            }
        } else {
            // A position set up by hand, and the moves since: it starts with
            // the first mover to act, having drawn already if that is what
            // lets it pass.
            replay.to_act = first.mv.seat;
            replay.drew_this_turn =
                self.rules.draw == DrawRule::OneThenPass && matches!(first.mv.action, Action::Pass);
        }
        let last = self.history.len() - 1;
        for (index, entry) in self.history.iter().enumerate() {
            if let Err(error) = replay.check(entry.mv) {
                return Err(SetupError::HistoryMove { index, error });
            }
            replay.play_unchecked(entry.mv);
            if replay.hand_number != self.hand_number || replay.outcome.is_some() {
                return if index == last && self.outcome.is_some() {
                    Ok(())
                } else {
                    Err(SetupError::HandOver { index })
                };
            }
        }
        if self.outcome.is_some() {
            // The last move ended the match by its points.
            return Ok(());
        }
        if let Some(part) = layout_difference(replay.layout(), self.layout()) {
            return Err(SetupError::HistoryLayout { part });
        }
        if replay.to_act != self.to_act {
            return Err(SetupError::HistoryToAct {
                seat: replay.to_act,
            });
        }
        if replay.drew_this_turn != self.drew_this_turn {
            return Err(SetupError::HistoryDrewThisTurn);
        }
        Ok(())
    }

    /// The position the history starts from: the state with its moves
    /// taken back, under the rules without points (see the module's
    /// comment). Each play must be on the layout where the moves put it.
    fn line_start(&self) -> Result<Game, SetupError> {
        // How many tiles the history places on each end, and whether it
        // places the lead.
        let mut placed = ByEnd::new(0usize, 0, 0, 0);
        let mut leads = false;
        for entry in &self.history {
            if let Action::Play { place, .. } = entry.mv.action {
                match place.end() {
                    Some(end) => placed[end] += 1,
                    None => leads = true,
                }
            }
        }
        let (hands, drawn) = taken_back(self.hands, &self.history)?;
        let mut seen = ByEnd::new(0usize, 0, 0, 0);
        let mut lead_seen = false;
        for (index, entry) in self.history.iter().enumerate() {
            let Action::Play { tile, place } = entry.mv.action else {
                continue;
            };
            let where_put = match place.end() {
                None => {
                    let first = !lead_seen;
                    lead_seen = true;
                    first && self.layout().lead() == Some(tile)
                }
                Some(end) => {
                    let arm = self.layout().arm(end);
                    let at = arm
                        .len()
                        .checked_sub(placed[end])
                        .map(|kept| kept + seen[end]);
                    seen[end] += 1;
                    at.and_then(|at| arm.get(at))
                        .is_some_and(|on| on.tile() == tile)
                }
            };
            if !where_put {
                return Err(SetupError::PlayNotOnLayout { index, tile });
            }
        }
        let layout = if leads || self.layout().is_empty() {
            // The hand's history from its lead places every tile.
            for end in End::ALL {
                let arm = self.layout().arm(end);
                let unplaced = arm.len().checked_sub(placed[end] + 1);
                if let Some((index, on)) = unplaced.and_then(|i| Some((i, arm.get(i)?))) {
                    return Err(SetupError::PlacedBeforeLead {
                        at: TilePlace::Arm { end, index },
                        tile: on.tile(),
                    });
                }
            }
            Layout::default()
        } else {
            self.layout_before(&placed)?
        };
        // The boneyard's next tile is kept last: the first tile drawn goes
        // back on top.
        let mut boneyard = self.boneyard.clone();
        boneyard.extend(drawn.iter().rev());
        Ok(Game {
            variant: String::new(),
            rules: Rules {
                in_play_scoring: InPlayScoring::None,
                capicua_bonus: 0,
                pass_bonus: 0,
                ..self.rules
            },
            players: self.players,
            seed: self.seed,
            hand_key: self.hand_key,
            hand_number: self.hand_number,
            hands,
            boneyard,
            scores: self.scores,
            to_act: self.to_act,
            hand_leader: self.hand_leader,
            required_lead: None,
            drew_this_turn: false,
            outcome: None,
            history: Vec::with_capacity(self.history.len()),
            digest: MatchDigest::UNRECORDED,
            family: Family::Line(layout),
        })
    }

    /// The layout with the last `placed` tiles of each arm taken off (the
    /// spinner with them, if it is one), checked as legal play could have
    /// built it.
    fn layout_before(&self, placed: &ByEnd<usize>) -> Result<Layout, SetupError> {
        let kept = |end: End| self.layout().arm(end).len().saturating_sub(placed[end]);
        let arms = ByEnd::from_fn(|end| {
            let arm = self.layout().arm(end);
            arm.iter().take(kept(end)).copied().collect()
        });
        let spinner = match self.layout().spinner() {
            Some(SpinnerAt::Arm { end, index }) if index >= kept(end) => None,
            spinner => spinner,
        };
        Layout::from_parts(self.layout().lead(), arms, spinner, self.geometry())
            .map_err(SetupError::HistoryStart)
    }
}

/// Where the layout `given` differs from the one the moves `built`: the
/// spinner, or the first tile that lies otherwise.
fn layout_difference(built: &Layout, given: &Layout) -> Option<LayoutPlace> {
    for end in End::ALL {
        let (arm, other) = (given.arm(end), built.arm(end));
        if let Some(index) = arm.iter().zip(other).position(|(a, b)| a != b) {
            return Some(LayoutPlace::Placed { end, index });
        }
        if arm.len() != other.len() {
            return Some(LayoutPlace::Arm(end));
        }
    }
    (built.spinner() != given.spinner() || built.lead() != given.lead())
        .then_some(LayoutPlace::Spinner)
}
