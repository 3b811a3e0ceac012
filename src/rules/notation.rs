//! A move as a token a person reads and writes (docs/notation.md): the
//! tile and where it goes (`6-4L`, `6-4@2`, `6-4^3`), `draw`, `pass`,
//! `end`, a bid (`30`, `2m`, `plunge4`, `splash2`, `5t`, `moon`), a
//! contract (`trumps:6`, `doubles`, `follow-me`, `nello`, `sevens`), a
//! discard (`discard:6-4`) and a tile played to a trick (`6-4`). A token
//! names no seat: a move is always the seat to act's.

use std::fmt;

use super::end::End;
use super::events::Event;
use super::foot::FootPlace;
use super::moves::Action;
use super::options::TableKind;
use super::place::{Place, PlaceKind};
use super::tile::Tile;
use super::trains::TrainId;
use super::tricks::auction::Bid;
use super::tricks::contract::Contract;

/// Longest token read (a longer one is refused unread).
const MAX_TOKEN: usize = 16;

/// A token that names no move of a table.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{token:?} is not a move{}: {what}", at_table(*table))]
pub struct TokenError {
    /// The token, cut short.
    pub token: String,
    /// The kind of table it was read for.
    pub table: TableKind,
    /// What a move looks like there.
    pub what: &'static str,
}

/// " at a line", and so on, for an error.
fn at_table(table: TableKind) -> &'static str {
    match table {
        TableKind::Line => " at a line",
        TableKind::Trains => " at a train table",
        TableKind::ChickenFoot => " at a chicken foot",
        TableKind::Tricks => " at a trick game",
    }
}

/// What a move looks like at `table`, for an error.
const fn moves_at(table: TableKind) -> &'static str {
    match table {
        TableKind::Line => "a tile and its end (6-6 leads, 6-4L, 6-4R, 6-4U, 6-4D), draw or pass",
        TableKind::Trains => {
            "a tile and its train (6-4@2 on seat 2's, 6-4@M on the Mexican train, 12-12 for the hub), draw, pass or end"
        }
        TableKind::ChickenFoot => {
            "a tile and its place (6-4^new starts an arm, 6-4^3 goes on arm 3, 9-9 for the hub), draw, pass or end"
        }
        TableKind::Tricks => {
            "a bid (30, 2m, plunge4, splash2, 5t, moon), pass, a contract (trumps:6, doubles, follow-me, nello, sevens), discard:6-4, or a tile to the trick (6-4)"
        }
    }
}

/// A move's token.
#[must_use]
pub fn token(action: Action) -> Token {
    Token(action)
}

/// The move an event reports, for the events a move makes (a tile placed
/// or played to the trick, a draw, a pass, a chain ended, a bid, a
/// contract named, a discard): what its token writes. `None` for the
/// others, and for a discard whose tile the viewer may not see.
#[must_use]
pub fn action_of(event: &Event) -> Option<Action> {
    Some(match *event {
        Event::TilePlayed { tile, place, .. } => Action::Play { tile, place },
        Event::TileDrawn { .. } => Action::Draw,
        Event::Passed { .. } => Action::Pass,
        Event::TurnEnded { .. } => Action::EndTurn,
        Event::BidMade { bid, .. } => Action::Bid(bid),
        Event::ContractNamed { contract, .. } => Action::Name(contract),
        Event::Discarded { tile, .. } => Action::Discard(tile?),
        Event::TrickPlayed { tile, .. } => Action::Trick(tile),
        _ => return None,
    })
}

