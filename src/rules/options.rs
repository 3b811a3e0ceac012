//! The option space a variant is made of (RULES.md §2). A preset is one
//! value of [`Rules`]; house rules are another. The engine reads only these
//! options, never a variant's name.

use thiserror::Error;

use super::tile::TileSet;

/// The fewest seats a game may have.
pub const MIN_PLAYERS: u8 = 2;
/// The most seats a game may have.
pub const MAX_PLAYERS: u8 = 4;

/// Everything that decides how a game is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// Highest half in the set: 6, 9 or 12.
    pub max_pip: u8,
    /// Seats 0+2 and 1+3 form two sides (4 seats only).
    pub partnerships: bool,
    /// Tiles dealt to each seat.
    pub hand_size: u8,
    /// What a seat that cannot place a tile does.
    pub draw: DrawRule,
    /// Tiles that may never be drawn from the boneyard.
    pub boneyard_reserve: u8,
    /// How the open ends score after each tile.
    pub in_play_scoring: InPlayScoring,
    /// Who leads the first hand.
    pub first_lead: LeadRule,
    /// Who leads later hands.
    pub next_lead: NextLeadRule,
    /// How opponents' pips are rounded when a hand is won.
    pub hand_rounding: HandRounding,
    /// What a blocked hand's winner subtracts for its own pips.
    pub blocked_own: BlockedOwnPips,
    /// Score that ends the match (0 with `single_hand`).
    pub target: u32,
    /// The match is a single hand.
    pub single_hand: bool,
}

/// What a seat that cannot place a tile does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawRule {
    /// Draw one tile at a time until one can be placed.
    UntilPlayable,
    /// Never draw; pass.
    None,
}

/// How the ends total scores after each tile is placed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InPlayScoring {
    /// Nothing scores during play; doubles lie in line.
    None,
    /// A positive multiple of 5 scores its face value.
    FivesFace,
    /// A positive multiple of 5 scores a fifth of it.
    FivesFifths,
    /// A positive multiple of 3 scores a third of it.
    ThreesThirds,
    /// Fifths of a multiple of 5 plus thirds of a multiple of 3.
    FivesAndThrees,
}

/// Who leads a hand whose lead is decided afresh.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LeadRule {
    /// The holder of the highest double leads it (else the heaviest tile).
    HighestDouble,
    /// A seat drawn by lot leads any tile.
    Lot,
}

/// Who leads the hands after the first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NextLeadRule {
    /// The seat that went out, any tile; after a blocked hand, `first_lead`.
    WinnerElseFirstLead,
    /// The seat after the previous leader, any tile.
    Rotate,
    /// Always as `first_lead`.
    FirstLead,
}

/// How the opponents' pips become the winner's points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HandRounding {
    /// Sum of r5 of each opponent's pips.
    PerOpponent,
    /// r5 of the opponents' total.
    Total,
    /// The raw total.
    None,
}

/// What a blocked hand's winner subtracts for its own side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockedOwnPips {
    /// Sum of r5 of each of its own hands.
    Rounded,
    /// Its own raw pip total.
    Raw,
    /// Nothing.
    Ignored,
}

/// An option that is out of range, or options that cannot be played
/// together.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{option}: {message}")]
pub struct RulesError {
    /// The option at fault, as named in the wire contract (`hand_size`).
    pub option: &'static str,
    /// Why, in words a caller can act on.
    pub message: String,
}

impl RulesError {
    fn new(option: &'static str, message: impl Into<String>) -> RulesError {
        RulesError {
            option,
            message: message.into(),
        }
    }
}

impl Rules {
    /// Number of sides (scoring units) with `players` seats.
    pub const fn sides(&self, players: u8) -> u8 {
        if self.partnerships { 2 } else { players }
    }

    /// Whether doubles lie crosswise and count both halves at an end: only in
    /// games with in-play scoring (RULES.md §4).
    pub const fn doubles_crosswise(&self) -> bool {
        !matches!(self.in_play_scoring, InPlayScoring::None)
    }

    /// Every tile of the set these rules play with.
    pub const fn tile_set(&self) -> TileSet {
        TileSet::full(self.max_pip)
    }

    /// Checks that the options are in range and can be played together by
    /// `players` seats.
    pub fn validate(&self, players: u8) -> Result<(), RulesError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(RulesError::new(
                "players",
                format!("{players} players: the engine seats {MIN_PLAYERS} to {MAX_PLAYERS}"),
            ));
        }
        if !matches!(self.max_pip, 6 | 9 | 12) {
            return Err(RulesError::new(
                "max_pip",
                format!(
                    "{}: the sets are double-6, double-9 and double-12",
                    self.max_pip
                ),
            ));
        }
        if self.partnerships && players != 4 {
            return Err(RulesError::new(
                "partnerships",
                format!("partnerships need 4 players, not {players}"),
            ));
        }
        if self.hand_size == 0 {
            return Err(RulesError::new(
                "hand_size",
                "each seat must be dealt at least one tile",
            ));
        }
        let tiles = self.tile_set().len();
        let needed =
            u32::from(self.hand_size) * u32::from(players) + u32::from(self.boneyard_reserve);
        if needed > tiles {
            return Err(RulesError::new(
                "hand_size",
                format!(
                    "{players} hands of {} plus a reserve of {} need {needed} tiles; the set has {tiles}",
                    self.hand_size, self.boneyard_reserve
                ),
            ));
        }
        if self.single_hand && self.target != 0 {
            return Err(RulesError::new(
                "target",
                "a single-hand match has no target: set target to 0 or single_hand to false",
            ));
        }
        if !self.single_hand && self.target == 0 {
            return Err(RulesError::new(
                "target",
                "a match played to a target needs a target above 0",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::presets::preset;

    fn muggins(players: u8) -> Rules {
        preset("muggins")
            .expect("muggins exists")
            .rules(players, None)
    }

    #[test]
    fn presets_are_valid() {
        for players in 2..=4 {
            assert_eq!(muggins(players).validate(players), Ok(()));
        }
    }

    #[test]
    fn refuses_unplayable_combinations() {
        let mut rules = muggins(3);
        rules.partnerships = true;
        assert_eq!(rules.validate(3).map_err(|e| e.option), Err("partnerships"));

        let mut rules = muggins(4);
        rules.hand_size = 8;
        assert_eq!(rules.validate(4).map_err(|e| e.option), Err("hand_size"));

        let mut rules = muggins(2);
        rules.target = 0;
        assert_eq!(rules.validate(2).map_err(|e| e.option), Err("target"));

        let mut rules = muggins(2);
        rules.max_pip = 7;
        assert_eq!(rules.validate(2).map_err(|e| e.option), Err("max_pip"));

        assert_eq!(muggins(2).validate(5).map_err(|e| e.option), Err("players"));
    }
}
