//! How a turn goes at a train table (Mexican Train): the legal moves, the
//! checks and the play of a move. Where a tile fits, the markers and the
//! unsatisfied double are the table's ([`trains`](crate::rules::trains)); how a
//! round is scored and the match ends is [`settle`](crate::rules::settle)'s.
//!
//! A turn places one tile, except that the seat that places a double acts
//! again to cover it, and a seat's first turn of a round that begins by
//! placing on its own train is an *opening chain*: it goes on placing on its
//! own train until it ends its turn, or holds no tile for it. A seat that
//! cannot place draws one tile, then places or passes; a pass raises its
//! marker.

use crate::rules::errors::PlayError;
use crate::rules::events::{Event, EventSink, HandEnd};
use crate::rules::family::{Family, Hub};
use crate::rules::game::{Game, not_a_move_here};
use crate::rules::moves::{Action, Move, Seat};
use crate::rules::options::TableKind;
use crate::rules::table::Table;
use crate::rules::tile::{Tile, TileSet};
use crate::rules::trains::{TrainFault, TrainId, Trains};

/// How the current turn stands at a train table, and which seats have had
/// a turn this round. Everything here follows from the round's history.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TurnState {
    /// The seat to act is laying its opening chain.
    pub chain: bool,
    /// The seat to act has placed a tile this turn.
    pub placed: bool,
    /// The seats that have ended a turn this round, one bit each (a seat's
    /// first turn is the one that may open a chain).
    pub turned: u8,
}

/// What a placement that leaves its seat tiles does to the turn, before
/// the seat's hand is consulted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AfterPlacement {
    /// A double was placed: the seat acts again to cover it, and may draw
    /// once more to do so.
    CoverDouble,
    /// The seat's opening chain goes on if it holds a tile for its own
    /// train (the tile came from its hand); else its turn ends.
    ChainIfOwnTile,
    /// The turn ends.
    EndTurn,
}

impl TurnState {
    /// Whether `seat` has ended a turn this round.
    fn has_turned(self, seat: Seat) -> bool {
        self.turned & (1 << (seat & 7)) != 0
    }

    /// Whether `seat` placing on `train` now opens its chain: the rules
    /// have chains, it is the seat's first turn of the round, begun (no
    /// tile placed or drawn yet) by placing on its own train with no
    /// double unsatisfied.
    #[must_use]
    pub fn opens_chain(
        self,
        rules_have_chains: bool,
        drew: bool,
        double_unsatisfied: bool,
        seat: Seat,
        train: TrainId,
    ) -> bool {
        rules_have_chains
            && !self.placed
            && !drew
            && !self.has_turned(seat)
            && !double_unsatisfied
            && train == TrainId::Seat(seat)
    }

    /// Records a placement that left its seat tiles (`opens`: it opened the
    /// chain; `drew`: the seat drew this turn; `double`: the tile is a
    /// double) and says what follows.
    pub fn place(&mut self, opens: bool, drew: bool, double: bool) -> AfterPlacement {
        self.placed = true;
        self.chain |= opens;
        if double {
            AfterPlacement::CoverDouble
        } else if self.chain && !drew {
            AfterPlacement::ChainIfOwnTile
        } else {
            AfterPlacement::EndTurn
        }
    }

    /// Ends `seat`'s turn.
    pub fn end(&mut self, seat: Seat) {
        *self = TurnState {
            chain: false,
            placed: false,
            turned: self.turned | (1 << (seat & 7)),
        };
    }
}

impl Game {
    /// The tiles of `hand` that `seat` may place now at a train table.
    // Out of line, and marked cold: a line game's hot path only tests
    // that there is no train table.
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn train_placeable(
        &self,
        trains: &Trains,
        seat: Seat,
        hand: TileSet,
    ) -> TileSet {
        hand.and(
            trains
                .open_places(seat, self.in_open_chain(trains))
                .fitting(),
        )
    }

