//! Chance set from outside: a hand's deal and the next tile drawn.
//!
//! A game deals from its seed. An environment that models the deal as
//! chance (OpenSpiel's chance nodes, a search sampling deals) deals the
//! tiles itself and hands them over: [`Game::redeal`] replaces the deal of
//! a hand not yet begun, [`Game::arrange_next_draw`] chooses the boneyard's
//! next tile. The match digest commits to the seed and the moves, not to
//! a deal set this way.

use thiserror::Error;

use super::deal::{MAX_SEATS, deal_without, hand_rng, lead};
use super::game::Game;
use super::moves::Seat;
use super::options::NextLeadRule;
use super::tile::{Tile, TileSet};
use super::train_game::hub_of_round;

/// Why a deal or a draw cannot be set.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum ChanceError {
    /// The hand has begun (a move was made) or the match is over.
    #[error("the hand has begun: a deal is set before its first move")]
    Begun,
    /// Not one hand per seat.
    #[error("{given} hands for {players} seats")]
    Seats {
        /// Hands given.
        given: usize,
        /// Seats of the game.
        players: u8,
    },
    /// A hand of another size than the rules deal.
    #[error("seat {seat} is dealt {wanted} tiles, not {given}")]
    Size {
        /// The seat.
        seat: Seat,
        /// Tiles given.
        given: u32,
        /// Tiles the rules deal.
        wanted: u32,
    },
    /// A tile that is not to be dealt (outside the set, or the hub), or
    /// given twice.
    #[error(
        "seat {seat}'s {tile} is not a tile left to deal (outside the set, the hub, or dealt twice)"
    )]
    NotDealable {
        /// The seat.
        seat: Seat,
        /// The tile.
        tile: Tile,
    },
    /// A draw of a tile the boneyard does not hold.
    #[error("{0} is not in the boneyard")]
    NotInBoneyard(Tile),
}

impl Game {
    /// Replaces the deal of the current hand, before its first move: each
    /// seat's tiles (as many as the rules deal it), the others forming the
    /// boneyard (at Moon, the widow). The leader follows again from the rules where the deal
    /// decides it (the first hand, a first-lead rule, a forced lead);
    /// otherwise (the winner leads, the lead rotates) it is kept.
    ///
    /// # Errors
    /// A hand already begun, a count of hands other than the seats, a hand
    /// of the wrong size, a tile not left to deal or dealt twice.
    pub fn redeal(&mut self, hands: &[TileSet]) -> Result<(), ChanceError> {
        if !self.history.is_empty() || self.outcome.is_some() {
            return Err(ChanceError::Begun);
        }
        if hands.len() != usize::from(self.players) {
            return Err(ChanceError::Seats {
                given: hands.len(),
                players: self.players,
            });
        }
        if self.trick_hand().is_some() {
            return self.redeal_tricks(hands);
        }
        let mut left: TileSet = self.boneyard.iter().copied().collect();
        for held in &self.hands {
            left = left.or(*held);
        }
        let left = deal_from(left, hands, |seat| self.hand(seat).len())?;
        let mut dealt = [TileSet::EMPTY; MAX_SEATS];
        for (slot, hand) in dealt.iter_mut().zip(hands) {
            *slot = *hand;
        }
        // The boneyard keeps its order where it can: its tiles still in it
        // first, then those freed from the old hands, in index order.
        let mut boneyard: Vec<Tile> = self
            .boneyard
            .iter()
            .copied()
            .filter(|tile| left.contains(*tile))
            .collect();
        let kept: TileSet = boneyard.iter().copied().collect();
        boneyard.splice(0..0, left.minus(kept).iter());
        self.boneyard = boneyard;
        self.hands = dealt;
        let decided_by_deal = self.hand_number == 1
            || self.rules.next_lead == NextLeadRule::FirstLead
            || self.required_lead.is_some();
        if decided_by_deal {
            // The hand's generator as the deal left it: the seed's deal is
            // made again (and set aside) so that a lead drawn at random is
            // the one the seed's deal drew.
            let mut rng = hand_rng(&self.hand_key, self.hand_number);
            let hub = self
                .rules
                .table
                .has_hub()
                .then(|| hub_of_round(self.rules.max_pip, self.hand_number));
            let mut scratch = Vec::new();
            deal_without(&self.rules, self.players, hub, &mut rng, &mut scratch);
            let (leader, required_lead) =
                lead(self.rules.first_lead, &self.hands, self.players, &mut rng);
            self.to_act = leader;
            self.hand_leader = leader;
            self.required_lead = required_lead;
        }
        Ok(())
    }

