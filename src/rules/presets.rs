//! The presets of docs/rules.md, each a value of the option space.
//!
//! A preset is data: its base [`Rules`] and how the few options that depend
//! on the table (hand size, target, partnerships) vary with the seats.

use std::ops::RangeInclusive;

use super::connect::Connect;

use super::options::{
    BlockedOwnPips, DrawRule, HandRounding, HandScale, InPlayScoring, LayoutRule, LeadRule,
    MatchEnd, NextLeadRule, Rules, Settlement, TableKind,
};
use super::tricks::options::TrickOptions;

/// Whether a preset plays 4 seats as partnerships by default. Either way a
/// caller may override it (house rules).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PartnershipDefault {
    /// Partnerships with 4 seats.
    WithFourSeats,
    /// Individuals with 4 seats.
    Never,
}

/// A named bundle of options.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Stable id used on the wire, e.g. `muggins`.
    pub id: &'static str,
    /// Human-readable name.
    pub title: &'static str,
    /// One line on how it plays.
    pub description: &'static str,
    /// Where the rules come from.
    pub source: &'static str,
    /// Allowed seat counts.
    pub players: RangeInclusive<u8>,
    /// Default partnership setting with 4 seats.
    partnerships: PartnershipDefault,
    /// Tiles per hand with 2, 3, … 8 seats.
    hand_sizes: [u8; 7],
    /// Target with two sides (2 players or two partnerships); 0 for
    /// single-hand games.
    target_two_sides: u32,
    /// Target with three or more sides.
    target_more_sides: u32,
    /// Every other option.
    base: Rules,
}

impl Preset {
    /// The preset's rules for `players` seats. `partnerships` overrides the
    /// preset's default; the options that depend on it (the target, and
    /// crediting a partner's pips) follow.
    #[must_use]
    pub fn rules(&self, players: u8, partnerships: Option<bool>) -> Rules {
        let partnerships = partnerships
            .unwrap_or(players == 4 && self.partnerships == PartnershipDefault::WithFourSeats);
        let mut rules = Rules {
            partnerships,
            count_partner: self.base.count_partner && partnerships,
            ..self.base
        };
        let seats = usize::from(players.saturating_sub(2));
        rules.hand_size = self
            .hand_sizes
            .get(seats)
            .or(self.hand_sizes.last())
            .copied()
            .unwrap_or(0);
        rules.target = if rules.sides(players) <= 2 {
            self.target_two_sides
        } else {
            self.target_more_sides
        };
        rules
    }
}

/// The plainest game: two ends, draw until playable, no in-play points,
/// the winner credited with the opponents' raw pips, one hand. Every preset
/// states how it differs.
const PLAIN: Rules = Rules {
    max_pip: 6,
    partnerships: false,
    hand_size: 7,
    draw: DrawRule::UntilPlayable,
    boneyard_reserve: 0,
    connect: Connect::Equal,
    layout: LayoutRule::TwoEnds,
    in_play_scoring: InPlayScoring::None,
    first_lead: LeadRule::HighestDouble,
    next_lead: NextLeadRule::WinnerElseFirstLead,
    settlement: Settlement::WinnerTakesPips,
    hand_rounding: HandRounding::None,
    hand_scale: HandScale::Face,
    blocked_own: BlockedOwnPips::Raw,
    count_partner: false,
    capicua_bonus: 0,
    pass_bonus: 0,
    closing_wins: false,
    match_end: MatchEnd::SingleHand,
    target: 0,
    table: TableKind::Line,
    rounds: 0,
    public_train: false,
    opening_chain: false,
    double_blank_pips: 0,
    hub_arms: 0,
    tricks: None,
};

/// Hand sizes: `two` with two seats, `more` with three or more.
const fn two_and_more(two: u8, more: u8) -> [u8; 7] {
    [two, more, more, more, more, more, more]
}

/// Mexican Train: the hub and a train per seat, the Mexican train, the
/// opening chain; double-twelve, 13 rounds, lowest score wins.
const MEXICAN_TRAIN: Rules = Rules {
    max_pip: 12,
    draw: DrawRule::OneThenPass,
    first_lead: LeadRule::Lot,
    next_lead: NextLeadRule::Rotate,
    settlement: Settlement::PenaltyOwnPips,
    match_end: MatchEnd::Rounds,
    table: TableKind::Trains,
    rounds: 13,
    public_train: true,
    opening_chain: true,
    ..PLAIN
};

