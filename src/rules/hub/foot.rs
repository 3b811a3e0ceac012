//! The table of Chicken Foot: a hub double in the middle that takes
//! `hub_arms` tiles (4, or 6 for "double chicken foot") before anything
//! else, each starting an arm; arms grow outward, open to every seat; a
//! double placed at the end of an arm is a *chicken foot*, waiting for
//! three *toes* on its far side (each matching its number, each starting a
//! new arm) before any other placement anywhere, and offering no other end.
//!
//! This module knows where tiles fit and what a placement does to the
//! table; whose turn it is and the round's end are the game's. No seat
//! owns an arm, so nothing here depends on who places.

use std::fmt;

use arrayvec::ArrayVec;

use crate::rules::layout::Placed;
use crate::rules::tile::{MAX_PIP_LIMIT, Tile, TileSet, ones};

/// The tiles of the largest set but the hub: the most a foot table holds.
const PLACED_CAPACITY: usize = TileSet::full(MAX_PIP_LIMIT).len() as usize - 1;
/// Toes a chicken foot takes.
pub const TOES: u8 = 3;
/// The most arms a table can have: six from the hub, three toes for each
/// other double of the largest set.
pub const MAX_ARMS: usize = 6 + TOES as usize * MAX_PIP_LIMIT as usize;

/// Where a tile goes at a foot table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FootPlace {
    /// The open end of an arm (by its position: arms are numbered in the
    /// order they were started).
    Arm(u8),
    /// A new arm: a free side of the hub, or a free toe of the waiting
    /// foot (one move, whichever side it takes).
    NewArm,
}

/// "arm 3", "a new arm".
impl fmt::Display for FootPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FootPlace::Arm(arm) => write!(f, "arm {arm}"),
            FootPlace::NewArm => f.write_str("a new arm"),
        }
    }
}

/// What an arm grows from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Root {
    /// A side of the hub.
    Hub,
    /// A toe of the chicken foot at the end of this arm.
    Toe(u8),
}

/// What the table waits for before any other placement.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Waiting {
    /// The hub's free sides (fewer than `hub_arms` arms grow from it).
    Hub,
    /// The toes of the chicken foot at the end of this arm.
    Toes(u8),
}

/// "the hub's free sides", "the toes of the foot on arm 2".
impl fmt::Display for Waiting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Waiting::Hub => f.write_str("the hub's free sides"),
            Waiting::Toes(arm) => write!(f, "the toes of the foot on arm {arm}"),
        }
    }
}

/// Why a tile cannot go where it was sent.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum FootFault {
    /// There is no such arm.
    #[error("there is no such arm")]
    NoSuchArm,
    /// The hub or a foot waits for tiles: only a new arm may be started.
    #[error("{0} must be filled first (a new arm)")]
    Waiting(Waiting),
    /// Nothing waits for a new arm.
    #[error("neither the hub nor a chicken foot waits for a new arm")]
    NothingWaits,
    /// The arm ends in a chicken foot, whose toes carry on instead.
    #[error("it ends in a chicken foot: its toes carry on, the double offers no other end")]
    EndsInFoot,
    /// The tile does not show the number that place shows.
    #[error("it shows {0}")]
    DoesNotMatch(u8),
}

/// What a placement did to the table besides adding the tile.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct FootPlacement {
    /// The tile was the hub's last free side.
    pub hub_completed: bool,
    /// The tile was a double at an arm's end: a foot now waits for toes.
    pub foot_started: bool,
    /// The tile was the waiting foot's last toe.
    pub foot_completed: bool,
}

/// One arm: what it grows from, the number its end shows, and whether
/// its last tile is a double (a chicken foot: the arm itself is closed).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct ArmHead {
    /// What it grows from.
    root: Root,
    /// The number its end shows.
    open: u8,
    /// Its last tile is a double.
    foot: bool,
}

