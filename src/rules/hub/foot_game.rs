//! The turn at a chicken foot: one tile a turn on any open arm (or, while
//! the hub or a foot waits, only a new arm there); a seat that cannot place
//! draws one tile, then places it or passes. The seat that places a double
//! does not act again: the next seats owe its toes. No seat owns an arm,
//! so there are no markers and no opening chain.
//!
//! A line game never comes here: its hot path tests that it has no
//! [`Table`]; everything here is out of line.

use crate::rules::errors::PlayError;
use crate::rules::events::{Event, EventSink, HandEnd};
use crate::rules::family::{Family, Hub};
use crate::rules::foot::{Foot, FootPlace, Waiting};
use crate::rules::game::{Game, not_a_move_here};
use crate::rules::moves::{Action, Move, push_per_place};
use crate::rules::options::TableKind;
use crate::rules::place::Place;
use crate::rules::table::Table;

impl Game {
    /// The legal moves at a chicken foot: placements in tile order, each
    /// at its places (a new arm while something waits, else each open arm
    /// it fits); else the one draw or pass.
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn foot_moves_into(&self, foot: &Foot, out: &mut Vec<Move>) {
        let seat = self.to_act;
        let fitting = self.hand(seat).and(foot.fitting());
        // As `Foot::places_for` lists them, without asking the table
        // again for each tile: while something waits, every tile that
        // fits starts a new arm; else each goes on the arms it fits.
        if foot.waiting().is_some() {
            let new_arm = Place::at_foot(FootPlace::NewArm);
            out.extend(fitting.iter().map(|tile| Move::place(seat, tile, new_arm)));
        } else {
            // A tile fits three arms at most nearly always (a chicken
            // foot's toes show one number).
            for tile in fitting.iter() {
                push_per_place::<3>(out, foot.arms_for(tile), |arm| {
                    let arm = u8::try_from(arm).unwrap_or(u8::MAX);
                    Move::place(seat, tile, Place::at_foot(FootPlace::Arm(arm)))
                });
            }
        }
        self.draw_or_pass_if_stuck(out);
    }

    /// Checks a move of the seat to act (already known to be its turn, its
    /// tile in the set and in its hand) at a chicken foot.
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn check_foot(&self, foot: &Foot, mv: Move) -> Result<(), PlayError> {
        let seat = mv.seat;
        let can_place = !self.hand(seat).and(foot.fitting()).is_empty();
        match mv.action {
            Action::Play { tile, place } => {
                let Some(at) = place.foot() else {
                    return Err(PlayError::PlaceNotAtThisTable {
                        place,
                        table: TableKind::ChickenFoot,
                    });
                };
                match foot.fault(tile, at) {
                    Some(fault) => Err(PlayError::Foot {
                        tile,
                        place: at,
                        fault,
                    }),
                    None => Ok(()),
                }
            }
            Action::EndTurn => Err(PlayError::NoTurnToEnd { seat }),
            Action::Draw | Action::Pass => self.check_draw_or_pass(mv, can_place),
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {
                Err(not_a_move_here(mv.action, TableKind::ChickenFoot))
            }
        }
    }

    /// Plays a legal move at the game's chicken foot (changed where it
    /// lies, as a train table is).
    pub(in crate::rules) fn play_foot<S: EventSink>(&mut self, mv: Move, sink: &mut S) {
        let Family::Hub(Hub {
            table: Table::Foot(foot),
            ..
        }) = &mut self.family
        else {
            return;
        };
        let seat = mv.seat;
        match mv.action {
            Action::Play { tile, place } => {
                let at = place.foot().unwrap_or(FootPlace::NewArm);
                let Some(hand) = self.hands.get_mut(usize::from(seat)) else {
                    return;
                };
                hand.remove(tile);
                let out = hand.is_empty();
                // The event names the arm a new arm's tile started, and
                // the foot a toe completes.
                let started = match at {
                    FootPlace::NewArm => Some(u8::try_from(foot.arm_count()).unwrap_or(u8::MAX)),
                    FootPlace::Arm(_) => None,
                };
                let toes_of = match foot.waiting() {
                    Some(Waiting::Toes(arm)) => arm,
                    Some(Waiting::Hub) | None => 0,
                };
                let placed = foot.place(tile, at);
                sink.record(|| Event::TilePlayed {
                    seat,
                    tile,
                    place,
                    ends_total: 0,
                    started_arm: started,
                });
                if placed.foot_completed {
                    sink.record(|| Event::FootCompleted { seat, arm: toes_of });
                }
                if out {
                    self.end_hand(HandEnd::Domino(seat), false, sink);
                    return;
                }
                self.end_foot_turn(seat);
            }
            Action::Draw => {
                if self.draw_for(seat, sink) {
                    self.drew_this_turn = true;
                }
            }
            Action::Pass | Action::EndTurn => {
                sink.record(|| Event::Passed { seat });
                self.end_foot_turn(seat);
            }
            // (Refused by `check`.)
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {}
        }
        if self.is_blocked() {
            self.end_hand(HandEnd::Blocked, false, sink);
        }
    }

