//! What the declarer names once the auction is won (docs/rules.md#texas42): a trump
//! number, doubles, no trumps ("follow-me"), or, where their options are
//! on, nello or sevens; and how doubles rank where they are not trumps.

use std::fmt;

/// The contract of a trick hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Contract {
    /// Every tile bearing this number (0–6) is a trump.
    Trumps(u8),
    /// The seven doubles are trumps (texas42 only).
    Doubles,
    /// No trumps ("follow-me").
    FollowMe,
    /// The bidder must lose every trick; no trumps (after a marks bid,
    /// where the option is on).
    Nello,
    /// No suits: every seat plays a tile nearest 7 pips (after a marks
    /// bid, where the option is on).
    Sevens,
}

/// Where the doubles rank when they are not trumps.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum DoublesRank {
    /// Each double is the highest tile of its number's suit.
    #[default]
    High,
    /// Each double is the lowest tile of its number's suit.
    Low,
    /// The doubles are a suit of their own, 6-6 highest.
    OwnSuit,
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contract::Trumps(number) => write!(f, "{number}s trump"),
            Contract::Doubles => f.write_str("doubles trump"),
            Contract::FollowMe => f.write_str("follow-me (no trumps)"),
            Contract::Nello => f.write_str("nello"),
            Contract::Sevens => f.write_str("sevens"),
        }
    }
}
