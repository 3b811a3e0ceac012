//! What one seat may see (its information set): its own hand and what is
//! public — the table, the scores, the history of moves, how many tiles each
//! seat and the boneyard hold — and what an event shows to it. Other seats'
//! tiles, the boneyard's order and the seed are never visible through a
//! [`View`]. The service encodes views; computer opponents read them.

use super::end::End;
use super::events::{Event, Outcome, Side};
use super::foot::Foot;
use super::game::{Game, HistoryEntry};
use super::layout::Layout;
use super::moves::{Action, Move, Seat};
use super::options::Rules;
use super::record::MatchDigest;
use super::tile::{Tile, TileSet};

/// Another seat's discard as a view's history shows it: 0-1, a tile Moon
/// (the one game with a discard) never deals.
pub const HIDDEN_DISCARD: Tile = Tile::new(1, 0);
use super::train_game::TurnState;
use super::trains::Trains;

/// One seat's information about a game.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The whole game: private, so that only what the seat may know is
    /// reachable through the view's methods.
    game: &'a Game,
    /// The seat whose view this is (a seat of the game); seat 0 for a
    /// watcher's, which reads no seat's own tiles.
    seat: Seat,
    /// Whether this is a watcher's view (`Game::public_view`): what every
    /// seat may see and no more: no hand, no legal moves, no forced lead.
    watcher: bool,
}

impl Game {
    /// What `seat` may know; `None` when the game has no such seat.
    ///
    /// ```
    /// use pips::rules::{Game, presets::preset};
    /// let rules = preset("muggins").unwrap().rules(2, None);
    /// let (game, _) = Game::new("muggins", rules, 2, 7).unwrap();
    /// let view = game.view(1).unwrap();
    /// assert_eq!(view.hand(), game.hand(1));
    /// assert_eq!(view.boneyard_len(), game.boneyard_len());
    /// assert!(game.view(2).is_none());
    /// ```
    #[must_use]
    pub fn view(&self, seat: Seat) -> Option<View<'_>> {
        (seat < self.players()).then_some(View {
            game: self,
            seat,
            watcher: false,
        })
    }

    /// What a watcher may know: what is public to every seat (the table,
    /// the scores, the history, how many tiles each seat holds) and no
    /// seat's own tiles.
    ///
    /// ```
    /// use pips::rules::{Game, presets::preset};
    /// let rules = preset("muggins").unwrap().rules(2, None);
    /// let (game, _) = Game::new("muggins", rules, 2, 7).unwrap();
    /// let public = game.public_view();
    /// assert!(public.is_watcher() && public.hand().is_empty());
    /// assert!(public.legal_moves().is_empty());
    /// assert_eq!(public.hand_size(0), 7);
    /// ```
    #[must_use]
    pub fn public_view(&self) -> View<'_> {
        View {
            game: self,
            seat: 0,
            watcher: true,
        }
    }
}

impl<'a> View<'a> {
    /// The whole game, for the rules' own use (what follows from the view
    /// must read only what the seat may know).
    pub(super) fn game(&self) -> &'a Game {
        self.game
    }

    /// The seat whose view this is (0 for a watcher's).
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Whether this is a watcher's view: no seat's own tiles.
    #[must_use]
    pub fn is_watcher(&self) -> bool {
        self.watcher
    }

    /// The preset the game was started from.
    #[must_use]
    pub fn variant(&self) -> &'a str {
        self.game.variant()
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &'a Rules {
        self.game.rules()
    }

    /// Number of seats.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.game.players()
    }

    /// The side `seat` scores for.
    #[must_use]
    pub fn side_of(&self, seat: Seat) -> Side {
        self.game.side_of(seat)
    }

    /// The current hand, from 1.
    #[must_use]
    pub fn hand_number(&self) -> u32 {
        self.game.hand_number()
    }

    /// The seat's own tiles (none for a watcher).
    #[must_use]
    pub fn hand(&self) -> TileSet {
        if self.watcher {
            TileSet::EMPTY
        } else {
            self.game.hand(self.seat)
        }
    }

    /// How many tiles `seat` holds (public: tiles are counted on the table).
    #[must_use]
    pub fn hand_size(&self, seat: Seat) -> u32 {
        self.game.hand(seat).len()
    }

    /// Number of undrawn tiles.
    #[must_use]
    pub fn boneyard_len(&self) -> usize {
        self.game.boneyard_len()
    }

    /// The table.
    #[must_use]
    pub fn layout(&self) -> &'a Layout {
        self.game.layout()
    }

    /// The train table, at a train game: every train, its tiles and marker,
    /// and the unsatisfied double are public.
    #[must_use]
    pub fn trains(&self) -> Option<&'a Trains> {
        self.game.trains()
    }

    /// The chicken foot, at a Chicken Foot game: every arm and what waits
    /// are public.
    #[must_use]
    pub fn foot(&self) -> Option<&'a Foot> {
        self.game.foot()
    }

    /// The trick hand, at a trick game, for the codec to draw its public
    /// table from (the auction, the contract, the tricks): crate-only,
    /// since the hand also holds every seat's tiles.
    #[must_use]
    pub(crate) fn trick_hand(&self) -> Option<&'a crate::rules::tricks::hand::TrickHand> {
        self.game.trick_hand()
    }

    /// How the turn stands at a train table (public: the moves so far
    /// show it).
    #[must_use]
    pub fn turn(&self) -> TurnState {
        self.game.turn()
    }

    /// Whether the seat to act has drawn this turn (public: every draw is
    /// seen).
    #[must_use]
    pub fn drew_this_turn(&self) -> bool {
        self.game.drew_this_turn()
    }

    /// The ends a tile may be placed on now, with the number each shows.
    pub fn open_ends(&self) -> impl Iterator<Item = (End, u8)> + 'a {
        self.game.open_ends()
    }

    /// The ends total as counted for in-play scoring.
    #[must_use]
    pub fn ends_total(&self) -> u32 {
        self.game.ends_total()
    }

    /// Score per side.
    #[must_use]
    pub fn scores(&self) -> &'a [i32] {
        self.game.scores()
    }

    /// How the match ended, once it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The seat to act, while the match goes on.
    #[must_use]
    pub fn to_act(&self) -> Option<Seat> {
        self.game.outcome().is_none().then(|| self.game.to_act())
    }

    /// Whether this seat is to act (never a watcher).
    #[must_use]
    pub fn is_own_turn(&self) -> bool {
        !self.watcher && self.to_act() == Some(self.seat)
    }

    /// The seat that leads the current hand.
    #[must_use]
    pub fn hand_leader(&self) -> Seat {
        self.game.hand_leader()
    }

    /// The tile the leader must lead, while forced: known to the leader
    /// alone (the others know only that the lead is forced).
    #[must_use]
    pub fn required_lead(&self) -> Option<Tile> {
        self.game
            .required_lead()
            .filter(|_| !self.watcher && self.game.hand_leader() == self.seat)
    }

    /// The current hand's moves (once the match is over, its last hand's),
    /// oldest first, with no drawn tile named: the public history. Another
    /// seat's discard (Moon's) shows as [`HIDDEN_DISCARD`], a tile Moon
    /// never deals: that a tile was laid away is public, which one is not.
    #[must_use]
    pub fn history(&self) -> impl ExactSizeIterator<Item = HistoryEntry> + 'a {
        let me = self.seat;
        self.game.history().iter().map(move |&entry| HistoryEntry {
            drawn: None,
            mv: match entry.mv.action {
                Action::Discard(_) if entry.mv.seat != me => Move {
                    action: Action::Discard(HIDDEN_DISCARD),
                    ..entry.mv
                },
                _ => entry.mv,
            },
        })
    }

    /// The running digest of the match's moves (public).
    #[must_use]
    pub fn digest(&self) -> MatchDigest {
        self.game.digest()
    }

    /// The seat's legal moves: none unless it is to act.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_own_turn() {
            self.game.legal_moves()
        } else {
            Vec::new()
        }
    }
}