    /// Ends `seat`'s turn at a chicken foot: the next seat acts.
    fn end_foot_turn(&mut self, seat: crate::rules::moves::Seat) {
        self.drew_this_turn = false;
        self.to_act = self.next_seat(seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::Outcome;
    use crate::rules::foot::Waiting;
    use crate::rules::presets::preset;
    use crate::rules::tile::Tile;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    /// A round of Chicken Foot with the hands set: the hub takes its four
    /// arms first, a double's placer does not act again, the next seats
    /// owe its toes, and a seat that cannot place draws one, then passes.
    #[test]
    fn the_hub_and_a_foot_are_filled_first() {
        let rules = preset("chicken_foot").expect("a preset").rules(2, None);
        let (mut game, _) = Game::new("chicken_foot", rules, 2, 1).expect("valid");
        assert!(matches!(game.table(), Some(Table::Foot(_))));
        game.hands[0] = [t(9, 5), t(9, 3), t(5, 5), t(5, 2), t(0, 0)]
            .into_iter()
            .collect();
        game.hands[1] = [t(9, 1), t(9, 0), t(5, 1), t(7, 7)].into_iter().collect();
        game.to_act = 0;
        // Only the hub's sides, with the hub's number.
        assert_eq!(
            game.legal_moves(),
            vec![
                Move::place(0, t(9, 3), Place::at_foot(FootPlace::NewArm)),
                Move::place(0, t(9, 5), Place::at_foot(FootPlace::NewArm)),
            ]
        );
        for mv in [
            Move::place(0, t(9, 5), Place::at_foot(FootPlace::NewArm)),
            Move::place(1, t(9, 1), Place::at_foot(FootPlace::NewArm)),
            Move::place(0, t(9, 3), Place::at_foot(FootPlace::NewArm)),
        ] {
            game.play(mv).expect("legal");
        }
        // Arms may not grow while the hub waits.
        assert!(matches!(
            game.check(Move::place(1, t(5, 1), Place::at_foot(FootPlace::Arm(0)))),
            Err(PlayError::Foot { .. })
        ));
        let report = game
            .play(Move::place(1, t(9, 0), Place::at_foot(FootPlace::NewArm)))
            .expect("legal");
        assert_eq!(game.foot().map(Foot::waiting), Some(None));
        assert_eq!(report.events.len(), 1);
        // Seat 0 plays 5-5 on the 5 arm: a foot; seat 1 acts next and owes
        // its toes.
        game.play(Move::place(0, t(5, 5), Place::at_foot(FootPlace::Arm(0))))
            .expect("legal");
        assert_eq!(game.to_act(), 1);
        assert_eq!(game.foot().and_then(Foot::waiting), Some(Waiting::Toes(0)));
        assert_eq!(
            game.legal_moves(),
            vec![Move::place(1, t(5, 1), Place::at_foot(FootPlace::NewArm))]
        );
        game.play(Move::place(1, t(5, 1), Place::at_foot(FootPlace::NewArm)))
            .expect("legal");
        game.play(Move::place(0, t(5, 2), Place::at_foot(FootPlace::NewArm)))
            .expect("legal");
        // Seat 1 holds 7-7 only: it draws one, then places it or passes.
        assert_eq!(game.legal_moves(), vec![Move::draw(1)]);
        let drawn = game.play(Move::draw(1)).expect("legal");
        assert!(!drawn.events.is_empty());
        let legal = game.legal_moves();
        assert!(legal.iter().all(|mv| mv.seat == 1));
        if legal == vec![Move::pass(1)] {
            game.play(Move::pass(1)).expect("legal");
            assert_eq!(game.to_act(), 0);
        }
        assert_eq!(game.outcome(), None::<Outcome>);
    }

    /// 0-0 left in a hand counts 50 at the round's end.
    #[test]
    fn a_blank_double_left_counts_fifty() {
        let rules = preset("chicken_foot").expect("a preset").rules(2, None);
        let (mut game, _) = Game::new("chicken_foot", rules, 2, 3).expect("valid");
        game.hands[0] = [t(9, 4)].into_iter().collect();
        game.hands[1] = [t(0, 0), t(2, 1)].into_iter().collect();
        game.to_act = 0;
        let report = game
            .play(Move::place(0, t(9, 4), Place::at_foot(FootPlace::NewArm)))
            .expect("legal");
        assert_eq!(report.score_change, vec![0, 53]);
    }
}