    /// Whether the seat to act is in its opening chain with no double
    /// unsatisfied: it places on its own train only, or ends its turn.
    fn in_open_chain(&self, trains: &Trains) -> bool {
        self.turn().chain && trains.unsatisfied().is_none()
    }

    /// The legal moves at a train table: placements in tile order, each on
    /// its trains (own, other seats' in seat order, the Mexican); then an
    /// end of turn in an opening chain; else the one draw or pass.
    // Out of line, and marked cold: a line game's hot path only tests
    // that there is no train table.
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn train_moves_into(&self, trains: &Trains, out: &mut Vec<Move>) {
        let seat = self.to_act;
        let chain = self.in_open_chain(trains);
        let open = trains.open_places(seat, chain);
        for tile in self.hand(seat).and(open.fitting()).iter() {
            open.push_moves(seat, tile, out);
        }
        if chain {
            out.push(Move::end_turn(seat));
        }
        self.draw_or_pass_if_stuck(out);
    }

    /// Checks a move of the seat to act (already known to be its turn, its
    /// tile in the set and in its hand) at a train table.
    // Out of line, and marked cold: a line game's hot path only tests
    // that there is no train table.
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn check_train(&self, trains: &Trains, mv: Move) -> Result<(), PlayError> {
        let seat = mv.seat;
        let can_place = !self
            .train_placeable(trains, seat, self.hand(seat))
            .is_empty();
        match mv.action {
            Action::Play { tile, place } => {
                let Some(train) = place.train() else {
                    return Err(PlayError::PlaceNotAtThisTable {
                        place,
                        table: TableKind::Trains,
                    });
                };
                let fault = if self.in_open_chain(trains) && train != TrainId::Seat(seat) {
                    Some(TrainFault::OutsideChain)
                } else {
                    trains.fault(tile, train, seat)
                };
                match fault {
                    Some(fault) => Err(PlayError::Train { tile, train, fault }),
                    None => Ok(()),
                }
            }
            Action::EndTurn if self.in_open_chain(trains) => Ok(()),
            Action::EndTurn => Err(PlayError::NoTurnToEnd { seat }),
            Action::Draw | Action::Pass => self.check_draw_or_pass(mv, can_place),
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {
                Err(not_a_move_here(mv.action, TableKind::Trains))
            }
        }
    }

    /// Plays a legal move at the game's train table (its history entry
    /// already pushed), then ends the round if it is blocked. The table is
    /// changed where it lies, beside the fields a turn changes: moving it
    /// out and back cost every move a copy and a check.
    pub(in crate::rules) fn play_train<S: EventSink>(&mut self, mv: Move, sink: &mut S) {
        let Family::Hub(Hub {
            table: Table::Trains(trains),
            turn,
        }) = &mut self.family
        else {
            return;
        };
        let seat = mv.seat;
        match mv.action {
            Action::Play { tile, place } => {
                let train = place.train().unwrap_or(TrainId::Seat(seat));
                let drew = self.drew_this_turn;
                let opens_chain = turn.opens_chain(
                    self.rules.opening_chain,
                    drew,
                    trains.unsatisfied().is_some(),
                    seat,
                    train,
                );
                let Some(hand) = self.hands.get_mut(usize::from(seat)) else {
                    return;
                };
                hand.remove(tile);
                let hand = *hand;
                let placed = trains.place(tile, train, seat);
                sink.record(|| Event::TilePlayed {
                    seat,
                    tile,
                    place,
                    ends_total: 0,
                    started_arm: None,
                });
                if placed.marker_lowered {
                    sink.record(|| Event::MarkerLowered { seat });
                }
                if placed.double_satisfied {
                    // The covered double touches the tile just placed.
                    let double = tile_touching(trains, train);
                    sink.record(|| Event::DoubleSatisfied {
                        seat,
                        train,
                        double: Tile::new(double, double),
                    });
                }
                if hand.is_empty() {
                    // Going out ends the round at once, on a double too.
                    self.end_hand(HandEnd::Domino(seat), false, sink);
                    return;
                }
                match turn.place(opens_chain, drew, placed.double_placed) {
                    AfterPlacement::CoverDouble => self.drew_this_turn = false,
                    AfterPlacement::ChainIfOwnTile
                        if holds_tile_for_own_train(trains, seat, hand) => {}
                    AfterPlacement::ChainIfOwnTile | AfterPlacement::EndTurn => {
                        self.end_turn(seat);
                    }
                }
            }
            Action::Draw => {
                if self.draw_for(seat, sink) {
                    self.drew_this_turn = true;
                }
            }
            Action::Pass => {
                let raised = trains.raise_marker(seat);
                sink.record(|| Event::Passed { seat });
                if raised {
                    sink.record(|| Event::MarkerRaised { seat });
                }
                self.end_turn(seat);
            }
            Action::EndTurn => {
                sink.record(|| Event::TurnEnded { seat });
                self.end_turn(seat);
            }
            // (Refused by `check`.)
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {}
        }
        if self.is_blocked() {
            self.end_hand(HandEnd::Blocked, false, sink);
        }
    }