/// The table of a Chicken Foot round. Every tile lives in one list, in the
/// order placed, with its arm, so that placing never allocates and a copy
/// of the table is one block.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Foot {
    /// The hub double's number.
    hub: u8,
    /// The arms the hub takes before anything else.
    hub_arms: u8,
    /// The arms, in the order they were started.
    arms: ArrayVec<ArmHead, MAX_ARMS>,
    /// Every placed tile with its arm, in the order placed.
    placed: ArrayVec<(u8, Placed), PLACED_CAPACITY>,
    /// What must be filled before anything else.
    waiting: Option<Waiting>,
    /// For each number, the open arms showing it (bit `i` for arm `i`):
    /// derived from `arms`, kept so that listing where tiles fit does not
    /// rescan every arm for every tile.
    showing: [u64; NUMBERS],
    /// The tiles that fit somewhere now (what [`Foot::fitting`] answers):
    /// derived from `waiting` and `showing`, kept for the same reason.
    fits: TileSet,
    /// How many new arms grow from what waits (derived from `arms`, kept so
    /// that a new arm does not count them again).
    filled: u8,
}

/// How many numbers a half may show in the largest set.
const NUMBERS: usize = MAX_PIP_LIMIT as usize + 1;

impl Foot {
    /// The table at a round's start: the hub `hub`-`hub`, waiting for its
    /// `hub_arms` arms.
    #[must_use]
    pub fn new(hub: u8, hub_arms: u8) -> Foot {
        Foot {
            hub,
            hub_arms,
            arms: ArrayVec::new(),
            placed: ArrayVec::new(),
            waiting: Some(Waiting::Hub),
            showing: [0; NUMBERS],
            fits: TileSet::showing(hub),
            filled: 0,
        }
    }

    /// Recomputes what is derived from the arms and what waits.
    fn reindex(&mut self) {
        self.showing = [0; NUMBERS];
        for (arm, head) in self.arms.iter().enumerate() {
            if !head.foot {
                set_bit(&mut self.showing, head.open, arm, true);
            }
        }
        self.filled = match self.waiting {
            Some(Waiting::Hub) => self.grown_from(Root::Hub),
            Some(Waiting::Toes(arm)) => self.grown_from(Root::Toe(arm)),
            None => 0,
        };
        self.refit();
    }

    /// Recomputes the tiles that fit from what waits and `showing`.
    fn refit(&mut self) {
        self.fits = match self.waiting {
            Some(waiting) => TileSet::showing(self.waiting_number(waiting)),
            None => (0..NUMBERS)
                .filter(|&n| self.showing[n] != 0)
                .fold(TileSet::EMPTY, |set, n| {
                    set.or(TileSet::showing(u8::try_from(n).unwrap_or(u8::MAX)))
                }),
        };
    }

    /// A table from its parts, unchecked (the checked constructor compares
    /// it with the table the round's moves build): the hub `hub`-`hub`
    /// taking `hub_arms` arms, each arm in the order started with what it
    /// grows from and its tiles outward, and what waits. An arm's end shows
    /// its last tile's outer half (what it grows from while it is empty),
    /// and it ends in a foot when that tile is a double. `None` when the
    /// arms or the tiles are more than any round has.
    #[must_use]
    pub fn from_parts(
        hub: u8,
        hub_arms: u8,
        arms: Vec<(Root, Vec<Placed>)>,
        waiting: Option<Waiting>,
    ) -> Option<Foot> {
        let mut foot = Foot::new(hub, hub_arms);
        foot.waiting = waiting;
        for (index, (root, tiles)) in arms.into_iter().enumerate() {
            let arm = u8::try_from(index).ok()?;
            let grows_from = match root {
                Root::Hub => hub,
                Root::Toe(parent) => foot
                    .arms
                    .get(usize::from(parent))
                    .map_or(hub, |head| head.open),
            };
            let last = tiles.last().copied();
            for placed in tiles {
                foot.placed.try_push((arm, placed)).ok()?;
            }
            foot.arms
                .try_push(ArmHead {
                    root,
                    open: last.map_or(grows_from, |placed| placed.outer),
                    foot: last.is_some_and(|placed| placed.tile().is_double()),
                })
                .ok()?;
        }
        foot.reindex();
        Some(foot)
    }

    /// The same table at its round's start: the hub alone.
    #[must_use]
    pub fn at_start(&self) -> Foot {
        Foot::new(self.hub, self.hub_arms)
    }

