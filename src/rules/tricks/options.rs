//! A trick game's options (docs/rules.md#texas42 "Options", and each game's
//! scoring and target), and the combinations §8 refuses, each refusal
//! naming the option at fault.

use std::fmt;

use super::auction::Bidding;
use super::contract::DoublesRank;
use super::hand::TrickRules;

/// Highest `target` a trick game takes: a match must end in hands a
/// player can sit through.
pub const MAX_TARGET: u32 = 1_000;

/// The points game's target (docs/rules.md#texas42): the match is to 250 points.
pub const POINTS_TARGET: u32 = 250;

/// How a Texas 42 hand scores.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Scoring {
    /// Marks: one side scores the bid's marks (1 for a point bid); the
    /// match is to 7 marks.
    #[default]
    Marks,
    /// Points: each side scores what it took (the bid's worth when set);
    /// every hand played out; the match is to 250.
    Points,
}

/// A trick game's options: how its hands are bid, played and scored.
/// (The score that ends its match is [`Rules::target`](crate::rules::Rules::target),
/// as at every game: marks, points, or Moon's points.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TrickOptions {
    /// How each hand is bid and played.
    pub hand: TrickRules,
    /// How a Texas 42 hand scores (Moon scores its own way).
    pub scoring: Scoring,
}

/// An option of a trick game, as a refusal names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TrickOption {
    /// `all_pass`.
    AllPass,
    /// `play_out`.
    PlayOut,
    /// `scoring`.
    Scoring,
    /// `nello`.
    Nello,
    /// `nello_doubles`.
    NelloDoubles,
    /// `follow_me_doubles`.
    FollowMeDoubles,
    /// `plunge`.
    Plunge,
    /// `splash`.
    Splash,
    /// `sevens`.
    Sevens,
}

impl TrickOption {
    /// The option's name, as the wire's `Rules` field is called.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TrickOption::AllPass => "all_pass",
            TrickOption::PlayOut => "play_out",
            TrickOption::Scoring => "scoring",
            TrickOption::Nello => "nello",
            TrickOption::NelloDoubles => "nello_doubles",
            TrickOption::FollowMeDoubles => "follow_me_doubles",
            TrickOption::Plunge => "plunge",
            TrickOption::Splash => "splash",
            TrickOption::Sevens => "sevens",
        }
    }
}

impl fmt::Display for TrickOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A combination of options the rules refuse.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{option}: {message}")]
pub struct TrickOptionsError {
    /// The option at fault.
    pub option: TrickOption,
    /// Why, in words a caller can act on.
    pub message: String,
}

impl TrickOptions {
    /// Texas 42 as the N42PA plays it ("straight 42"): in marks.
    #[must_use]
    pub const fn texas42() -> TrickOptions {
        TrickOptions {
            hand: TrickRules::texas42(),
            scoring: Scoring::Marks,
        }
    }

    /// Moon.
    #[must_use]
    pub const fn moon() -> TrickOptions {
        TrickOptions {
            hand: TrickRules::moon(),
            scoring: Scoring::Marks,
        }
    }

    /// Whether these are Moon's options.
    #[must_use]
    pub const fn is_moon(&self) -> bool {
        matches!(self.hand.bidding, Bidding::Moon)
    }