/// A move written as its token (`Display`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Token(Action);

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Action::Play { tile, place } => {
                write!(f, "{tile}")?;
                match place.kind() {
                    PlaceKind::Lead => Ok(()),
                    PlaceKind::End(end) => f.write_str(match end {
                        End::Left => "L",
                        End::Right => "R",
                        End::Up => "U",
                        End::Down => "D",
                    }),
                    PlaceKind::Train(TrainId::Seat(seat)) => write!(f, "@{seat}"),
                    PlaceKind::Train(TrainId::Mexican) => f.write_str("@M"),
                    PlaceKind::Foot(FootPlace::NewArm) => f.write_str("^new"),
                    PlaceKind::Foot(FootPlace::Arm(arm)) => write!(f, "^{arm}"),
                }
            }
            Action::Draw => f.write_str("draw"),
            Action::Pass => f.write_str("pass"),
            Action::EndTurn => f.write_str("end"),
            Action::Bid(bid) => match bid {
                Bid::Points(points) => write!(f, "{points}"),
                Bid::Marks(marks) => write!(f, "{marks}m"),
                Bid::Plunge(marks) => write!(f, "plunge{marks}"),
                Bid::Splash(marks) => write!(f, "splash{marks}"),
                Bid::Tricks(tricks) => write!(f, "{tricks}t"),
                Bid::Moon => f.write_str("moon"),
            },
            Action::Name(contract) => match contract {
                Contract::Trumps(number) => write!(f, "trumps:{number}"),
                Contract::Doubles => f.write_str("doubles"),
                Contract::FollowMe => f.write_str("follow-me"),
                Contract::Nello => f.write_str("nello"),
                Contract::Sevens => f.write_str("sevens"),
            },
            Action::Discard(tile) => write!(f, "discard:{tile}"),
            Action::Trick(tile) => write!(f, "{tile}"),
        }
    }
}

/// A tile written `a-b` (either half first), each half 0 to 18.
fn read_tile(text: &str) -> Option<Tile> {
    let (a, b) = text.split_once('-')?;
    let half = |t: &str| {
        t.parse::<u8>()
            .ok()
            .filter(|&h| h <= 18 && !t.starts_with('+'))
    };
    Some(Tile::new(half(a)?, half(b)?))
}

/// A number written in decimal digits alone.
fn number(text: &str) -> Option<u8> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The move `text` names at a table of `kind`. A token is read as written
/// (its legality is the rules' to judge when it is played).
///
/// # Errors
/// [`TokenError`] for a token that names no move there.
pub fn parse_token(text: &str, kind: TableKind) -> Result<Action, TokenError> {
    let refuse = || TokenError {
        token: text.chars().take(MAX_TOKEN).collect(),
        table: kind,
        what: moves_at(kind),
    };
    if text.len() > MAX_TOKEN {
        return Err(refuse());
    }
    let action = match text {
        "draw" if kind != TableKind::Tricks => Some(Action::Draw),
        "pass" => Some(Action::Pass),
        "end" if kind.has_hub() => Some(Action::EndTurn),
        _ => match kind {
            TableKind::Tricks => trick_action(text),
            _ => placement(text, kind),
        },
    };
    action.ok_or_else(refuse)
}

/// A trick game's move: a bid, a contract, a discard or a tile.
fn trick_action(text: &str) -> Option<Action> {
    if let Some(tile) = read_tile(text) {
        return Some(Action::Trick(tile));
    }
    if let Some(rest) = text.strip_prefix("discard:") {
        return read_tile(rest).map(Action::Discard);
    }
    if let Some(rest) = text.strip_prefix("trumps:") {
        return number(rest)
            .filter(|&n| n <= 6)
            .map(|n| Action::Name(Contract::Trumps(n)));
    }
    let bid = match text {
        "doubles" => return Some(Action::Name(Contract::Doubles)),
        "follow-me" => return Some(Action::Name(Contract::FollowMe)),
        "nello" => return Some(Action::Name(Contract::Nello)),
        "sevens" => return Some(Action::Name(Contract::Sevens)),
        "moon" => Bid::Moon,
        _ => {
            if let Some(n) = text.strip_prefix("plunge").and_then(number) {
                Bid::Plunge(n)
            } else if let Some(n) = text.strip_prefix("splash").and_then(number) {
                Bid::Splash(n)
            } else if let Some(n) = text.strip_suffix('m').and_then(number) {
                Bid::Marks(n)
            } else if let Some(n) = text.strip_suffix('t').and_then(number) {
                Bid::Tricks(n)
            } else {
                Bid::Points(number(text)?)
            }
        }
    };
    Some(Action::Bid(bid))
}