    /// The hub double.
    #[must_use]
    pub fn hub(&self) -> Tile {
        Tile::new(self.hub, self.hub)
    }

    /// What must be filled before anything else, if anything.
    #[must_use]
    pub fn waiting(&self) -> Option<Waiting> {
        self.waiting
    }

    /// How many arms there are.
    #[must_use]
    pub fn arm_count(&self) -> usize {
        self.arms.len()
    }

    /// What arm `arm` grows from.
    #[must_use]
    pub fn root(&self, arm: u8) -> Option<Root> {
        self.arms.get(usize::from(arm)).map(|head| head.root)
    }

    /// The arms the hub takes before anything else.
    #[must_use]
    pub fn hub_arms(&self) -> u8 {
        self.hub_arms
    }

    /// Whether arm `arm` ends in a chicken foot (its last tile a double:
    /// the arm is closed, its toes carry on).
    #[must_use]
    pub fn ends_in_foot(&self, arm: u8) -> bool {
        self.arms
            .get(usize::from(arm))
            .is_some_and(|head| head.foot)
    }

    /// The number a new arm must show and how many more new arms are
    /// needed while something waits.
    #[must_use]
    pub fn waiting_for(&self) -> Option<(u8, u8)> {
        let waiting = self.waiting?;
        let wanted = match waiting {
            Waiting::Hub => self.hub_arms,
            Waiting::Toes(_) => TOES,
        };
        Some((
            self.waiting_number(waiting),
            wanted.saturating_sub(self.filled),
        ))
    }

    /// The number arm `arm`'s end shows, unless it ends in a foot.
    #[must_use]
    pub fn open_end(&self, arm: u8) -> Option<u8> {
        self.arms
            .get(usize::from(arm))
            .filter(|head| !head.foot)
            .map(|head| head.open)
    }

