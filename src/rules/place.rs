//! Where a move puts its tile: the lead of an empty line, one of its ends,
//! or a train of a train table.
//!
//! A place is one byte (a move is four, and legal-move lists are written
//! for every position a search visits): the line's ends are numbered as
//! [`End`] numbers them, so that a line's place reads as its end at no
//! cost.

use std::fmt;

use super::end::End;
use super::foot::{FootPlace, MAX_ARMS};
use super::moves::Seat;
use super::trains::TrainId;

/// Where a tile is placed: match on [`Place::kind`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place(Code);

/// A place's byte: the four ends first, in [`End`]'s order, then the lead,
/// then the seats' trains and the Mexican train.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
enum Code {
    Left,
    Right,
    Up,
    Down,
    Lead,
    Train0,
    Train1,
    Train2,
    Train3,
    Train4,
    Train5,
    Train6,
    Train7,
    Mexican,
    NewArm,
    Arm0,
    Arm1,
    Arm2,
    Arm3,
    Arm4,
    Arm5,
    Arm6,
    Arm7,
    Arm8,
    Arm9,
    Arm10,
    Arm11,
    Arm12,
    Arm13,
    Arm14,
    Arm15,
    Arm16,
    Arm17,
    Arm18,
    Arm19,
    Arm20,
    Arm21,
    Arm22,
    Arm23,
    Arm24,
    Arm25,
    Arm26,
    Arm27,
    Arm28,
    Arm29,
    Arm30,
    Arm31,
    Arm32,
    Arm33,
    Arm34,
    Arm35,
    Arm36,
    Arm37,
    Arm38,
    Arm39,
    Arm40,
    Arm41,
}

/// The seats' trains' codes, by seat.
const TRAINS: [Code; 8] = [
    Code::Train0,
    Code::Train1,
    Code::Train2,
    Code::Train3,
    Code::Train4,
    Code::Train5,
    Code::Train6,
    Code::Train7,
];

/// The arms' codes, by arm.
const ARMS: [Code; MAX_ARMS] = [
    Code::Arm0,
    Code::Arm1,
    Code::Arm2,
    Code::Arm3,
    Code::Arm4,
    Code::Arm5,
    Code::Arm6,
    Code::Arm7,
    Code::Arm8,
    Code::Arm9,
    Code::Arm10,
    Code::Arm11,
    Code::Arm12,
    Code::Arm13,
    Code::Arm14,
    Code::Arm15,
    Code::Arm16,
    Code::Arm17,
    Code::Arm18,
    Code::Arm19,
    Code::Arm20,
    Code::Arm21,
    Code::Arm22,
    Code::Arm23,
    Code::Arm24,
    Code::Arm25,
    Code::Arm26,
    Code::Arm27,
    Code::Arm28,
    Code::Arm29,
    Code::Arm30,
    Code::Arm31,
    Code::Arm32,
    Code::Arm33,
    Code::Arm34,
    Code::Arm35,
    Code::Arm36,
    Code::Arm37,
    Code::Arm38,
    Code::Arm39,
    Code::Arm40,
    Code::Arm41,
];

/// A power of two above the number of codes (a code masked by one less
/// is itself).
const CODES: usize = 64;

/// The train of each code, `None` for the codes that are not trains'.
const TRAIN_OF_CODE: [Option<TrainId>; CODES] = {
    let mut table = [None; CODES];
    let mut seat = 0;
    while seat < TRAINS.len() {
        table[TRAINS[seat] as usize] = Some(TrainId::Seat(seat as Seat));
        seat += 1;
    }
    table[Code::Mexican as usize] = Some(TrainId::Mexican);
    table
};

/// The code of each arm, and of a new arm's place past the most arms a
/// table can have.
const CODE_OF_ARM: [Code; CODES] = {
    let mut table = [Code::NewArm; CODES];
    let mut arm = 0;
    while arm < ARMS.len() {
        table[arm] = ARMS[arm];
        arm += 1;
    }
    table
};

/// A place, as a `match` reads it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlaceKind {
    /// The first tile of an empty line.
    Lead,
    /// An open end of a line.
    End(End),
    /// The open end of a train.
    Train(TrainId),
    /// An arm of a chicken foot, or a new one.
    Foot(FootPlace),
}

impl Place {
    /// The first tile of an empty line.
    pub const LEAD: Place = Place(Code::Lead);

    /// An open end of a line.
    #[must_use]
    pub const fn at_end(end: End) -> Place {
        Place(match end {
            End::Left => Code::Left,
            End::Right => Code::Right,
            End::Up => Code::Up,
            End::Down => Code::Down,
        })
    }

    /// The open end of a train (a seat beyond the eighth names the
    /// Mexican train's place; no table has such a seat).
    #[must_use]
    pub const fn on_train(train: TrainId) -> Place {
        Place(match train {
            TrainId::Seat(seat) if (seat as usize) < TRAINS.len() => TRAINS[seat as usize],
            TrainId::Seat(_) | TrainId::Mexican => Code::Mexican,
        })
    }