    /// Makes `tile` the boneyard's next tile to draw (the others keep their
    /// order).
    ///
    /// # Errors
    /// A tile the boneyard does not hold.
    pub fn arrange_next_draw(&mut self, tile: Tile) -> Result<(), ChanceError> {
        let at = self
            .boneyard
            .iter()
            .position(|&t| t == tile)
            .ok_or(ChanceError::NotInBoneyard(tile))?;
        let moved = self.boneyard.remove(at);
        self.boneyard.push(moved);
        Ok(())
    }
}

/// The tiles of `left` (those a deal may give) that `hands` leave, each
/// hand holding `wanted(seat)` tiles of `left`, none twice.
///
/// # Errors
/// A hand of another size, a tile not in `left` or given twice.
pub(crate) fn deal_from(
    mut left: TileSet,
    hands: &[TileSet],
    wanted: impl Fn(Seat) -> u32,
) -> Result<TileSet, ChanceError> {
    for (seat, hand) in (0..).zip(hands) {
        let wanted = wanted(seat);
        if hand.len() != wanted {
            return Err(ChanceError::Size {
                seat,
                given: hand.len(),
                wanted,
            });
        }
        if let Some(tile) = hand.minus(left).iter().next() {
            return Err(ChanceError::NotDealable { seat, tile });
        }
        left = left.minus(*hand);
    }
    Ok(left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;
    use crate::rules::presets::{PRESETS, preset};

    /// A redeal of the seed's own deal changes nothing; any other deal is
    /// played as dealt, at every preset.
    #[test]
    fn a_deal_set_from_outside_is_played() {
        for p in PRESETS {
            let players = *p.players.start();
            let rules = p.rules(players, None);
            let (game, _) = Game::new(p.id, rules, players, 9).expect("deals");
            let own: Vec<TileSet> = (0..players).map(|s| game.hand(s)).collect();
            let mut same = game.clone();
            same.redeal(&own).expect("its own deal");
            assert_eq!(same.hands, game.hands, "{}", p.id);
            assert_eq!(same.to_act(), game.to_act(), "{}", p.id);
            assert_eq!(same.required_lead(), game.required_lead(), "{}", p.id);
            // Seats 0 and 1 swap hands.
            let mut swapped = own.clone();
            swapped.swap(0, 1);
            let mut other = game.clone();
            other.redeal(&swapped).expect("a deal");
            assert_eq!(other.hand(0), game.hand(1));
            assert_eq!(other.boneyard_len(), game.boneyard_len());
            if let Some(hand) = other.trick_hand() {
                // A trick game's hand is dealt anew: it plays the new deal,
                // its widow (Moon's) the tile left over.
                assert_eq!(hand.hand(0), game.hand(1), "{}", p.id);
                assert_eq!(hand.dealt_hands().0[1], game.hand(0), "{}", p.id);
                assert_eq!(
                    hand.widow(),
                    game.trick_hand().and_then(|hand| hand.widow()),
                    "{}",
                    p.id
                );
            }
            let mv = other.legal_moves()[0];
            assert!(!other.hand(mv.seat).is_empty());
            other.play(mv).expect("legal");
            assert_eq!(other.redeal(&swapped), Err(ChanceError::Begun));
        }
    }

    #[test]
    fn bad_deals_and_draws_are_refused() {
        let rules = preset("draw").expect("preset").rules(2, None);
        let (mut game, _) = Game::new("draw", rules, 2, 1).expect("deals");
        let own = [game.hand(0), game.hand(1)];
        assert_eq!(
            game.redeal(&own[..1]),
            Err(ChanceError::Seats {
                given: 1,
                players: 2
            })
        );
        assert!(matches!(
            game.redeal(&[own[0], own[0]]),
            Err(ChanceError::NotDealable { seat: 1, .. })
        ));
        let short = own[0].minus(TileSet::EMPTY.with(own[0].iter().next().expect("tiles")));
        assert!(matches!(
            game.redeal(&[short, own[1]]),
            Err(ChanceError::Size { seat: 0, .. })
        ));
        let held = own[0].iter().next().expect("tiles");
        assert_eq!(
            game.arrange_next_draw(held),
            Err(ChanceError::NotInBoneyard(held))
        );
        // Each draw of a match takes the tile arranged, any of the boneyard.
        let mut draws = 0;
        let mut pick = 0;
        while game.outcome().is_none() {
            let seat = game.to_act();
            let moves = game.legal_moves();
            if moves == [Move::draw(seat)] {
                let tiles: Vec<Tile> = game.boneyard().collect();
                pick = (pick + 7) % tiles.len();
                let wanted = tiles[pick];
                game.arrange_next_draw(wanted).expect("in the boneyard");
                let before = game.hand(seat);
                game.play(Move::draw(seat)).expect("legal");
                assert_eq!(game.hand(seat).minus(before), TileSet::EMPTY.with(wanted));
                draws += 1;
            } else {
                game.play(moves[moves.len() - 1]).expect("legal");
            }
        }
        assert!(draws > 10, "{draws}");
    }
}
