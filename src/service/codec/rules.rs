//! `Rules` ⇄ `pips.v1.Rules`. Each enum's pairs are listed once and read in
//! both directions, so the two can never disagree.

use crate::proto;
use crate::rules::{
    BlockedOwnPips, Connect, DrawRule, HandRounding, HandScale, InPlayScoring, LayoutRule,
    LeadRule, MatchEnd, NextLeadRule, Rules, Settlement, TableKind,
};

use crate::proto::ErrorReason;
use crate::rules::tricks::auction::{AllPass, Bidding};
use crate::rules::tricks::contract::DoublesRank;
use crate::rules::tricks::hand::TrickRules;
use crate::rules::tricks::options::{POINTS_TARGET, Scoring, TrickOptions};
use crate::service::error::ApiError;

const DRAW: &[(DrawRule, proto::DrawRule)] = &[
    (DrawRule::UntilPlayable, proto::DrawRule::UntilPlayable),
    (DrawRule::None, proto::DrawRule::None),
    (DrawRule::OneThenPass, proto::DrawRule::OneThenPass),
];

const CONNECT: &[(Connect, proto::Connect)] = &[
    (Connect::Equal, proto::Connect::Equal),
    (
        Connect::SumToSevenWithMatadors,
        proto::Connect::SumToSevenWithMatadors,
    ),
];

const LAYOUT: &[(LayoutRule, proto::LayoutRule)] = &[
    (LayoutRule::TwoEnds, proto::LayoutRule::TwoEnds),
    (
        LayoutRule::FirstDoubleSpinner,
        proto::LayoutRule::FirstDoubleSpinner,
    ),
    (
        LayoutRule::FirstTileDoubleSpinner,
        proto::LayoutRule::FirstTileDoubleSpinner,
    ),
    (LayoutRule::Sniff, proto::LayoutRule::Sniff),
];

const SETTLEMENT: &[(Settlement, proto::Settlement)] = &[
    (
        Settlement::WinnerTakesPips,
        proto::Settlement::WinnerTakesPips,
    ),
    (
        Settlement::WinnerTakesOne,
        proto::Settlement::WinnerTakesOne,
    ),
    (
        Settlement::PenaltyOwnPips,
        proto::Settlement::PenaltyOwnPips,
    ),
    (
        Settlement::SubtractOwnRounded,
        proto::Settlement::SubtractOwnRounded,
    ),
];

const SCALE: &[(HandScale, proto::HandScale)] = &[
    (HandScale::Face, proto::HandScale::Face),
    (HandScale::Fifths, proto::HandScale::Fifths),
    (HandScale::Thirds, proto::HandScale::Thirds),
];

const MATCH_END: &[(MatchEnd, proto::MatchEnd)] = &[
    (MatchEnd::ReachTarget, proto::MatchEnd::ReachTarget),
    (MatchEnd::ExactTarget, proto::MatchEnd::ExactTarget),
    (MatchEnd::LoseAtTarget, proto::MatchEnd::LoseAtTarget),
    (MatchEnd::SingleHand, proto::MatchEnd::SingleHand),
    (MatchEnd::Rounds, proto::MatchEnd::Rounds),
];

const TABLE: &[(TableKind, proto::TableKind)] = &[
    (TableKind::Line, proto::TableKind::Line),
    (TableKind::Trains, proto::TableKind::Trains),
    (TableKind::ChickenFoot, proto::TableKind::ChickenFoot),
    (TableKind::Tricks, proto::TableKind::Tricks),
];

const ALL_PASS: &[(AllPass, proto::AllPass)] = &[
    (AllPass::Reshake, proto::AllPass::Reshake),
    (AllPass::DealerMustBid, proto::AllPass::DealerMustBid),
];

const SCORING: &[(Scoring, proto::TrickScoring)] = &[
    (Scoring::Marks, proto::TrickScoring::Marks),
    (Scoring::Points, proto::TrickScoring::Points),
];