/// Chicken Foot: a hub taking four arms first, chicken feet waiting for
/// three toes; double-nine, 10 rounds, 0-0 left in a hand counting 50.
const CHICKEN_FOOT: Rules = Rules {
    max_pip: 9,
    table: TableKind::ChickenFoot,
    rounds: 10,
    public_train: false,
    opening_chain: false,
    double_blank_pips: 50,
    hub_arms: 4,
    ..MEXICAN_TRAIN
};

/// Muggins ("Viitoset"), the headline game.
const MUGGINS: Rules = Rules {
    in_play_scoring: InPlayScoring::FivesFace,
    hand_rounding: HandRounding::PerOpponent,
    blocked_own: BlockedOwnPips::Rounded,
    match_end: MatchEnd::ReachTarget,
    ..PLAIN
};

/// The Polish rules document's common ground: lead by lot, then rotate;
/// no own-pip subtraction; played to a target.
const POLISH: Rules = Rules {
    first_lead: LeadRule::Lot,
    next_lead: NextLeadRule::Rotate,
    blocked_own: BlockedOwnPips::Ignored,
    match_end: MatchEnd::ReachTarget,
    ..PLAIN
};

/// Polish muggins: fifths of the ends, a double lead spins.
const POLISH_MUGGINS: Rules = Rules {
    layout: LayoutRule::FirstTileDoubleSpinner,
    in_play_scoring: InPlayScoring::FivesFifths,
    hand_rounding: HandRounding::Total,
    hand_scale: HandScale::Fifths,
    ..POLISH
};

/// The second half of the Polish ordinary game's rules, shared by matador.
const POLISH_ORDINARY: Rules = Rules {
    closing_wins: true,
    ..POLISH
};

/// The Latin partnership game as PyPI `dominoes` plays it (Puerto Rico):
/// four seats in pairs, all 28 tiles dealt, no drawing; going out scores
/// every other hand, a tranque both sides' pips; the winner or the blocker
/// leads next; to 200.
const PUERTO_RICAN: Rules = Rules {
    partnerships: true,
    draw: DrawRule::None,
    next_lead: NextLeadRule::WinnerOrBlocker,
    blocked_own: BlockedOwnPips::Added,
    count_partner: true,
    match_end: MatchEnd::ReachTarget,
    target: 200,
    ..PLAIN
};