/// A placement at a line, a train table or a chicken foot.
fn placement(text: &str, kind: TableKind) -> Option<Action> {
    let split = text.find(['L', 'R', 'U', 'D', '@', '^']);
    let (tile, rest) = match split {
        Some(at) => (text.get(..at)?, text.get(at..)?),
        None => (text, ""),
    };
    let tile = read_tile(tile)?;
    let place = match (kind, rest) {
        (_, "") => Place::LEAD,
        (TableKind::Line, "L") => Place::at_end(End::Left),
        (TableKind::Line, "R") => Place::at_end(End::Right),
        (TableKind::Line, "U") => Place::at_end(End::Up),
        (TableKind::Line, "D") => Place::at_end(End::Down),
        (TableKind::Trains, "@M") => Place::on_train(TrainId::Mexican),
        (TableKind::Trains, train) => {
            Place::on_train(TrainId::Seat(number(train.strip_prefix('@')?)?))
        }
        (TableKind::ChickenFoot, "^new") => Place::at_foot(FootPlace::NewArm),
        (TableKind::ChickenFoot, arm) => {
            Place::at_foot(FootPlace::Arm(number(arm.strip_prefix('^')?)?))
        }
        _ => return None,
    };
    Some(Action::Play { tile, place })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_move_reads_back_from_its_token() {
        let t = Tile::new(6, 4);
        let cases = [
            (
                TableKind::Line,
                Action::Play {
                    tile: Tile::new(6, 6),
                    place: Place::LEAD,
                },
                "6-6",
            ),
            (
                TableKind::Line,
                Action::Play {
                    tile: t,
                    place: Place::at_end(End::Left),
                },
                "6-4L",
            ),
            (
                TableKind::Line,
                Action::Play {
                    tile: t,
                    place: Place::at_end(End::Down),
                },
                "6-4D",
            ),
            (TableKind::Line, Action::Draw, "draw"),
            (TableKind::Line, Action::Pass, "pass"),
            (
                TableKind::Trains,
                Action::Play {
                    tile: t,
                    place: Place::on_train(TrainId::Seat(2)),
                },
                "6-4@2",
            ),
            (
                TableKind::Trains,
                Action::Play {
                    tile: t,
                    place: Place::on_train(TrainId::Mexican),
                },
                "6-4@M",
            ),
            (TableKind::Trains, Action::EndTurn, "end"),
            (
                TableKind::ChickenFoot,
                Action::Play {
                    tile: t,
                    place: Place::at_foot(FootPlace::NewArm),
                },
                "6-4^new",
            ),
            (
                TableKind::ChickenFoot,
                Action::Play {
                    tile: t,
                    place: Place::at_foot(FootPlace::Arm(3)),
                },
                "6-4^3",
            ),
            (TableKind::Tricks, Action::Bid(Bid::Points(30)), "30"),
            (TableKind::Tricks, Action::Bid(Bid::Marks(2)), "2m"),
            (TableKind::Tricks, Action::Bid(Bid::Plunge(4)), "plunge4"),
            (TableKind::Tricks, Action::Bid(Bid::Splash(2)), "splash2"),
            (TableKind::Tricks, Action::Bid(Bid::Tricks(5)), "5t"),
            (TableKind::Tricks, Action::Bid(Bid::Moon), "moon"),
            (TableKind::Tricks, Action::Pass, "pass"),
            (
                TableKind::Tricks,
                Action::Name(Contract::Trumps(0)),
                "trumps:0",
            ),
            (
                TableKind::Tricks,
                Action::Name(Contract::FollowMe),
                "follow-me",
            ),
            (TableKind::Tricks, Action::Name(Contract::Sevens), "sevens"),
            (TableKind::Tricks, Action::Discard(t), "discard:6-4"),
            (TableKind::Tricks, Action::Trick(t), "6-4"),
        ];
        for (kind, action, text) in cases {
            assert_eq!(token(action).to_string(), text);
            assert_eq!(parse_token(text, kind), Ok(action), "{text}");
        }
        // Either half first.
        assert_eq!(
            parse_token("4-6R", TableKind::Line),
            parse_token("6-4R", TableKind::Line)
        );
    }

    #[test]
    fn what_is_no_move_there_is_refused_saying_what_a_move_is() {
        for (text, kind) in [
            ("6-4@2", TableKind::Line),
            ("6-4L", TableKind::Tricks),
            ("draw", TableKind::Tricks),
            ("end", TableKind::Line),
            ("trumps:7", TableKind::Tricks),
            ("6-", TableKind::Line),
            ("19-1", TableKind::Line),
            ("+6-4", TableKind::Line),
            ("bid", TableKind::Tricks),
            ("6-4@", TableKind::Trains),
            ("a-very-long-token-indeed", TableKind::Line),
        ] {
            let error = parse_token(text, kind).expect_err(text);
            assert!(error.to_string().contains("is not a move"), "{error}");
            assert!(error.token.len() <= MAX_TOKEN);
        }
    }
}