const DOUBLES: &[(DoublesRank, proto::DoublesRank)] = &[
    (DoublesRank::High, proto::DoublesRank::High),
    (DoublesRank::Low, proto::DoublesRank::Low),
    (DoublesRank::OwnSuit, proto::DoublesRank::OwnSuit),
];

/// The wire's bidding (plunge and splash are their own options).
const fn encode_bidding(bidding: Bidding) -> proto::TrickBidding {
    match bidding {
        Bidding::Texas42 { .. } => proto::TrickBidding::Texas42,
        Bidding::Moon => proto::TrickBidding::Moon,
    }
}

const IN_PLAY: &[(InPlayScoring, proto::InPlayScoring)] = &[
    (InPlayScoring::None, proto::InPlayScoring::None),
    (InPlayScoring::FivesFace, proto::InPlayScoring::FivesFace),
    (
        InPlayScoring::FivesFifths,
        proto::InPlayScoring::FivesFifths,
    ),
    (
        InPlayScoring::ThreesThirds,
        proto::InPlayScoring::ThreesThirds,
    ),
    (
        InPlayScoring::FivesAndThrees,
        proto::InPlayScoring::FivesAndThrees,
    ),
];

const LEAD: &[(LeadRule, proto::LeadRule)] = &[
    (LeadRule::HighestDouble, proto::LeadRule::HighestDouble),
    (LeadRule::Lot, proto::LeadRule::Lot),
    (
        LeadRule::DoubleBlankFirst,
        proto::LeadRule::DoubleBlankFirst,
    ),
];

const NEXT_LEAD: &[(NextLeadRule, proto::NextLeadRule)] = &[
    (
        NextLeadRule::WinnerElseFirstLead,
        proto::NextLeadRule::WinnerElseFirstLead,
    ),
    (NextLeadRule::Rotate, proto::NextLeadRule::Rotate),
    (NextLeadRule::FirstLead, proto::NextLeadRule::FirstLead),
    (
        NextLeadRule::WinnerOrBlocker,
        proto::NextLeadRule::WinnerOrBlocker,
    ),
];

const ROUNDING: &[(HandRounding, proto::HandRounding)] = &[
    (HandRounding::PerOpponent, proto::HandRounding::PerOpponent),
    (HandRounding::Total, proto::HandRounding::Total),
    (HandRounding::None, proto::HandRounding::None),
];

const BLOCKED_OWN: &[(BlockedOwnPips, proto::BlockedOwnPips)] = &[
    (BlockedOwnPips::Rounded, proto::BlockedOwnPips::Rounded),
    (BlockedOwnPips::Raw, proto::BlockedOwnPips::Raw),
    (BlockedOwnPips::Ignored, proto::BlockedOwnPips::Ignored),
    (BlockedOwnPips::Added, proto::BlockedOwnPips::Added),
];

/// The wire value of a rules enum.
fn wire<R: PartialEq + Copy, P: Into<i32> + Copy>(table: &[(R, P)], value: R) -> i32 {
    table
        .iter()
        .find(|(r, _)| *r == value)
        .map_or(0, |&(_, p)| p.into())
}

/// The rules enum for a wire value, if it names one.
fn unwire<R: Copy, P: Into<i32> + Copy>(table: &[(R, P)], value: i32) -> Option<R> {
    table
        .iter()
        .find(|&&(_, p)| p.into() == value)
        .map(|&(r, _)| r)
}