/// Every preset, in the order `ListVariants` shows them.
pub static PRESETS: &[Preset] = &[
    Preset {
        id: "muggins",
        title: "Muggins (Viitoset)",
        description: "All Fives without a spinner: score every multiple of 5 on the ends, \
                      r5 of each opponent's pips for going out; first to 250 (200 with 3-4 individuals).",
        source: "docs/rules.md#muggins; published as Muggins or All Fives: R. F. Foster, Foster's Complete Hoyle (1897); Wikipedia, \"Muggins\"",
        players: 2..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 250,
        target_more_sides: 200,
        base: MUGGINS,
    },
    Preset {
        id: "draw",
        title: "Draw dominoes (Tavallinen Dominot)",
        description: "Standard draw game: one hand, no points for play; going out (or the fewest \
                      pips when blocked) wins and is credited with the opponents' pips.",
        source: "docs/rules.md#draw; published: Wikipedia, \"Dominoes\" (the draw game); pagat.com, \"Draw Game\"",
        players: 2..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 0,
        target_more_sides: 0,
        base: PLAIN,
    },
    Preset {
        id: "jarac",
        title: "Jarac (Goat)",
        description: "Lowest score wins: going out or making the fish scores 0, everyone else \
                      adds their own pips; the match ends when someone reaches 101.",
        source: "docs/rules.md#jarac; published as Kozel (\"goat\"): Wikipedia (ru), \"Козёл (домино)\"",
        players: 2..=4,
        partnerships: PartnershipDefault::Never,
        hand_sizes: two_and_more(7, 7),
        target_two_sides: 101,
        target_more_sides: 101,
        base: Rules {
            first_lead: LeadRule::DoubleBlankFirst,
            next_lead: NextLeadRule::FirstLead,
            settlement: Settlement::PenaltyOwnPips,
            blocked_own: BlockedOwnPips::Ignored,
            match_end: MatchEnd::LoseAtTarget,
            ..PLAIN
        },
    },
    Preset {
        id: "all_fives",
        title: "All Fives",
        description: "The first double is a spinner; every multiple of 5 on the ends scores; \
                      going out scores r5 of the opponents' total pips; first to 250.",
        source: "docs/rules.md#all_fives; published: Wikipedia, \"Muggins\" (All Fives, one spinner); pagat.com, \"All Fives\"",
        players: 2..=4,
        partnerships: PartnershipDefault::Never,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 250,
        target_more_sides: 250,
        base: Rules {
            layout: LayoutRule::FirstDoubleSpinner,
            in_play_scoring: InPlayScoring::FivesFace,
            hand_rounding: HandRounding::Total,
            ..POLISH
        },
    },
    Preset {
        id: "polish_muggins",
        title: "Muggins (Polish)",
        description: "A double lead opens four ways; ends divisible by 5 score a fifth of the \
                      total; going out scores r5 of the opponents' pips ÷ 5; first to 61.",
        source: "docs/rules.md#polish_muggins; published: the Polish rules of \"Domino\" (muggins in fifths)",
        players: 2..=4,
        partnerships: PartnershipDefault::Never,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 61,
        target_more_sides: 61,
        base: POLISH_MUGGINS,
    },
    Preset {
        id: "threes",
        title: "Threes",
        description: "Two ends; ends divisible by 3 score a third of the total; going out scores \
                      the opponents' pips ÷ 3, rounded; first to 61.",
        source: "docs/rules.md#threes; published: the Polish rules of \"Domino\" (the threes game)",
        players: 2..=4,
        partnerships: PartnershipDefault::Never,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 61,
        target_more_sides: 61,
        base: Rules {
            layout: LayoutRule::TwoEnds,
            in_play_scoring: InPlayScoring::ThreesThirds,
            hand_scale: HandScale::Thirds,
            ..POLISH_MUGGINS
        },
    },
    Preset {
        id: "polish_ordinary",
        title: "Ordinary dominoes (Domino zwykłe)",
        description: "Match the ends; a round is won by going out or by closing both ends with \
                      one tile, and credited with the opponents' pips; first to 100.",
        source: "docs/rules.md#polish_ordinary; published: the Polish rules of \"Domino\" (\"domino zwykłe\")",
        players: 2..=4,
        partnerships: PartnershipDefault::Never,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 100,
        target_more_sides: 100,
        base: POLISH_ORDINARY,
    },
    Preset {
        id: "matador",
        title: "Matador",
        description: "Touching halves add up to 7; a blank end takes only a matador (0-0, 1-6, \
                      2-5, 3-4), which may go on any end; first to 100.",
        source: "docs/rules.md#matador; published: Wikipedia, \"Matador (domino game)\"; pagat.com, \"Matador\"",
        players: 2..=4,
        partnerships: PartnershipDefault::Never,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 100,
        target_more_sides: 100,
        base: Rules {
            connect: Connect::SumToSevenWithMatadors,
            closing_wins: false,
            ..POLISH_ORDINARY
        },
    },
    Preset {
        id: "fives_and_threes",
        title: "Fives and Threes",
        description: "No drawing; ends score total÷5 plus total÷3 when divisible; going out \
                      scores 1; first to exactly 61.",
        source: "docs/rules.md#fives_and_threes; published: Wikipedia, \"Fives and threes\"; pagat.com, \"Fives and Threes\"",
        players: 2..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 61,
        target_more_sides: 61,
        base: Rules {
            draw: DrawRule::None,
            in_play_scoring: InPlayScoring::FivesAndThrees,
            first_lead: LeadRule::Lot,
            next_lead: NextLeadRule::Rotate,
            settlement: Settlement::WinnerTakesOne,
            blocked_own: BlockedOwnPips::Ignored,
            match_end: MatchEnd::ExactTarget,
            ..PLAIN
        },
    },
    Preset {
        id: "block",
        title: "Block dominoes",
        description: "As the draw game but with no drawing, played over hands to 100 \
                      (61 with 3-4 individuals); the lead rotates after the first hand.",
        source: "docs/rules.md#block; published: Wikipedia, \"Dominoes\" (the block game); pagat.com, \"Block Game\"",
        players: 2..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 100,
        target_more_sides: 61,
        base: Rules {
            draw: DrawRule::None,
            next_lead: NextLeadRule::Rotate,
            match_end: MatchEnd::ReachTarget,
            ..PLAIN
        },
    },
    Preset {
        id: "sniff",
        title: "Sniff",
        description: "Muggins with a spinner (the first double) whose short ends count its \
                      number until an arm grows from them.",
        source: "docs/rules.md#sniff; published: pagat.com, \"Sniff\"",
        players: 2..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 5),
        target_two_sides: 250,
        target_more_sides: 200,
        base: Rules {
            layout: LayoutRule::Sniff,
            ..MUGGINS
        },
    },
    Preset {
        id: "seven_rocks",
        title: "Seven Rocks",
        description: "Two partnerships, all 28 tiles dealt, all fives with a spinner; after \
                      every hand each player's r5 pips come off their side; first to 250.",
        source: "docs/rules.md#seven_rocks; published: the partnership game of that name in domino collections, with the All Fives spinner",
        players: 4..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 7),
        target_two_sides: 250,
        target_more_sides: 250,
        base: Rules {
            draw: DrawRule::None,
            layout: LayoutRule::FirstDoubleSpinner,
            in_play_scoring: InPlayScoring::FivesFace,
            first_lead: LeadRule::Lot,
            next_lead: NextLeadRule::Rotate,
            settlement: Settlement::SubtractOwnRounded,
            blocked_own: BlockedOwnPips::Ignored,
            match_end: MatchEnd::ReachTarget,
            ..PLAIN
        },
    },
    Preset {
        id: "puerto_rican",
        title: "Puerto Rican dominó",
        description: "Two partnerships, all 28 tiles dealt, no drawing; the 6-6 leads the first \
                      hand; going out scores the pips of all three other hands, a tranque the \
                      lower side both sides' pips; first to 200.",
        source: "docs/rules.md#puerto_rican; published: PyPI \"dominoes\" 6.1.0 (its Game and Series); sacitc.blog, Puerto Rican dominoes",
        players: 4..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 7),
        target_two_sides: 200,
        target_more_sides: 200,
        base: PUERTO_RICAN,
    },
    Preset {
        id: "cuban",
        title: "Cuban dominó",
        description: "Two partnerships with the double-nine set, 10 tiles each and 15 out of \
                      play; lead by lot; going out or a tranque won scores the opponents' pips; \
                      first to 100.",
        source: "docs/rules.md#cuban; published: pagat.com, \"Cuban Dominoes\"",
        players: 4..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(10, 10),
        target_two_sides: 100,
        target_more_sides: 100,
        base: Rules {
            max_pip: 9,
            hand_size: 10,
            first_lead: LeadRule::Lot,
            blocked_own: BlockedOwnPips::Ignored,
            count_partner: false,
            target: 100,
            ..PUERTO_RICAN
        },
    },
    Preset {
        id: "dominican",
        title: "Dominican dominó",
        description: "Scored as Puerto Rican dominó, with 25 more for going out with a capicúa \
                      (a tile that fitted both ends) and 25 for a pase corrido (everyone else \
                      passed after your tile); first to 200.",
        source: "docs/rules.md#dominican; published: fichaflow.com, Dominican domino rules; dr1.com, Dominican dominoes",
        players: 4..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: two_and_more(7, 7),
        target_two_sides: 200,
        target_more_sides: 200,
        base: Rules {
            capicua_bonus: 25,
            pass_bonus: 25,
            ..PUERTO_RICAN
        },
    },
    Preset {
        id: "mexican_train",
        title: "Mexican Train",
        description: "A hub double and a train per seat, plus the public Mexican train: \
                  one tile a turn on your train, the Mexican train or an open train; \
                  doubles must be satisfied; 13 rounds, lowest score wins.",
        source: "docs/rules.md#mexican_train; published: pagat.com, \"Mexican Train\"; Wikipedia, \"Mexican Train\"; the Puremco and Cardinal set inserts; mexicantrain.com FAQ",
        players: 2..=8,
        partnerships: PartnershipDefault::Never,
        hand_sizes: [15, 15, 15, 12, 12, 10, 10],
        target_two_sides: 0,
        target_more_sides: 0,
        base: MEXICAN_TRAIN,
    },
    Preset {
        id: "chicken_foot",
        title: "Chicken Foot",
        description: "A hub double taking four arms first; a double at an arm's end is a \
                  chicken foot that takes three toes before anything else; \
                  10 rounds, 0-0 left in a hand counts 50, lowest score wins.",
        source: "docs/rules.md#chicken_foot; published: pagat.com, \"Chicken Foot\"; Wikipedia, \"Chicken foot (game)\"; the Puremco and Cardinal set inserts",
        players: 2..=8,
        partnerships: PartnershipDefault::Never,
        hand_sizes: [21, 14, 11, 8, 7, 6, 5],
        target_two_sides: 0,
        target_more_sides: 0,
        base: CHICKEN_FOOT,
    },
    Preset {
        id: "texas42",
        title: "Texas 42",
        description: "Four players in partnerships bid on their hands (30 to 41 points, or \
                  marks), the winner names trumps, and the tiles are played to \
                  tricks: a point a trick and the count (5-5 and 6-4 count 10; 5-0, \
                  4-1 and 3-2 count 5), 42 a hand; play stops once the bid is made \
                  or set; 7 marks win.",
        source: "docs/rules.md#texas42; published: texas42.net (N42PA, \"straight 42\"); pagat.com, \"Texas 42\"; Dennis Roberson, Winning 42",
        players: 4..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_sizes: [7; 7],
        target_two_sides: 7,
        target_more_sides: 7,
        base: Rules::tricks(TrickOptions::texas42(), 7),
    },
    Preset {
        id: "moon",
        title: "Moon",
        description: "Three players, each for himself, bid 4 to 7 tricks (or shoot the \
                  moon) with 22 tiles; the bidder takes the widow and lays a tile \
                  away; a point a trick, the bid lost when set; 21 points win.",
        source: "docs/rules.md#moon; published: pagat.com, \"Moon\"; Jennifer Kelley, Great Book of Domino Games; domino-play.com, \"Moon\"",
        players: 3..=3,
        partnerships: PartnershipDefault::Never,
        hand_sizes: [7; 7],
        target_two_sides: 21,
        target_more_sides: 21,
        base: Rules::tricks(TrickOptions::moon(), 21),
    },
];

