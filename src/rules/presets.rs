//! The presets of RULES.md §1, each a value of the option space.
//!
//! A preset is data: its base [`Rules`] and how the few options that depend
//! on the table (hand size, target, partnerships) vary with the seats.

use std::ops::RangeInclusive;

use super::options::{
    BlockedOwnPips, DrawRule, HandRounding, InPlayScoring, LeadRule, NextLeadRule, Rules,
};

/// Whether a preset plays 4 seats as partnerships.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PartnershipDefault {
    /// Partnerships by default with 4 seats; individuals allowed.
    WithFourSeats,
    /// Never by default (a caller may still ask for them with 4 seats).
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
    /// Tiles per hand with 2 seats.
    hand_size_two: u8,
    /// Tiles per hand with 3 or more seats.
    hand_size_more: u8,
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
    /// preset's default; the options that depend on it (the target) follow.
    pub fn rules(&self, players: u8, partnerships: Option<bool>) -> Rules {
        let partnerships = partnerships
            .unwrap_or(players == 4 && self.partnerships == PartnershipDefault::WithFourSeats);
        let mut rules = Rules {
            partnerships,
            ..self.base
        };
        rules.hand_size = if players <= 2 {
            self.hand_size_two
        } else {
            self.hand_size_more
        };
        rules.target = if rules.sides(players) <= 2 {
            self.target_two_sides
        } else {
            self.target_more_sides
        };
        rules
    }
}

/// Options shared by the site's two games; each preset overrides the rest.
const SITE_BASE: Rules = Rules {
    max_pip: 6,
    partnerships: false,
    hand_size: 7,
    draw: DrawRule::UntilPlayable,
    boneyard_reserve: 0,
    in_play_scoring: InPlayScoring::None,
    first_lead: LeadRule::HighestDouble,
    next_lead: NextLeadRule::WinnerElseFirstLead,
    hand_rounding: HandRounding::None,
    blocked_own: BlockedOwnPips::Raw,
    target: 0,
    single_hand: true,
};

/// Every preset, in the order `ListVariants` shows them.
pub static PRESETS: &[Preset] = &[
    Preset {
        id: "muggins",
        title: "Muggins (Viitoset)",
        description: "All Fives without a spinner: score every multiple of 5 on the ends, \
                      r5 of each opponent's pips for going out; first to 250 (200 with 3-4 individuals).",
        source: "RULES.md §1 `muggins`: the seed site's \"Viitoset\" rules",
        players: 2..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_size_two: 7,
        hand_size_more: 5,
        target_two_sides: 250,
        target_more_sides: 200,
        base: Rules {
            in_play_scoring: InPlayScoring::FivesFace,
            hand_rounding: HandRounding::PerOpponent,
            blocked_own: BlockedOwnPips::Rounded,
            single_hand: false,
            ..SITE_BASE
        },
    },
    Preset {
        id: "draw",
        title: "Draw dominoes (Tavallinen Dominot)",
        description: "Standard draw game: one hand, no points for play; going out (or the fewest \
                      pips when blocked) wins and is credited with the opponents' pips.",
        source: "RULES.md §1 `draw`: the seed site's standard game",
        players: 2..=4,
        partnerships: PartnershipDefault::WithFourSeats,
        hand_size_two: 7,
        hand_size_more: 5,
        target_two_sides: 0,
        target_more_sides: 0,
        base: SITE_BASE,
    },
];

/// The preset with id `id`.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
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