    /// Ends `seat`'s turn: the next seat acts.
    fn end_turn(&mut self, seat: Seat) {
        if let Family::Hub(hub) = &mut self.family {
            hub.turn.end(seat);
        }
        self.drew_this_turn = false;
        self.to_act = self.next_seat(seat);
    }

    /// Whether nobody can place and nobody may draw at a train table: every
    /// train counted as open, but only the unsatisfied double while there
    /// is one.
    // Out of line, and marked cold: a line game's hot path only tests
    // that there is no train table.
    #[cold]
    #[inline(never)]
    pub(in crate::rules) fn train_blocked(&self, trains: &Trains) -> bool {
        self.all_hands().and(trains.fitting(0, true)).is_empty()
    }
}

/// The number the last tile of `train` was placed on (what a tile that
/// covered a double touches: the double's number).
fn tile_touching(trains: &Trains, train: TrainId) -> u8 {
    trains
        .train(train)
        .and_then(|train| train.tiles().last())
        .map_or(0, |placed| placed.inner)
}

/// Whether `hand` holds a tile for `seat`'s own train.
fn holds_tile_for_own_train(trains: &Trains, seat: Seat, hand: TileSet) -> bool {
    !hand.and(own_train_tiles(trains, seat)).is_empty()
}

/// The tiles that fit `seat`'s own train now.
#[must_use]
pub fn own_train_tiles(trains: &Trains, seat: Seat) -> TileSet {
    trains
        .train(TrainId::Seat(seat))
        .map_or(TileSet::EMPTY, |train| TileSet::showing(train.open_end()))
}

