//! Points: the in-play count of the open ends and the settlement of a hand.

use super::options::{BlockedOwnPips, HandRounding, HandScale, InPlayScoring};

/// `n` rounded to the nearest multiple of 5, halves up (12 → 10, 13 → 15).
///
/// ```
/// use pips::rules::scoring::r5;
/// assert_eq!([12, 13, 21, 22, 23, 24, 2, 3].map(r5), [10, 15, 20, 20, 25, 25, 0, 5]);
/// ```
#[must_use]
pub const fn r5(n: u32) -> u32 {
    5 * ((n + 2) / 5)
}

/// Points scored for an ends total of `total` after a tile is placed.
///
/// ```
/// use pips::rules::{InPlayScoring, scoring::in_play_points};
/// assert_eq!(in_play_points(InPlayScoring::FivesFace, 15), 15);
/// assert_eq!(in_play_points(InPlayScoring::FivesAndThrees, 15), 8);
/// assert_eq!(in_play_points(InPlayScoring::FivesFace, 12), 0);
/// ```
#[must_use]
pub const fn in_play_points(scoring: InPlayScoring, total: u32) -> u32 {
    if total == 0 {
        return 0;
    }
    // Each arm tests only what it needs: testing both multiples up front
    // cost every placement a division by 3 under the fives rules.
    match scoring {
        InPlayScoring::None => 0,
        InPlayScoring::FivesFace => {
            if total % 5 == 0 {
                total
            } else {
                0
            }
        }
        InPlayScoring::FivesFifths => {
            if total % 5 == 0 {
                total / 5
            } else {
                0
            }
        }
        InPlayScoring::ThreesThirds => {
            if total % 3 == 0 {
                total / 3
            } else {
                0
            }
        }
        InPlayScoring::FivesAndThrees => {
            (if total % 5 == 0 { total / 5 } else { 0 })
                + (if total % 3 == 0 { total / 3 } else { 0 })
        }
    }
}

/// `n` rounded to the nearest multiple of `unit`, halves up.
#[must_use]
pub const fn round_to(unit: u32, n: u32) -> u32 {
    unit * ((n + unit / 2) / unit)
}

impl HandScale {
    /// `pips` rounded and divided by this scale: rounded to 5s (face value),
    /// to 5s then divided by 5 (fifths), to 3s then divided by 3 (thirds).
    /// Each arm divides by constants, which compile to multiplications.
    #[must_use]
    pub const fn apply(self, pips: u32) -> u32 {
        match self {
            HandScale::Face => round_to(5, pips),
            HandScale::Fifths => round_to(5, pips) / 5,
            HandScale::Thirds => round_to(3, pips) / 3,
        }
    }
}

/// What the winner of a hand is credited with for the pips left in the
/// opponents' hands (`opponents`, one entry per opponent seat).
///
/// ```
/// use pips::rules::{HandRounding, HandScale, scoring::opponents_points};
/// // Opponents hold 12 and 12: muggins rounds each, all fives the total.
/// assert_eq!(opponents_points(HandRounding::PerOpponent, HandScale::Face, &[12, 12]), 20);
/// assert_eq!(opponents_points(HandRounding::Total, HandScale::Face, &[12, 12]), 25);
/// // Polish muggins: r5 of the total, divided by 5; threes: to 3s, ÷ 3.
/// assert_eq!(opponents_points(HandRounding::Total, HandScale::Fifths, &[12, 12]), 5);
/// assert_eq!(opponents_points(HandRounding::Total, HandScale::Thirds, &[13]), 4);
/// ```
#[must_use]
pub fn opponents_points(rounding: HandRounding, scale: HandScale, opponents: &[u32]) -> u32 {
    match rounding {
        HandRounding::PerOpponent => opponents.iter().map(|&p| scale.apply(p)).sum(),
        HandRounding::Total => scale.apply(opponents.iter().sum()),
        HandRounding::None => opponents.iter().sum(),
    }
}

/// What the winner of a blocked hand subtracts for its own side's hands
/// (those not credited to it)
/// (`own`, one entry per seat of the winning side).
#[must_use]
pub fn own_pips_penalty(rule: BlockedOwnPips, scale: HandScale, own: &[u32]) -> u32 {
    match rule {
        BlockedOwnPips::Rounded => own.iter().map(|&p| scale.apply(p)).sum(),
        BlockedOwnPips::Raw => own.iter().sum(),
        // Added: its own hands are credited, not subtracted.
        BlockedOwnPips::Ignored | BlockedOwnPips::Added => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_section_3_blocked_muggins_two_players() {
        // Winner 7, loser 13 → r5(13) − r5(7) = 15 − 5 = 10.
        let gained = opponents_points(HandRounding::PerOpponent, HandScale::Face, &[13]);
        let lost = own_pips_penalty(BlockedOwnPips::Rounded, HandScale::Face, &[7]);
        assert_eq!(gained - lost, 10);
    }

    #[test]
    fn rules_section_3_fives_and_threes_table() {
        let table = [
            (3, 1),
            (5, 1),
            (6, 2),
            (9, 3),
            (10, 2),
            (12, 4),
            (15, 8),
            (18, 6),
            (20, 4),
        ];
        for (total, points) in table {
            assert_eq!(
                in_play_points(InPlayScoring::FivesAndThrees, total),
                points,
                "{total}"
            );
        }
    }

    #[test]
    fn zero_never_scores() {
        for scoring in [
            InPlayScoring::FivesFace,
            InPlayScoring::FivesFifths,
            InPlayScoring::ThreesThirds,
            InPlayScoring::FivesAndThrees,
        ] {
            assert_eq!(in_play_points(scoring, 0), 0);
        }
        assert_eq!(in_play_points(InPlayScoring::None, 20), 0);
    }
}