/// Every option that applies set, for a state or `ListVariants`: the
/// options of a hub's table only at one (those of trains at trains, those
/// of a chicken foot at a foot), so that a line game's states (and tokens)
/// read as they did before train tables.
#[must_use]
pub fn encode_rules(rules: &Rules) -> proto::Rules {
    if let Some(options) = rules.tricks {
        return encode_trick_rules(rules, options);
    }
    let trains = rules.table == TableKind::Trains;
    let foot = rules.table == TableKind::ChickenFoot;
    let hub = trains || foot;
    proto::Rules {
        max_pip: Some(u32::from(rules.max_pip)),
        partnerships: Some(rules.partnerships),
        hand_size: Some(u32::from(rules.hand_size)),
        draw: Some(wire(DRAW, rules.draw)),
        boneyard_reserve: Some(u32::from(rules.boneyard_reserve)),
        connect: Some(wire(CONNECT, rules.connect)),
        layout: Some(wire(LAYOUT, rules.layout)),
        in_play_scoring: Some(wire(IN_PLAY, rules.in_play_scoring)),
        first_lead: Some(wire(LEAD, rules.first_lead)),
        next_lead: Some(wire(NEXT_LEAD, rules.next_lead)),
        settlement: Some(wire(SETTLEMENT, rules.settlement)),
        hand_rounding: Some(wire(ROUNDING, rules.hand_rounding)),
        hand_scale: Some(wire(SCALE, rules.hand_scale)),
        blocked_own: Some(wire(BLOCKED_OWN, rules.blocked_own)),
        closing_wins: Some(rules.closing_wins),
        match_end: Some(wire(MATCH_END, rules.match_end)),
        target: Some(rules.target),
        count_partner: Some(rules.count_partner),
        capicua_bonus: Some(u32::from(rules.capicua_bonus)),
        pass_bonus: Some(u32::from(rules.pass_bonus)),
        table: hub.then_some(wire(TABLE, rules.table)),
        rounds: hub.then_some(u32::from(rules.rounds)),
        public_train: trains.then_some(rules.public_train),
        opening_chain: trains.then_some(rules.opening_chain),
        double_blank_pips: hub.then_some(u32::from(rules.double_blank_pips)),
        hub_arms: foot.then_some(u32::from(rules.hub_arms)),
        ..proto::Rules::default()
    }
}

/// A trick game's rules: its table, target and options, every one set;
/// the placing games' options, which a trick game fixes
/// ([`Rules::tricks`]), left out.
fn encode_trick_rules(rules: &Rules, options: TrickOptions) -> proto::Rules {
    let hand = options.hand;
    let (plunge, splash) = match hand.bidding {
        Bidding::Texas42 { plunge, splash } => (plunge, splash),
        Bidding::Moon => (false, false),
    };
    proto::Rules {
        table: Some(wire(TABLE, rules.table)),
        target: Some(rules.target),
        bidding: Some(encode_bidding(hand.bidding).into()),
        all_pass: Some(wire(ALL_PASS, hand.all_pass)),
        play_out: Some(hand.play_out),
        // (Moon is scored in tricks: it has no `scoring`.)
        scoring: (!options.is_moon()).then(|| wire(SCORING, options.scoring)),
        nello: Some(hand.nello),
        nello_doubles: Some(wire(DOUBLES, hand.nello_doubles)),
        follow_me_doubles: Some(wire(DOUBLES, hand.follow_me_doubles)),
        plunge: Some(plunge),
        splash: Some(splash),
        sevens: Some(hand.sevens),
        ..proto::Rules::default()
    }
}

