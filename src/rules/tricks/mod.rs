//! The trick-taking games (the rule book's §8 and §9: Texas 42 and Moon):
//! no layout; tiles are bid on, a contract is named and tiles are played
//! to tricks (docs/design/families.md). The auction, the contract, the
//! suits, a trick's worth and settlement are each a module; a whole hand
//! is [`hand::TrickHand`]; the shake and the deal are [`deal`]; the
//! options and their refusals [`options`]; who wins a match [`settle`];
//! what the play shows of the hands [`knowledge`]. A trick game is a
//! [`crate::rules::Game`] of the family `Tricks`: the match machinery
//! deals, scores and ends it (`trick_game`), and the checked constructor
//! replays a state's hand (`setup`).

pub mod auction;
pub mod contract;
pub mod deal;
pub mod hand;
pub mod knowledge;
pub mod observation;
pub mod options;
#[cfg(test)]
pub(crate) mod random_matches;
pub mod settle;
mod setup;
pub mod suit;
pub mod trick;
mod trick_game;
