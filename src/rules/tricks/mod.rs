//! The trick-taking games (the rule book's §8 and §9: Texas 42 and Moon):
//! no layout; tiles are bid on, a contract is named and tiles are played
//! to tricks. Built in steps (docs/design/families.md); so far the
//! auction, the contract, the suits, a trick's worth, settlement, a whole
//! hand on its own ([`hand::TrickHand`]), the shake and the deal
//! ([`deal`]), the options and their refusals ([`options`]), who wins a
//! match ([`settle`]) and what the play shows of the hands
//! ([`knowledge`]), not yet a [`crate::rules::Game`].

pub mod auction;
pub mod contract;
pub mod deal;
pub mod hand;
pub mod knowledge;
pub mod options;
#[cfg(test)]
mod random_matches;
pub mod settle;
pub mod suit;
pub mod trick;
