//! Where a move puts its tile: the lead of an empty line or one of its
//! ends. (The train and chicken-foot tables add their own places here: a
//! train, an arm.)

use std::fmt;

use super::end::End;

/// Where a tile is placed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Place {
    /// The first tile of an empty line.
    Lead,
    /// An open end of a line.
    End(End),
}

impl Place {
    /// The line's end, if the place is one (`None` for a lead).
    #[must_use]
    pub const fn end(self) -> Option<End> {
        match self {
            Place::Lead => None,
            Place::End(end) => Some(end),
        }
    }

    /// The place of a line move: the end, or the lead for `None`.
    #[must_use]
    pub const fn on_line(end: Option<End>) -> Place {
        match end {
            None => Place::Lead,
            Some(end) => Place::End(end),
        }
    }
}

impl From<End> for Place {
    fn from(end: End) -> Place {
        Place::End(end)
    }
}

/// As a sentence ends: "as the lead", "on the left end".
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Lead => f.write_str("as the lead"),
            Place::End(end) => write!(f, "on the {end} end"),
        }
    }
}