impl Event {
    /// The event as `seat` sees it: another seat's drawn tile is hidden,
    /// and so is a forced lead from every seat but its holder.
    #[must_use]
    pub fn seen_by(&self, seat: Seat) -> Event {
        self.seen_from(Some(seat))
    }

    /// The event as a watcher sees it: no drawn tile, no forced lead.
    #[must_use]
    pub fn public(&self) -> Event {
        self.seen_from(None)
    }

    /// The event as `viewer` sees it (`None`: a watcher, who holds no
    /// tile).
    fn seen_from(&self, viewer: Option<Seat>) -> Event {
        match *self {
            Event::TileDrawn { seat: drew, .. } if Some(drew) != viewer => Event::TileDrawn {
                seat: drew,
                tile: None,
            },
            Event::HandDealt { hand, leader, .. } if Some(leader) != viewer => Event::HandDealt {
                hand,
                leader,
                required_lead: None,
            },
            // The widow and the discard are the Moon bidder's alone.
            Event::WidowTaken { seat, .. } if Some(seat) != viewer => {
                Event::WidowTaken { seat, tile: None }
            }
            Event::Discarded { seat, .. } if Some(seat) != viewer => {
                Event::Discarded { seat, tile: None }
            }
            _ => self.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::preset;

    #[test]
    fn a_seat_sees_its_own_draws_and_forced_lead_only() {
        let drawn = Event::TileDrawn {
            seat: 1,
            tile: Some(Tile::new(3, 2)),
        };
        assert_eq!(drawn.seen_by(1), drawn);
        assert_eq!(drawn.public(), drawn.seen_by(0), "a watcher sees no tile");
        assert_eq!(
            drawn.seen_by(0),
            Event::TileDrawn {
                seat: 1,
                tile: None
            }
        );
        let dealt = Event::HandDealt {
            hand: 1,
            leader: 0,
            required_lead: Some(Tile::new(6, 6)),
        };
        assert_eq!(dealt.seen_by(0), dealt);
        assert!(matches!(
            dealt.seen_by(1),
            Event::HandDealt {
                required_lead: None,
                ..
            }
        ));
        assert_eq!(dealt.public(), dealt.seen_by(1), "a watcher sees no lead");
    }

    #[test]
    fn only_the_seat_to_act_sees_legal_moves_and_only_the_leader_its_lead() {
        let rules = preset("muggins").expect("preset").rules(2, None);
        let (game, _) = Game::new("muggins", rules, 2, 7).expect("valid");
        let leader = game.to_act();
        let other = 1 - leader;
        let (mine, theirs) = (
            game.view(leader).expect("seat"),
            game.view(other).expect("seat"),
        );
        assert_eq!(mine.legal_moves(), game.legal_moves());
        assert!(theirs.legal_moves().is_empty());
        assert_eq!(mine.required_lead(), game.required_lead());
        assert_eq!(theirs.required_lead(), None);
        assert_eq!(theirs.hand(), game.hand(other));
        assert_eq!(theirs.hand_size(leader), game.hand(leader).len());
    }
}