    /// A place at a chicken foot (an arm beyond the most a table can have
    /// names a new arm's place; no table has such an arm).
    #[must_use]
    pub const fn at_foot(place: FootPlace) -> Place {
        Place(match place {
            // Looked up, not compared: a move list writes places past a
            // tile's last arm and takes them back, and a branch on them
            // would be a coin toss to a processor.
            FootPlace::Arm(arm) => CODE_OF_ARM[if arm < 63 { arm } else { 63 } as usize],
            FootPlace::NewArm => Code::NewArm,
        })
    }

    /// The place at a chicken foot, if the place is one.
    #[must_use]
    pub const fn foot(self) -> Option<FootPlace> {
        match self.0 {
            Code::NewArm => Some(FootPlace::NewArm),
            code if code as u8 >= Code::Arm0 as u8 => {
                Some(FootPlace::Arm(code as u8 - Code::Arm0 as u8))
            }
            _ => None,
        }
    }

    /// The place of a line move: the end, or the lead for `None`.
    #[must_use]
    pub const fn on_line(end: Option<End>) -> Place {
        match end {
            None => Place::LEAD,
            Some(end) => Place::at_end(end),
        }
    }

    /// The line's end, if the place is one.
    #[must_use]
    pub const fn end(self) -> Option<End> {
        match self.0 {
            Code::Left => Some(End::Left),
            Code::Right => Some(End::Right),
            Code::Up => Some(End::Up),
            Code::Down => Some(End::Down),
            _ => None,
        }
    }

    /// The train, if the place is one.
    #[must_use]
    pub const fn train(self) -> Option<TrainId> {
        // Looked up, not matched: whether a move goes on the Mexican train
        // or a seat's is a coin toss to a processor, which a branch on it
        // pays for a move at a time.
        TRAIN_OF_CODE[self.0 as usize & (CODES - 1)]
    }

    /// Whether it is the lead of an empty line.
    #[must_use]
    pub const fn is_lead(self) -> bool {
        matches!(self.0, Code::Lead)
    }

    /// The place as a `match` reads it.
    #[must_use]
    pub const fn kind(self) -> PlaceKind {
        match (self.end(), self.train(), self.foot()) {
            (Some(end), _, _) => PlaceKind::End(end),
            (None, Some(train), _) => PlaceKind::Train(train),
            (None, None, Some(foot)) => PlaceKind::Foot(foot),
            (None, None, None) => PlaceKind::Lead,
        }
    }
}

impl From<End> for Place {
    fn from(end: End) -> Place {
        Place::at_end(end)
    }
}

impl From<TrainId> for Place {
    fn from(train: TrainId) -> Place {
        Place::on_train(train)
    }
}

impl fmt::Debug for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind().fmt(f)
    }
}

/// As a sentence ends: "as the lead", "on the left end", "on seat 2's
/// train".
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            PlaceKind::Lead => f.write_str("as the lead"),
            PlaceKind::End(end) => write!(f, "on the {end} end"),
            PlaceKind::Train(train) => write!(f, "on {train}"),
            PlaceKind::Foot(place) => write!(f, "on {place}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every place reads back as what made it, in one byte.
    #[test]
    fn places_round_trip() {
        assert_eq!(std::mem::size_of::<Place>(), 1);
        assert_eq!(std::mem::size_of::<Option<Place>>(), 1);
        assert_eq!(Place::LEAD.kind(), PlaceKind::Lead);
        assert_eq!(Place::on_line(None), Place::LEAD);
        for end in End::ALL {
            assert_eq!(Place::at_end(end).kind(), PlaceKind::End(end));
            assert_eq!(Place::on_line(Some(end)).end(), Some(end));
        }
        for seat in 0..8 {
            let train = TrainId::Seat(seat);
            assert_eq!(Place::on_train(train).kind(), PlaceKind::Train(train));
        }
        assert_eq!(
            Place::on_train(TrainId::Mexican).train(),
            Some(TrainId::Mexican)
        );
        for arm in 0..42 {
            let place = FootPlace::Arm(arm);
            assert_eq!(Place::at_foot(place).kind(), PlaceKind::Foot(place));
        }
        assert_eq!(
            Place::at_foot(FootPlace::NewArm).kind(),
            PlaceKind::Foot(FootPlace::NewArm)
        );
        assert_eq!(
            Place::at_foot(FootPlace::Arm(42)),
            Place::at_foot(FootPlace::NewArm)
        );
        assert_eq!(
            Place::at_foot(FootPlace::Arm(255)),
            Place::at_foot(FootPlace::NewArm)
        );
        assert_eq!(Place::at_foot(FootPlace::Arm(2)).train(), None);
        assert_eq!(Place::on_train(TrainId::Mexican).foot(), None);
        assert_eq!(Place::at_end(End::Up).to_string(), "on the up end");
        assert_eq!(
            Place::on_train(TrainId::Seat(2)).to_string(),
            "on seat 2's train"
        );
    }
}