/// The hub of round `round` (from 1) of a double-`max_pip` set: the
/// highest double first, then each next lower.
#[must_use]
pub fn hub_of_round(max_pip: u8, round: u32) -> Tile {
    let step = u8::try_from(round.saturating_sub(1)).unwrap_or(u8::MAX);
    let pips = max_pip.saturating_sub(step);
    Tile::new(pips, pips)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::events::Outcome;
    use crate::rules::place::Place;
    use crate::rules::presets::preset;
    use crate::rules::tile::Tile;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    fn on(seat: Seat, tile: Tile, train: TrainId) -> Move {
        Move::place(seat, tile, Place::on_train(train))
    }

    const MEXICAN: TrainId = TrainId::Mexican;

    fn own(seat: Seat) -> TrainId {
        TrainId::Seat(seat)
    }

    /// A round of Mexican Train for `hands.len()` seats with hub 12-12, the
    /// given hands and boneyard (next to draw first), `to_act` starting.
    fn round(hands: &[&[Tile]], boneyard: &[Tile], to_act: Seat) -> Game {
        let players = u8::try_from(hands.len()).unwrap_or(2);
        let rules = preset("mexican_train")
            .expect("preset")
            .rules(players, None);
        let (mut game, _) = Game::new("mexican_train", rules, players, 1).expect("valid");
        game.hands = [TileSet::EMPTY; crate::rules::deal::MAX_SEATS];
        for (hand, tiles) in game.hands.iter_mut().zip(hands) {
            *hand = tiles.iter().copied().collect();
        }
        game.boneyard = boneyard.iter().rev().copied().collect();
        game.to_act = to_act;
        game.hand_leader = to_act;
        game.family = Family::Hub(Hub {
            table: Table::Trains(Trains::new(12, players, true)),
            turn: TurnState::default(),
        });
        game.history.clear();
        game
    }

    fn play(game: &mut Game, moves: &[Move]) -> Vec<Event> {
        let mut events = Vec::new();
        for &mv in moves {
            assert!(
                game.legal_moves().contains(&mv),
                "{mv} not listed: {:?}",
                game.legal_moves()
            );
            events.extend(game.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}")).events);
        }
        events
    }

    /// The rule book's example: seat 0 places 12-5 on its train, then (its
    /// opening chain) 5-5, covers it with 5-3 and ends its turn; seat 1
    /// holds no 12, draws 12-9 and must place it, on its own train or to
    /// start the Mexican train.
    #[test]
    fn the_rule_books_example() {
        let mut game = round(
            &[
                &[t(12, 5), t(5, 5), t(5, 3), t(3, 1), t(0, 0)],
                &[t(4, 4), t(2, 1)],
            ],
            &[t(12, 9), t(8, 8)],
            0,
        );
        play(
            &mut game,
            &[on(0, t(12, 5), own(0)), on(0, t(5, 5), own(0))],
        );
        // The double must be covered first: only 5-3 on it, no end of turn.
        assert_eq!(game.legal_moves(), vec![on(0, t(5, 3), own(0))]);
        assert_eq!(
            game.check(Move::end_turn(0)),
            Err(PlayError::NoTurnToEnd { seat: 0 })
        );
        play(&mut game, &[on(0, t(5, 3), own(0))]);
        // The chain goes on: 3-1 on its own train, or the end of its turn.
        assert_eq!(
            game.legal_moves(),
            vec![on(0, t(3, 1), own(0)), Move::end_turn(0)]
        );
        assert_eq!(
            game.check(on(0, t(0, 0), MEXICAN)),
            Err(PlayError::Train {
                tile: t(0, 0),
                train: MEXICAN,
                fault: TrainFault::OutsideChain
            })
        );
        play(&mut game, &[Move::end_turn(0)]);
        assert_eq!(game.to_act(), 1);
        assert_eq!(game.legal_moves(), vec![Move::draw(1)]);
        play(&mut game, &[Move::draw(1)]);
        assert_eq!(
            game.legal_moves(),
            vec![on(1, t(12, 9), own(1)), on(1, t(12, 9), MEXICAN)]
        );
        assert_eq!(
            game.check(Move::pass(1)),
            Err(PlayError::MustPlayNotPass { seat: 1 })
        );
        play(&mut game, &[on(1, t(12, 9), MEXICAN)]);
        assert_eq!(game.to_act(), 0, "one tile a turn");
    }

    /// A double must be satisfied: its placer acts again, may draw once
    /// more to cover it, and passes if it cannot (its marker goes up); the
    /// next seat must cover it too, on another seat's train, before
    /// anything else.
    #[test]
    fn doubles_must_be_satisfied() {
        let mut game = round(
            &[&[t(12, 6), t(6, 6), t(1, 1)], &[t(6, 2), t(12, 3), t(8, 8)]],
            &[t(0, 1), t(0, 2)],
            0,
        );
        game.rules.opening_chain = false;
        play(&mut game, &[on(0, t(12, 6), own(0))]);
        play(&mut game, &[on(1, t(12, 3), own(1))]);
        play(&mut game, &[on(0, t(6, 6), own(0))]);
        assert_eq!(game.to_act(), 0, "the placer of a double acts again");
        assert_eq!(game.legal_moves(), vec![Move::draw(0)]);
        let events = play(&mut game, &[Move::draw(0), Move::pass(0)]);
        assert!(events.contains(&Event::Passed { seat: 0 }));
        let trains = game.trains().expect("trains");
        assert!(trains.train(own(0)).is_some_and(|train| train.marker()));
        assert_eq!(trains.unsatisfied(), Some(own(0)));
        // Seat 1 may only cover the double, on seat 0's train.
        assert_eq!(game.to_act(), 1);
        assert_eq!(game.legal_moves(), vec![on(1, t(6, 2), own(0))]);
        assert_eq!(
            game.check(on(1, t(6, 2), own(1))),
            Err(PlayError::Train {
                tile: t(6, 2),
                train: own(1),
                fault: TrainFault::DoubleUnsatisfied(own(0))
            })
        );
        play(&mut game, &[on(1, t(6, 2), own(0))]);
        assert_eq!(game.trains().and_then(Trains::unsatisfied), None);
        // Seat 0's marker stays up: only its own placement takes it down.
        assert!(
            game.trains()
                .and_then(|trains| trains.train(own(0)))
                .is_some_and(|train| train.marker())
        );
    }

    /// A double placed from a draw may be covered with one more draw.
    #[test]
    fn a_drawn_double_may_be_covered_with_a_second_draw() {
        let mut game = round(
            &[&[t(1, 0), t(4, 3)], &[t(2, 0)]],
            &[t(12, 11), t(11, 11), t(11, 4)],
            0,
        );
        game.rules.opening_chain = false;
        // 12-11 is drawn and starts the Mexican train; seat 1 draws 11-11
        // and places it there: it must be covered.
        play(&mut game, &[Move::draw(0), on(0, t(12, 11), MEXICAN)]);
        assert_eq!(game.to_act(), 1);
        play(&mut game, &[Move::draw(1), on(1, t(11, 11), MEXICAN)]);
        assert_eq!(game.to_act(), 1, "a double's placer acts again");
        assert_eq!(game.legal_moves(), vec![Move::draw(1)], "a second draw");
        play(&mut game, &[Move::draw(1), on(1, t(11, 4), MEXICAN)]);
        assert_eq!(game.to_act(), 0);
    }

    /// A first turn that places elsewhere than the seat's own train, or
    /// begins with a draw, opens no chain; nor does any later turn.
    #[test]
    fn when_a_chain_opens() {
        let mut game = round(
            &[
                &[t(12, 5), t(5, 4), t(4, 0)],
                &[t(12, 7), t(7, 3), t(3, 1), t(9, 8)],
            ],
            &[t(0, 9)],
            0,
        );
        play(&mut game, &[on(0, t(12, 5), MEXICAN)]);
        assert_eq!(game.to_act(), 1, "no chain from the Mexican train");
        play(&mut game, &[on(1, t(12, 7), own(1))]);
        assert_eq!(game.to_act(), 1, "a chain from its own train");
        play(&mut game, &[on(1, t(7, 3), own(1)), on(1, t(3, 1), own(1))]);
        // It holds no tile for its train now: the turn ends by itself.
        assert_eq!(game.to_act(), 0);
        play(&mut game, &[on(0, t(5, 4), MEXICAN)]);
        assert_eq!(game.to_act(), 1, "a later turn places one tile");
    }

    /// A pass raises the passer's marker; any seat may then place on that
    /// train; its owner's placement there takes the marker down.
    #[test]
    fn markers_open_and_close_a_train() {
        let mut game = round(
            &[&[t(3, 2), t(12, 1)], &[t(12, 4), t(4, 4), t(1, 0)]],
            &[],
            0,
        );
        game.rules.opening_chain = false;
        game.family = Family::Hub(Hub {
            table: Table::Trains(Trains::new(12, 2, false)),
            turn: TurnState::default(),
        });
        // Seat 0 holds 12-1: it places; then seat 1.
        play(
            &mut game,
            &[on(0, t(12, 1), own(0)), on(1, t(12, 4), own(1))],
        );
        // Seat 0 holds 3-2: no train takes it, the boneyard is empty.
        assert_eq!(game.legal_moves(), vec![Move::pass(0)]);
        play(&mut game, &[Move::pass(0)]);
        assert!(
            game.trains()
                .and_then(|tr| tr.train(own(0)))
                .is_some_and(|tr| tr.marker())
        );
        // Seat 1 may place 1-0 on seat 0's open train.
        assert!(game.legal_moves().contains(&on(1, t(1, 0), own(0))));
    }

    /// Going out on a double ends the round at once; every other seat adds
    /// its pips, 0-0 counting what the rules say.
    #[test]
    fn going_out_on_a_double_and_scoring() {
        let mut game = round(
            &[&[t(12, 10), t(10, 10)], &[t(0, 0), t(6, 5)], &[t(9, 9)]],
            &[t(3, 3), t(4, 4)],
            1,
        );
        game.rules.double_blank_pips = 50;
        play(&mut game, &[Move::draw(1), Move::pass(1)]);
        play(&mut game, &[Move::draw(2), Move::pass(2)]);
        // Seat 0's first turn: 12-10 opens its chain, 10-10 is its last
        // tile: the round ends with the double unsatisfied.
        play(&mut game, &[on(0, t(12, 10), own(0))]);
        let events = play(&mut game, &[on(0, t(10, 10), own(0))]);
        assert!(events.iter().any(|e| matches!(e, Event::HandEnded { .. })));
        assert_eq!(game.hand_number(), 2, "the round ended");
        assert_eq!(game.scores(), &[0, 50 + 11 + 6, 18 + 8]);
    }

    /// The match is its rounds; the lowest score wins, a tie for lowest is
    /// a draw.
    #[test]
    fn the_lowest_score_wins_after_the_last_round() {
        let mut game = round(&[&[t(12, 1)], &[t(2, 2)]], &[], 0);
        game.rules.rounds = 1;
        play(&mut game, &[on(0, t(12, 1), own(0))]);
        assert_eq!(game.outcome(), Some(Outcome::Winner(0)));
        assert_eq!(game.scores(), &[0, 4]);
        let mut tied = round(&[&[t(3, 1)], &[t(2, 2)]], &[], 0);
        tied.rules.rounds = 1;
        tied.scores = [0; crate::rules::deal::MAX_SEATS];
        // Nobody holds a 12 and the boneyard is empty: blocked at once
        // when checked; both add 4.
        assert!(tied.is_blocked());
        play(&mut tied, &[Move::pass(0)]);
        assert_eq!(tied.outcome(), Some(Outcome::Draw));
        assert_eq!(tied.scores(), &[4, 4]);
    }

    /// Each round's hub is the next lower double, taken out before the deal.
    #[test]
    fn hubs_and_deals() {
        assert_eq!(hub_of_round(12, 1), t(12, 12));
        assert_eq!(hub_of_round(12, 13), t(0, 0));
        for players in 2..=8 {
            let rules = preset("mexican_train")
                .expect("preset")
                .rules(players, None);
            let (game, _) = Game::new("mexican_train", rules, players, 9).expect("valid");
            let hub = game.trains().map(Trains::hub);
            assert_eq!(hub, Some(t(12, 12)));
            let dealt = (0..players)
                .map(|seat| game.hand(seat).len())
                .collect::<Vec<_>>();
            let size = match players {
                2..=4 => 15,
                5 | 6 => 12,
                _ => 10,
            };
            assert!(dealt.iter().all(|&n| n == size), "{players}p: {dealt:?}");
            assert_eq!(
                game.boneyard_len() as u32,
                91 - 1 - size * u32::from(players)
            );
            assert!(!(0..players).any(|seat| game.hand(seat).contains(t(12, 12))));
        }
    }
}