    /// Arm `arm`'s tiles, outward from what it grows from.
    pub fn arm_tiles(&self, arm: u8) -> impl Iterator<Item = Placed> + '_ {
        self.placed
            .iter()
            .filter(move |&&(on, _)| on == arm)
            .map(|&(_, placed)| placed)
    }

    /// Every tile on the table, the hub included.
    #[must_use]
    pub fn tiles(&self) -> TileSet {
        self.placed
            .iter()
            .map(|(_, placed)| placed.tile())
            .chain([self.hub()])
            .collect()
    }

    /// How many tiles are on the arms (the hub not counted).
    #[must_use]
    pub fn len(&self) -> usize {
        self.placed.len()
    }

    /// Whether no tile is on the table but the hub.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// The number a new arm must show while something waits.
    fn waiting_number(&self, waiting: Waiting) -> u8 {
        match waiting {
            Waiting::Hub => self.hub,
            Waiting::Toes(arm) => self
                .arms
                .get(usize::from(arm))
                .map_or(self.hub, |head| head.open),
        }
    }

    /// How many arms grow from `root`.
    fn grown_from(&self, root: Root) -> u8 {
        let count = self.arms.iter().filter(|head| head.root == root).count();
        u8::try_from(count).unwrap_or(u8::MAX)
    }

    /// The tiles that fit somewhere now: only the waiting hub's or foot's
    /// number while one waits, else every open arm's.
    #[must_use]
    pub fn fitting(&self) -> TileSet {
        self.fits
    }

    /// Why `tile` may not go at `place`, or `None` if it may.
    #[must_use]
    pub fn fault(&self, tile: Tile, place: FootPlace) -> Option<FootFault> {
        match (place, self.waiting) {
            (FootPlace::NewArm, None) => Some(FootFault::NothingWaits),
            (FootPlace::NewArm, Some(waiting)) => {
                let number = self.waiting_number(waiting);
                (!tile.has(number)).then_some(FootFault::DoesNotMatch(number))
            }
            (FootPlace::Arm(arm), waiting) => {
                let Some(head) = self.arms.get(usize::from(arm)) else {
                    return Some(FootFault::NoSuchArm);
                };
                if let Some(waiting) = waiting {
                    return Some(FootFault::Waiting(waiting));
                }
                if head.foot {
                    return Some(FootFault::EndsInFoot);
                }
                (!tile.has(head.open)).then_some(FootFault::DoesNotMatch(head.open))
            }
        }
    }

    /// The places `tile` may go now, in the order legal moves list them: a
    /// new arm while something waits, else each open arm it fits.
    pub fn places_for(&self, tile: Tile) -> impl Iterator<Item = FootPlace> + use<> {
        let new_arm =
            (self.waiting.is_some() && self.fits.contains(tile)).then_some(FootPlace::NewArm);
        let arms =
            ones(self.arms_for(tile)).filter_map(|arm| u8::try_from(arm).ok().map(FootPlace::Arm));
        new_arm.into_iter().chain(arms)
    }

    /// The open arms `tile` fits, bit `i` for arm `i` (none while something
    /// waits: then only a new arm takes a tile).
    #[must_use]
    pub fn arms_for(&self, tile: Tile) -> u64 {
        if self.waiting.is_some() {
            return 0;
        }
        let number = |n: u8| self.showing.get(usize::from(n)).copied().unwrap_or(0);
        number(tile.high()) | number(tile.low())
    }

    /// Places `tile` at `place`, which [`Foot::fault`] must allow (a tile
    /// that does not fit is placed as if it did: the table stays well
    /// formed but the position is not one of the game's).
    pub fn place(&mut self, tile: Tile, place: FootPlace) -> FootPlacement {
        let mut done = FootPlacement::default();
        match place {
            FootPlace::NewArm => {
                let Some(waiting) = self.waiting else {
                    return done;
                };
                let inner = self.waiting_number(waiting);
                let root = match waiting {
                    Waiting::Hub => Root::Hub,
                    Waiting::Toes(arm) => Root::Toe(arm),
                };
                let Ok(arm) = u8::try_from(self.arms.len()) else {
                    return done;
                };
                let outer = tile.other_half(inner);
                let head = ArmHead {
                    root,
                    open: outer,
                    foot: false,
                };
                // (No legal placement finds the table full: it holds every
                // tile of the largest set.)
                if self.arms.try_push(head).is_err()
                    || self
                        .placed
                        .try_push((arm, Placed { inner, outer }))
                        .is_err()
                {
                    return done;
                }
                set_bit(&mut self.showing, outer, usize::from(arm), true);
                self.filled = self.filled.saturating_add(1);
                match waiting {
                    Waiting::Hub if self.filled >= self.hub_arms => {
                        self.waiting = None;
                        done.hub_completed = true;
                    }
                    Waiting::Toes(_) if self.filled >= TOES => {
                        self.waiting = None;
                        done.foot_completed = true;
                    }
                    Waiting::Hub | Waiting::Toes(_) => {}
                }
            }
            FootPlace::Arm(arm) => {
                let Some(head) = self.arms.get_mut(usize::from(arm)) else {
                    return done;
                };
                let inner = if tile.has(head.open) {
                    head.open
                } else {
                    tile.high()
                };
                let outer = tile.other_half(inner);
                if self
                    .placed
                    .try_push((arm, Placed { inner, outer }))
                    .is_err()
                {
                    return done;
                }
                set_bit(&mut self.showing, head.open, usize::from(arm), false);
                head.open = outer;
                if !tile.is_double() {
                    set_bit(&mut self.showing, outer, usize::from(arm), true);
                }
                if tile.is_double() {
                    head.foot = true;
                    self.waiting = Some(Waiting::Toes(arm));
                    self.filled = 0;
                    done.foot_started = true;
                }
            }
        }
        self.refit();
        done
    }
}