    /// The options, or the first option §8 refuses with the others:
    /// nello, plunge, splash and sevens with the points game; the points
    /// game with play stopping early; at Moon, any of those and the
    /// points game.
    ///
    /// # Errors
    /// [`TrickOptionsError`] naming the option.
    pub fn check(self) -> Result<TrickOptions, TrickOptionsError> {
        let refuse = |option, message: &str| {
            Err(TrickOptionsError {
                option,
                message: message.to_owned(),
            })
        };
        let hand = self.hand;
        let (plunge, splash) = match hand.bidding {
            Bidding::Texas42 { plunge, splash } => (plunge, splash),
            Bidding::Moon => (false, false),
        };
        let moon = self.is_moon();
        let (game, why) = if moon {
            ("Moon", "it has its own bids and scores")
        } else {
            (
                "the points game (scoring: points)",
                "its hands score the points taken",
            )
        };
        if moon || self.scoring == Scoring::Points {
            for (on, option) in [
                (hand.nello, TrickOption::Nello),
                (plunge, TrickOption::Plunge),
                (splash, TrickOption::Splash),
                (hand.sevens, TrickOption::Sevens),
            ] {
                if on {
                    return refuse(option, &format!("{game} has no {option}: {why}"));
                }
            }
            if !hand.play_out {
                return refuse(
                    TrickOption::PlayOut,
                    &format!("{game} plays every trick: play_out must be on"),
                );
            }
        }
        if moon && self.scoring == Scoring::Points {
            return refuse(
                TrickOption::Scoring,
                "Moon scores tricks, not a Texas 42 hand's points: leave scoring unset",
            );
        }
        if !hand.nello && hand.nello_doubles != DoublesRank::OwnSuit {
            return refuse(
                TrickOption::NelloDoubles,
                "nello_doubles says where doubles rank under nello: turn nello on",
            );
        }
        // (Both answers to an all-pass hand, and every rank of the doubles
        // under follow-me, go with either game.)
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tricks::auction::AllPass;

    fn refused(options: TrickOptions) -> TrickOption {
        options.check().expect_err("refused").option
    }

    fn points_game() -> TrickOptions {
        let mut options = TrickOptions::texas42();
        options.scoring = Scoring::Points;
        options.hand.play_out = true;
        options
    }

    #[test]
    fn the_presets_are_accepted() {
        for options in [TrickOptions::texas42(), TrickOptions::moon(), points_game()] {
            assert_eq!(options.check(), Ok(options));
        }
        let mut all_on = TrickOptions::texas42();
        all_on.hand.nello = true;
        all_on.hand.sevens = true;
        all_on.hand.play_out = true;
        all_on.hand.all_pass = AllPass::DealerMustBid;
        all_on.hand.nello_doubles = DoublesRank::Low;
        all_on.hand.follow_me_doubles = DoublesRank::Low;
        all_on.hand.bidding = Bidding::Texas42 {
            plunge: true,
            splash: true,
        };
        assert!(all_on.check().is_ok());
    }

    #[test]
    fn the_points_game_refuses_the_special_contracts_and_stopping_early() {
        let mut options = points_game();
        options.hand.nello = true;
        assert_eq!(refused(options), TrickOption::Nello);
        let mut options = points_game();
        options.hand.sevens = true;
        assert_eq!(refused(options), TrickOption::Sevens);
        for (plunge, splash, option) in [
            (true, false, TrickOption::Plunge),
            (false, true, TrickOption::Splash),
        ] {
            let mut options = points_game();
            options.hand.bidding = Bidding::Texas42 { plunge, splash };
            assert_eq!(refused(options), option);
        }
        let mut options = points_game();
        options.hand.play_out = false;
        let error = options.check().expect_err("refused");
        assert_eq!(error.option, TrickOption::PlayOut);
        assert!(error.to_string().starts_with("play_out: "), "{error}");
    }

    #[test]
    fn moon_refuses_what_it_does_not_play() {
        let mut options = TrickOptions::moon();
        options.hand.nello = true;
        assert_eq!(refused(options), TrickOption::Nello);
        let mut options = TrickOptions::moon();
        options.hand.sevens = true;
        assert_eq!(refused(options), TrickOption::Sevens);
        let mut options = TrickOptions::moon();
        options.hand.play_out = false;
        assert_eq!(refused(options), TrickOption::PlayOut);
        let mut options = TrickOptions::moon();
        options.scoring = Scoring::Points;
        assert_eq!(refused(options), TrickOption::Scoring);
    }

    #[test]
    fn options_without_effect_are_refused() {
        let mut options = TrickOptions::texas42();
        options.hand.nello_doubles = DoublesRank::High;
        assert_eq!(refused(options), TrickOption::NelloDoubles);
        // (Any rank of the doubles goes with follow-me, at either game.)
        for rank in [DoublesRank::High, DoublesRank::Low, DoublesRank::OwnSuit] {
            let mut options = TrickOptions::moon();
            options.hand.follow_me_doubles = rank;
            assert!(options.check().is_ok());
        }
    }
}