/// The trick options of `given` over `base`'s (a trick game's, or none);
/// `None` when neither the table nor any option is a trick game's. Absent
/// options take their game's defaults (docs/rules.md#texas42), but the bids, which
/// a state must hold.
fn decode_trick_options(
    given: &proto::Rules,
    base: Option<TrickOptions>,
    table: TableKind,
    field: &dyn Fn(&str) -> String,
) -> Result<Option<TrickOptions>, ApiError> {
    let any_given = given.bidding.is_some()
        || given.all_pass.is_some()
        || given.play_out.is_some()
        || given.scoring.is_some()
        || given.nello.is_some()
        || given.nello_doubles.is_some()
        || given.follow_me_doubles.is_some()
        || given.plunge.is_some()
        || given.splash.is_some()
        || given.sevens.is_some();
    if table != TableKind::Tricks && !any_given && base.is_none() {
        return Ok(None);
    }
    let invalid = |name: &str, message: String| {
        ApiError::invalid(ErrorReason::InvalidRules, field(name), message)
    };
    let out_of_range =
        |name: &str, value: i32| invalid(name, format!("{value} is not a valid value for {name}"));
    fn read<R: Copy, P: Into<i32> + Copy>(
        pairs: &[(R, P)],
        value: Option<i32>,
        keep: R,
        refuse: impl FnOnce(i32) -> ApiError,
    ) -> Result<R, ApiError> {
        match value {
            Some(value) => unwire(pairs, value).ok_or_else(|| refuse(value)),
            None => Ok(keep),
        }
    }
    let kept = base.map(|options| options.hand);
    let moon = match given.bidding {
        Some(value) if value == i32::from(proto::TrickBidding::Texas42) => false,
        Some(value) if value == i32::from(proto::TrickBidding::Moon) => true,
        Some(value) => return Err(out_of_range("bidding", value)),
        None => match kept {
            Some(hand) => hand.bidding == Bidding::Moon,
            None => return Err(ApiError::missing(field("bidding"))),
        },
    };
    // The base's options where it is the same game, else the game's own.
    let keep = match kept {
        Some(hand) if (hand.bidding == Bidding::Moon) == moon => hand,
        _ if moon => TrickRules::moon(),
        _ => TrickRules::texas42(),
    };
    let (kept_plunge, kept_splash) = match keep.bidding {
        Bidding::Texas42 { plunge, splash } => (plunge, splash),
        Bidding::Moon => (false, false),
    };
    let (plunge, splash) = (
        given.plunge.unwrap_or(kept_plunge),
        given.splash.unwrap_or(kept_splash),
    );
    let bidding = match (moon, plunge, splash) {
        (false, _, _) => Bidding::Texas42 { plunge, splash },
        (true, false, false) => Bidding::Moon,
        (true, plunge, _) => {
            let name = if plunge { "plunge" } else { "splash" };
            return Err(invalid(
                name,
                format!("Moon has no {name}: it bids tricks (leave {name} unset)"),
            ));
        }
    };
    let kept_scoring = base.map_or(Scoring::Marks, |options| options.scoring);
    let scoring = read(SCORING, given.scoring, kept_scoring, |v| {
        out_of_range("scoring", v)
    })?;
    if moon && given.scoring.is_some() && !(base.is_none() && scoring == Scoring::Marks) {
        // (A state's rules written before Moon left `scoring` out carry
        // its placeholder, marks: read as absent, so that those states
        // still play.)
        return Err(invalid(
            "scoring",
            "Moon is scored in tricks, not a Texas 42 hand's marks or points: leave scoring unset"
                .to_owned(),
        ));
    }
    // Choosing the points game brings its own default: every hand played
    // out (docs/rules.md#texas42); an explicit play_out still wins.
    let to_points_game = scoring == Scoring::Points && kept_scoring != Scoring::Points;
    let hand = TrickRules {
        bidding,
        all_pass: read(ALL_PASS, given.all_pass, keep.all_pass, |v| {
            out_of_range("all_pass", v)
        })?,
        play_out: given.play_out.unwrap_or(keep.play_out || to_points_game),
        nello: given.nello.unwrap_or(keep.nello),
        sevens: given.sevens.unwrap_or(keep.sevens),
        follow_me_doubles: read(
            DOUBLES,
            given.follow_me_doubles,
            keep.follow_me_doubles,
            |v| out_of_range("follow_me_doubles", v),
        )?,
        nello_doubles: read(DOUBLES, given.nello_doubles, keep.nello_doubles, |v| {
            out_of_range("nello_doubles", v)
        })?,
    };
    Ok(Some(TrickOptions { hand, scoring }))
}