/// Sets (or clears) arm `arm`'s bit among the arms showing `number`.
fn set_bit(showing: &mut [u64; NUMBERS], number: u8, arm: usize, on: bool) {
    if let Some(bits) = showing.get_mut(usize::from(number)) {
        let bit = 1u64
            .checked_shl(u32::try_from(arm).unwrap_or(u32::MAX))
            .unwrap_or(0);
        if on {
            *bits |= bit;
        } else {
            *bits &= !bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(a: u8, b: u8) -> Tile {
        Tile::new(a, b)
    }

    /// The hub takes its arms first, then arms grow; a double at an arm's
    /// end waits for three toes before anything else, and its arm is closed.
    #[test]
    fn the_rule_books_chicken_foot() {
        let mut foot = Foot::new(9, 4);
        assert_eq!(foot.waiting(), Some(Waiting::Hub));
        assert_eq!(foot.fitting(), TileSet::showing(9));
        assert_eq!(
            foot.places_for(t(9, 5)).collect::<Vec<_>>(),
            vec![FootPlace::NewArm]
        );
        assert_eq!(
            foot.fault(t(5, 3), FootPlace::NewArm),
            Some(FootFault::DoesNotMatch(9))
        );
        for (i, tile) in [t(9, 5), t(9, 3), t(9, 0)].into_iter().enumerate() {
            assert_eq!(
                foot.place(tile, FootPlace::NewArm),
                FootPlacement::default(),
                "{i}"
            );
        }
        // An arm may not grow while the hub waits.
        assert_eq!(
            foot.fault(t(5, 2), FootPlace::Arm(0)),
            Some(FootFault::Waiting(Waiting::Hub))
        );
        let last = foot.place(t(9, 7), FootPlace::NewArm);
        assert!(last.hub_completed);
        assert_eq!(foot.waiting(), None);
        assert_eq!(
            foot.fault(t(9, 8), FootPlace::NewArm),
            Some(FootFault::NothingWaits)
        );
        // Four arms showing 5, 3, 0 and 7.
        assert_eq!(
            foot.fitting(),
            [5, 3, 0, 7]
                .into_iter()
                .fold(TileSet::EMPTY, |set, n| set.or(TileSet::showing(n)))
        );
        // 5-3 fits two arms: a move for each.
        assert_eq!(
            foot.places_for(t(5, 3)).collect::<Vec<_>>(),
            vec![FootPlace::Arm(0), FootPlace::Arm(1)]
        );
        // A double at an arm's end: a foot waits for three toes.
        let started = foot.place(t(5, 5), FootPlace::Arm(0));
        assert!(started.foot_started);
        assert_eq!(foot.waiting(), Some(Waiting::Toes(0)));
        assert_eq!(foot.fitting(), TileSet::showing(5));
        assert_eq!(foot.open_end(0), None);
        assert_eq!(
            foot.fault(t(3, 2), FootPlace::Arm(1)),
            Some(FootFault::Waiting(Waiting::Toes(0)))
        );
        for tile in [t(5, 1), t(5, 2)] {
            assert_eq!(
                foot.place(tile, FootPlace::NewArm),
                FootPlacement::default()
            );
        }
        assert!(foot.place(t(5, 4), FootPlace::NewArm).foot_completed);
        assert_eq!(foot.waiting(), None);
        assert_eq!(foot.arm_count(), 7);
        assert_eq!(foot.root(6), Some(Root::Toe(0)));
        assert_eq!(foot.root(3), Some(Root::Hub));
        // The foot's arm takes nothing more; its toes do.
        assert_eq!(
            foot.fault(t(5, 0), FootPlace::Arm(0)),
            Some(FootFault::EndsInFoot)
        );
        assert_eq!(foot.open_end(4), Some(1));
        assert_eq!(
            foot.arm_tiles(0).map(Placed::tile).collect::<Vec<_>>(),
            vec![t(9, 5), t(5, 5)]
        );
        assert_eq!(foot.len(), 8);
        assert_eq!(foot.tiles().len(), 9);
        assert_eq!(
            foot.fault(t(9, 9), FootPlace::Arm(40)),
            Some(FootFault::NoSuchArm)
        );
    }

    /// Double chicken foot: the hub takes six arms.
    #[test]
    fn six_hub_arms() {
        let mut foot = Foot::new(9, 6);
        for low in 0..5 {
            assert!(!foot.place(t(9, low), FootPlace::NewArm).hub_completed);
        }
        assert!(foot.place(t(9, 5), FootPlace::NewArm).hub_completed);
        assert_eq!(foot.arm_count(), 6);
    }
}