/// The preset with id `id`.
#[must_use]
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The preset `id` for a table of `players` seats, or why there is none
/// (in words for a command line).
///
/// # Errors
/// No preset is called `id`, or it is not played by `players` seats.
pub fn for_table(id: &str, players: u8) -> Result<&'static Preset, String> {
    let found = preset(id).ok_or_else(|| format!("no preset {id:?}; known: {}", known_ids()))?;
    if !found.players.contains(&players) {
        return Err(format!(
            "{} is played by {:?} players",
            found.id, found.players
        ));
    }
    Ok(found)
}

/// Every preset's id, comma-separated, for a message naming what exists.
#[must_use]
pub fn known_ids() -> String {
    PRESETS.iter().map(|p| p.id).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn muggins_targets_follow_the_sides() {
        let muggins = preset("muggins").expect("muggins exists");
        assert_eq!(muggins.rules(2, None).target, 250);
        assert_eq!(muggins.rules(3, None).target, 200);
        assert!(muggins.rules(4, None).partnerships);
        assert_eq!(muggins.rules(4, None).target, 250);
        assert_eq!(muggins.rules(4, Some(false)).target, 200);
        assert_eq!(muggins.rules(2, None).hand_size, 7);
        assert_eq!(muggins.rules(3, None).hand_size, 5);
    }

    #[test]
    fn every_preset_is_valid_for_every_allowed_table() {
        for preset in PRESETS {
            for players in preset.players.clone() {
                let rules = preset.rules(players, None);
                assert_eq!(rules.validate(players), Ok(()), "{} {players}p", preset.id);
            }
        }
    }
}

#[cfg(test)]
mod rule_book_tests {
    use super::PRESETS;

    /// The rule book the sources point to.
    const RULE_BOOK: &str = include_str!("../../docs/rules.md");

    #[test]
    fn every_source_points_to_its_section_of_the_rule_book() {
        for preset in PRESETS {
            let section = format!("docs/rules.md#{}; published", preset.id);
            assert!(
                preset.source.starts_with(&section),
                "{}: {}",
                preset.id,
                preset.source
            );
            assert!(
                RULE_BOOK.contains(&format!("\n## {}\n", preset.id)),
                "docs/rules.md has no section {}",
                preset.id
            );
        }
    }
}