/// Reads `given` (the message at `prefix` in the request). Each option set
/// there wins; each absent one comes from `base`, and with no `base` (a
/// state's rules) every option is required but those added with the Latin
/// games (`count_partner`, `capicua_bonus`, `pass_bonus`) and the train
/// tables' (`table` a line, `rounds`, `public_train`, `opening_chain`,
/// `double_blank_pips`), which are off when absent so that a state made
/// before them (or a line's) still reads, and `hub_arms`, 4 when absent
/// at a chicken foot.
///
/// # Errors
/// `ERROR_REASON_MISSING_FIELD` for an option neither given nor in `base`; `ERROR_REASON_INVALID_RULES`
/// for a value out of range. Whether the options fit together is checked
/// by the rules, not here.
pub fn decode_rules(
    given: &proto::Rules,
    base: Option<&Rules>,
    prefix: &str,
) -> Result<Rules, ApiError> {
    // The option given, else the base's; the field path is formatted only
    // for an error.
    fn pick<T>(
        value: Option<T>,
        keep: Option<T>,
        field: impl FnOnce() -> String,
    ) -> Result<T, ApiError> {
        value.or(keep).ok_or_else(|| ApiError::missing(field()))
    }
    let field = |name: &str| format!("{prefix}.{name}");
    let out_of_range = |name: &str, value: i64| {
        ApiError::invalid(
            ErrorReason::InvalidRules,
            field(name),
            format!("{value} is not a valid value for {name}"),
        )
    };
    let table = match given.table {
        Some(value) => {
            unwire(TABLE, value).ok_or_else(|| out_of_range("table", i64::from(value)))?
        }
        None => base.map_or(TableKind::Line, |b| b.table),
    };
    let tricks = decode_trick_options(given, base.and_then(|b| b.tricks), table, &field)?;
    // At a trick table the placing games' options, absent, are the ones a
    // trick game is played with; the target is the match's own.
    let target_base = base;
    let trick_base = match (table, tricks) {
        (TableKind::Tricks, Some(options)) => Some(Rules::tricks(options, 0)),
        _ => None,
    };
    let base = trick_base.as_ref().or(base);
    let small = |name: &str, value: Option<u32>, keep: Option<u8>| -> Result<u8, ApiError> {
        match value {
            Some(v) => u8::try_from(v).map_err(|_| out_of_range(name, i64::from(v))),
            None => keep.ok_or_else(|| ApiError::missing(field(name))),
        }
    };
    // The options added with the Latin games: absent from a state made
    // before them, so absent means off.
    let bonus = |name: &str, value: Option<u32>, keep: Option<u16>| -> Result<u16, ApiError> {
        match value {
            Some(v) => u16::try_from(v).map_err(|_| out_of_range(name, i64::from(v))),
            None => Ok(keep.unwrap_or(0)),
        }
    };
    macro_rules! enum_option {
        ($name:literal, $table:expr, $get:ident) => {{
            let value = pick(given.$get, base.map(|b| wire($table, b.$get)), || {
                field($name)
            })?;
            unwire($table, value).ok_or_else(|| out_of_range($name, i64::from(value)))?
        }};
    }
    let hub_arms = match (given.hub_arms, base) {
        (Some(v), _) => u8::try_from(v).map_err(|_| out_of_range("hub_arms", i64::from(v)))?,
        (None, Some(base)) => base.hub_arms,
        (None, None) if table == TableKind::ChickenFoot => 4,
        (None, None) => 0,
    };
    Ok(Rules {
        max_pip: small("max_pip", given.max_pip, base.map(|b| b.max_pip))?,
        partnerships: pick(given.partnerships, base.map(|b| b.partnerships), || {
            field("partnerships")
        })?,
        hand_size: small("hand_size", given.hand_size, base.map(|b| b.hand_size))?,
        draw: enum_option!("draw", DRAW, draw),
        boneyard_reserve: small(
            "boneyard_reserve",
            given.boneyard_reserve,
            base.map(|b| b.boneyard_reserve),
        )?,
        connect: enum_option!("connect", CONNECT, connect),
        layout: enum_option!("layout", LAYOUT, layout),
        in_play_scoring: enum_option!("in_play_scoring", IN_PLAY, in_play_scoring),
        first_lead: enum_option!("first_lead", LEAD, first_lead),
        next_lead: enum_option!("next_lead", NEXT_LEAD, next_lead),
        settlement: enum_option!("settlement", SETTLEMENT, settlement),
        hand_rounding: enum_option!("hand_rounding", ROUNDING, hand_rounding),
        hand_scale: enum_option!("hand_scale", SCALE, hand_scale),
        blocked_own: enum_option!("blocked_own", BLOCKED_OWN, blocked_own),
        closing_wins: pick(given.closing_wins, base.map(|b| b.closing_wins), || {
            field("closing_wins")
        })?,
        match_end: enum_option!("match_end", MATCH_END, match_end),
        target: pick(
            given.target,
            target_base.map(|b| match (b.tricks, tricks) {
                // The points game chosen over a preset in marks brings its
                // own target (docs/rules.md#texas42), unless one is given.
                (Some(from), Some(to))
                    if from.scoring != Scoring::Points && to.scoring == Scoring::Points =>
                {
                    POINTS_TARGET
                }
                _ => b.target,
            }),
            || field("target"),
        )?,
        count_partner: given
            .count_partner
            .or(base.map(|b| b.count_partner))
            .unwrap_or(false),
        capicua_bonus: bonus(
            "capicua_bonus",
            given.capicua_bonus,
            base.map(|b| b.capicua_bonus),
        )?,
        pass_bonus: bonus("pass_bonus", given.pass_bonus, base.map(|b| b.pass_bonus))?,
        table,
        rounds: match given.rounds {
            Some(v) => u8::try_from(v).map_err(|_| out_of_range("rounds", i64::from(v)))?,
            None => base.map_or(0, |b| b.rounds),
        },
        public_train: given
            .public_train
            .or(base.map(|b| b.public_train))
            .unwrap_or(false),
        opening_chain: given
            .opening_chain
            .or(base.map(|b| b.opening_chain))
            .unwrap_or(false),
        double_blank_pips: bonus(
            "double_blank_pips",
            given.double_blank_pips,
            base.map(|b| b.double_blank_pips),
        )?,
        hub_arms,
        tricks,
    })
}

