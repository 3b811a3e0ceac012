//! Random house rules: a preset's rules with each option, with even odds,
//! replaced by a random value of its range (combinations the engine
//! refuses are the caller's to skip).

use pips::rules::presets::PRESETS;
use pips::rules::{
    BlockedOwnPips, Connect, DrawRule, HandRounding, HandScale, InPlayScoring, LayoutRule,
    LeadRule, MatchEnd, NextLeadRule, Rules, Settlement, TableKind,
};
use rand::rngs::ChaCha8Rng;
use rand::{Rng, RngExt};

/// One of `values`, chosen by `rng`.
pub fn pick<T: Copy>(rng: &mut impl Rng, values: &[T]) -> T {
    values[rng.random_range(0..values.len())]
}

/// A preset's rules with each option, with even odds, replaced by a random
/// value of its range.
pub fn house_rules(rng: &mut ChaCha8Rng) -> (&'static str, Rules, u8) {
    let preset = &PRESETS[rng.random_range(0..PRESETS.len())];
    if preset.rules(2, None).table != TableKind::Line {
        return hub_house_rules(preset.id, preset.rules(2, None), rng);
    }
    let players = rng.random_range(2..=4u8);
    let mut rules = preset.rules(players, None);
    macro_rules! maybe {
        ($field:ident = $value:expr) => {
            if rng.random_bool(0.5) {
                rules.$field = $value;
            }
        };
    }
    maybe!(max_pip = pick(rng, &[6, 9, 12]));
    maybe!(partnerships = rng.random_bool(0.5));
    maybe!(hand_size = rng.random_range(1..=15));
    maybe!(
        draw = pick(
            rng,
            &[
                DrawRule::UntilPlayable,
                DrawRule::OneThenPass,
                DrawRule::None
            ]
        )
    );
    maybe!(boneyard_reserve = rng.random_range(0..=4));
    maybe!(connect = pick(rng, &[Connect::Equal, Connect::SumToSevenWithMatadors]));
    maybe!(
        layout = pick(
            rng,
            &[
                LayoutRule::TwoEnds,
                LayoutRule::FirstDoubleSpinner,
                LayoutRule::FirstTileDoubleSpinner,
                LayoutRule::Sniff,
            ]
        )
    );
    maybe!(
        in_play_scoring = pick(
            rng,
            &[
                InPlayScoring::None,
                InPlayScoring::FivesFace,
                InPlayScoring::FivesFifths,
                InPlayScoring::ThreesThirds,
                InPlayScoring::FivesAndThrees,
            ]
        )
    );
    maybe!(
        first_lead = pick(
            rng,
            &[
                LeadRule::HighestDouble,
                LeadRule::DoubleBlankFirst,
                LeadRule::Lot
            ]
        )
    );
    maybe!(
        next_lead = pick(
            rng,
            &[
                NextLeadRule::WinnerElseFirstLead,
                NextLeadRule::Rotate,
                NextLeadRule::FirstLead,
                NextLeadRule::WinnerOrBlocker,
            ]
        )
    );
    maybe!(
        settlement = pick(
            rng,
            &[
                Settlement::WinnerTakesPips,
                Settlement::WinnerTakesOne,
                Settlement::PenaltyOwnPips,
                Settlement::SubtractOwnRounded,
            ]
        )
    );
    maybe!(
        hand_rounding = pick(
            rng,
            &[
                HandRounding::PerOpponent,
                HandRounding::Total,
                HandRounding::None,
            ]
        )
    );
    maybe!(
        hand_scale = pick(
            rng,
            &[HandScale::Face, HandScale::Fifths, HandScale::Thirds]
        )
    );
    maybe!(
        blocked_own = pick(
            rng,
            &[
                BlockedOwnPips::Rounded,
                BlockedOwnPips::Raw,
                BlockedOwnPips::Ignored,
                BlockedOwnPips::Added,
            ]
        )
    );
    maybe!(count_partner = rng.random_bool(0.5));
    maybe!(capicua_bonus = pick(rng, &[0, 10, 25, 50]));
    maybe!(pass_bonus = pick(rng, &[0, 10, 25, 50]));
    maybe!(closing_wins = rng.random_bool(0.5));
    maybe!(
        match_end = pick(
            rng,
            &[
                MatchEnd::ReachTarget,
                MatchEnd::ExactTarget,
                MatchEnd::LoseAtTarget,
                MatchEnd::SingleHand,
            ]
        )
    );
    maybe!(target = rng.random_range(0..=250));
    (preset.id, rules, players)
}

/// The house rules of a table with a hub: its own options (the set, the
/// hand, the rounds, what 0-0 counts; at trains the Mexican train and the
/// opening chain, at a chicken foot the hub's arms) varied, at 2 to 8
/// seats; now and then an option it cannot be played with (a line's, the
/// other hub table's, five hub arms), which must be refused.
fn hub_house_rules(
    variant: &'static str,
    mut rules: Rules,
    rng: &mut ChaCha8Rng,
) -> (&'static str, Rules, u8) {
    let players = rng.random_range(2..=8u8);
    macro_rules! maybe {
        ($field:ident = $value:expr) => {
            if rng.random_bool(0.5) {
                rules.$field = $value;
            }
        };
    }
    maybe!(max_pip = pick(rng, &[6, 9, 12]));
    rules.hand_size = rng.random_range(1..=15);
    maybe!(rounds = rng.random_range(0..=14));
    maybe!(double_blank_pips = pick(rng, &[0, 25, 50]));
    if rules.table == TableKind::Trains || rng.random_bool(0.1) {
        maybe!(public_train = rng.random_bool(0.5));
        maybe!(opening_chain = rng.random_bool(0.5));
    }
    if rules.table == TableKind::ChickenFoot {
        maybe!(hub_arms = pick(rng, &[4, 4, 6, 6, 5]));
    }
    if rng.random_bool(0.1) {
        rules.partnerships = true;
    }
    if rng.random_bool(0.1) {
        rules.in_play_scoring = InPlayScoring::FivesFace;
    }
    (variant, rules, players)
}