/// The rules of a state at `prefix` (every option must be set).
pub(super) fn decode_state_rules(
    rules: Option<&proto::Rules>,
    prefix: &str,
) -> Result<Rules, ApiError> {
    let field = format!("{prefix}.rules");
    let rules = rules.ok_or_else(|| ApiError::missing(&field))?;
    decode_rules(rules, None, &field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::PRESETS;

    #[test]
    fn every_preset_round_trips() {
        for preset in PRESETS {
            for players in preset.players.clone() {
                let rules = preset.rules(players, None);
                let decoded = decode_rules(&encode_rules(&rules), None, "rules");
                assert_eq!(decoded, Ok(rules), "{}", preset.id);
            }
        }
    }

    #[test]
    fn a_state_needs_every_option() {
        let rules = PRESETS[0].rules(2, None);
        let mut wire = encode_rules(&rules);
        wire.next_lead = None;
        let error = decode_rules(&wire, None, "state.rules").expect_err("missing");
        assert_eq!(error.reason, ErrorReason::MissingField);
        assert_eq!(error.field, "state.rules.next_lead");
    }

    #[test]
    fn overrides_replace_only_what_they_set() {
        let base = PRESETS[0].rules(2, None);
        let overrides = proto::Rules {
            target: Some(100),
            draw: Some(proto::DrawRule::None.into()),
            ..Default::default()
        };
        let rules = decode_rules(&overrides, Some(&base), "rules").expect("valid");
        assert_eq!(rules.target, 100);
        assert_eq!(rules.draw, DrawRule::None);
        assert_eq!(rules.hand_size, base.hand_size);
    }

    #[test]
    fn unknown_and_unspecified_enum_values_are_refused() {
        let base = PRESETS[0].rules(2, None);
        for bad in [0, 99] {
            let overrides = proto::Rules {
                hand_rounding: Some(bad),
                ..Default::default()
            };
            let error = decode_rules(&overrides, Some(&base), "rules").expect_err("bad enum");
            assert_eq!(error.reason, ErrorReason::InvalidRules);
            assert_eq!(error.field, "rules.hand_rounding");
        }
        let overrides = proto::Rules {
            hand_size: Some(1000),
            ..Default::default()
        };
        let error = decode_rules(&overrides, Some(&base), "rules").expect_err("too big");
        assert_eq!(error.field, "rules.hand_size");
    }
}
