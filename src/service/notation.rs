//! A whole match as text a person reads and writes (docs/notation.md):
//! header lines naming the preset, the seats, the seed and any house
//! rules, then each hand's moves, one token a move
//! ([`crate::rules::notation`]):
//!
//! ```text
//! [Preset "muggins"]
//! [Seats "2"]
//! [Seed "42"]
//! [Rules {"target": 100}]
//! 1: 6-6 6-5R 5-5L draw pass 5-1R …
//! 2: …
//! ```
//!
//! Reading one deals the match from its header and plays every token as
//! the seat to act's move, checked, so a record read is a legal match.

use crate::proto;
use crate::rules::notation::{parse_token, token};
use crate::rules::presets::preset;
use crate::rules::{Game, Move};

use super::codec::encode_rules;
use super::error::{ApiError, QUOTE_CHARS, clip, quote};

/// Longest notation read, in bytes (a long match of a train table is
/// about 40 kB).
pub const MAX_NOTATION_BYTES: usize = 1 << 20;

/// Why a text is not a match's notation: where and what.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct NotationError {
    /// The line at fault (1-based; 0 for the text as a whole).
    pub line: usize,
    /// What is wrong, in words a person can act on.
    pub message: String,
}

/// A match read from its notation: its first state and its moves.
#[derive(Clone, Debug)]
pub struct Notated {
    /// The match as dealt, before any move.
    pub first: Game,
    /// Every move, in order, with its seat.
    pub moves: Vec<Move>,
    /// The match after them.
    pub last: Game,
}

/// The notation of the match dealt as `first` from `seed` (the seed its
/// `NewGame` was given: on a server without a state key, `first.seed()`)
/// and played with `moves`. The house rules written are the options that
/// differ from the preset's defaults for the seats (and partnerships)
/// played.
///
/// # Errors
/// A match a reader could not deal again: of no preset (a label of its
/// own), or of a seat count its preset is not dealt for.
pub fn write(first: &Game, seed: u64, moves: &[Move]) -> Result<String, NotationError> {
    let variant = first.variant();
    let preset = preset(variant).ok_or_else(|| NotationError {
        line: 0,
        message: format!(
            "{variant:?} is no preset: its match cannot be written so as to be dealt again"
        ),
    })?;
    let players = first.players();
    if !preset.players.contains(&players) {
        return Err(NotationError {
            line: 0,
            message: format!(
                "{players} seats: {variant} is dealt for {} to {}, so a match of {players} cannot be dealt again",
                preset.players.start(),
                preset.players.end()
            ),
        });
    }
    let rules = encode_rules(first.rules());
    // (The defaults that depend on partnerships follow it, as at NewGame:
    // the options are compared with those of the partnerships played, and
    // partnerships itself with the preset's own.)
    let base = encode_rules(&preset.rules(players, rules.partnerships));
    let base = proto::Rules {
        partnerships: encode_rules(&preset.rules(players, None)).partnerships,
        ..base
    };
    let mut text = format!("[Preset \"{variant}\"]\n[Seats \"{players}\"]\n[Seed \"{seed}\"]\n");
    if let Some(house) = house_rules(&rules, &base) {
        text.push_str(&format!("[Rules {house}]\n"));
    }
    let mut game = first.clone();
    let numbered = moves.iter().map(|&mv| {
        let hand = game.hand_number();
        // (A move that does not play is written as it was: reading it
        // back refuses it, naming it.)
        let _ = game.play(mv);
        (hand, mv)
    });
    write_moves(&mut text, numbered);
    Ok(text)
}

/// The moves written after the header, each hand's on a line of its own
/// that starts with its number: each move with the hand it is made in.
fn write_moves(text: &mut String, moves: impl IntoIterator<Item = (u32, Move)>) {
    let mut hand = 0;
    for (number, mv) in moves {
        if number != hand {
            hand = number;
            if hand > 1 {
                text.push('\n');
            }
            text.push_str(&format!("{hand}:"));
        }
        text.push_str(&format!(" {}", token(mv.action)));
    }
    if hand > 0 {
        text.push('\n');
    }
}

/// The notation of a match whose moves were played and numbered already
/// (each with the hand it was made in, as a replay knows them), if this
/// server deals `first` again from its own seed: its header read back
/// through `deal` (the engine's `NewGame`) gives `first` exactly. Empty
/// otherwise: a match of no preset, or dealt from a seed this server does
/// not deal from as given (a server with a state key seals its seeds; a
/// state made by hand).
#[must_use]
pub fn write_if_dealt(
    first: &Game,
    moves: impl IntoIterator<Item = (u32, Move)>,
    deal: impl FnOnce(&proto::NewGameRequest) -> Result<Game, ApiError>,
) -> String {
    let Ok(mut text) = write(first, first.seed(), &[]) else {
        return String::new();
    };
    match read(&text, deal) {
        Ok(notated) if notated.first == *first => {
            write_moves(&mut text, moves);
            text
        }
        _ => String::new(),
    }
}

/// The options of `rules` that differ from `base`'s, as a JSON object;
/// `None` when none do.
fn house_rules(rules: &proto::Rules, base: &proto::Rules) -> Option<String> {
    let (Ok(serde_json::Value::Object(given)), Ok(serde_json::Value::Object(default))) =
        (serde_json::to_value(rules), serde_json::to_value(base))
    else {
        return None;
    };
    let differ: serde_json::Map<_, _> = given
        .into_iter()
        .filter(|(key, value)| default.get(key) != Some(value))
        .collect();
    (!differ.is_empty()).then(|| serde_json::Value::Object(differ).to_string())
}

/// A hand's moves as written: where its number stands, the number, and
/// each token with its line.
struct HandLine<'a> {
    /// The line of its number.
    line: usize,
    /// The hand's number.
    hand: u32,
    /// Its tokens, each with the line it is on.
    tokens: Vec<(usize, &'a str)>,
}

/// The match `text` records: dealt from its header by `deal` (the
/// engine's `NewGame`: [`Engine::deal`](super::engine::Engine::deal)),
/// every token played.
///
/// # Errors
/// [`NotationError`] naming the line: a header missing or malformed, a
/// preset, seat count or house rule refused, a token that is no move, a
/// move that is not legal when it is played, or a hand numbered otherwise
/// than the match reaches it.
pub fn read(
    text: &str,
    deal: impl FnOnce(&proto::NewGameRequest) -> Result<Game, ApiError>,
) -> Result<Notated, NotationError> {
    if text.len() > MAX_NOTATION_BYTES {
        return Err(NotationError {
            line: 0,
            message: format!("the notation is over {MAX_NOTATION_BYTES} bytes"),
        });
    }
    let at = |line: usize, message: String| NotationError { line, message };
    let (mut variant, mut players, mut seed, mut house) = (None, None, None, None);
    let mut hands: Vec<HandLine<'_>> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        if let Some(header) = content.strip_prefix('[') {
            if !hands.is_empty() {
                return Err(at(line, "a header comes before the moves".to_owned()));
            }
            let header = header
                .strip_suffix(']')
                .ok_or_else(|| at(line, "a header ends with ]".to_owned()))?;
            let (key, value) = header.split_once(' ').unwrap_or((header, ""));
            let unquoted = || {
                let key = clip(key, QUOTE_CHARS);
                at(
                    line,
                    format!("{key}'s value is a quoted text, such as [{key} \"…\"]"),
                )
            };
            let value: serde_json::Value =
                serde_json::from_str(value.trim()).map_err(|_| unquoted())?;
            let text_value = || value.as_str().map(str::to_owned).ok_or_else(unquoted);
            match key {
                "Preset" => variant = Some((line, text_value()?)),
                "Seats" => players = Some((line, text_value()?)),
                "Seed" => seed = Some((line, text_value()?)),
                "Rules" => house = Some((line, value)),
                // (Headers of a reader's own are kept out of the match.)
                _ => {}
            }
            continue;
        }
        let (numbered, rest) = match content.split_once(':') {
            Some((number, rest)) if number.trim().bytes().all(|b| b.is_ascii_digit()) => {
                let hand = number
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| at(line, format!("hand {} is out of range", number.trim())))?;
                (Some(hand), rest)
            }
            _ => (None, content),
        };
        match (numbered, hands.last_mut()) {
            (Some(hand), _) => hands.push(HandLine {
                line,
                hand,
                tokens: Vec::new(),
            }),
            (None, None) => {
                return Err(at(
                    line,
                    "the moves start with a hand's number, such as `1: 6-6 6-5R`".to_owned(),
                ));
            }
            (None, Some(_)) => {}
        }
        if let Some(last) = hands.last_mut() {
            last.tokens
                .extend(rest.split_whitespace().map(|t| (line, t)));
        }
    }
    let first = deal_header(variant, players, seed, house, deal)?;
    let mut game = first.clone();
    let mut moves = Vec::new();
    let kind = game.rules().table;
    for HandLine { line, hand, tokens } in hands {
        if game.hand_number() != hand || game.outcome().is_some() {
            return Err(at(
                line,
                if game.outcome().is_some() {
                    format!("hand {hand}: the match is over")
                } else {
                    format!("hand {hand}: the match is at hand {}", game.hand_number())
                },
            ));
        }
        for (line, text) in tokens {
            let action = parse_token(text, kind).map_err(|e| at(line, e.to_string()))?;
            if game.outcome().is_some() {
                return Err(at(line, format!("{text}: the match is over")));
            }
            if game.hand_number() != hand {
                return Err(at(
                    line,
                    format!("{text}: hand {hand} is over; its moves end before it"),
                ));
            }
            let mv = Move {
                seat: game.to_act(),
                action,
            };
            game.play(mv)
                .map_err(|e| at(line, format!("{text}: {e}")))?;
            moves.push(mv);
        }
    }
    Ok(Notated {
        first,
        moves,
        last: game,
    })
}

/// The match the header names, dealt by `deal` as `NewGame` deals it:
/// the preset, the seats, the seed and the house rules.
fn deal_header(
    variant: Option<(usize, String)>,
    players: Option<(usize, String)>,
    seed: Option<(usize, String)>,
    house: Option<(usize, serde_json::Value)>,
    deal: impl FnOnce(&proto::NewGameRequest) -> Result<Game, ApiError>,
) -> Result<Game, NotationError> {
    let missing = |key: &str, example: &str| NotationError {
        line: 0,
        message: format!("the header names no {key}: add [{key} {example}]"),
    };
    let (variant_line, variant) = variant.ok_or_else(|| missing("Preset", "\"muggins\""))?;
    let (seats_line, seats) = players.ok_or_else(|| missing("Seats", "\"2\""))?;
    let (seed_line, seed_text) = seed.ok_or_else(|| missing("Seed", "\"42\""))?;
    let players = seats.parse::<u32>().map_err(|_| NotationError {
        line: seats_line,
        message: format!(
            "{:?} seats: the seat count is a whole number",
            quote(&seats)
        ),
    })?;
    let seed = seed_text.parse::<u64>().map_err(|_| NotationError {
        line: seed_line,
        message: format!(
            "seed {} is not a whole number from 0 to 2^64 − 1",
            quote(&seed_text)
        ),
    })?;
    let (rules_line, rules) = match house {
        Some((line, value)) => {
            let rules: proto::Rules = serde_json::from_value(value).map_err(|e| NotationError {
                line,
                message: format!("the house rules are not the API's JSON Rules: {e}"),
            })?;
            (line, Some(rules))
        }
        None => (0, None),
    };
    let request = proto::NewGameRequest {
        variant,
        players,
        seed: Some(seed),
        rules,
        ..proto::NewGameRequest::default()
    };
    deal(&request).map_err(|error| NotationError {
        // The header line of the part refused.
        line: match error.field.split('.').next().unwrap_or_default() {
            "variant" => variant_line,
            "players" => seats_line,
            "seed" => seed_line,
            _ => rules_line,
        },
        message: if error.field.is_empty() {
            error.message
        } else {
            format!("{}: {}", error.field, error.message)
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::engine::Engine;

    /// `read` with an open server's deal.
    fn read_open(text: &str) -> Result<Notated, NotationError> {
        read(text, |request| {
            Engine::default().deal(request).map(|(game, _)| game)
        })
    }

    fn muggins() -> Game {
        let rules = preset("muggins").expect("muggins").rules(2, None);
        Game::new("muggins", rules, 2, 42).expect("deals").0
    }

    #[test]
    fn a_match_reads_back_to_the_same_moves_and_digest() {
        let first = muggins();
        let mut game = first.clone();
        let mut moves = Vec::new();
        while game.outcome().is_none() {
            let mv = game.legal_moves()[0];
            game.play(mv).expect("legal");
            moves.push(mv);
        }
        let text = write(&first, first.seed(), &moves).expect("written");
        assert!(text.starts_with("[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"42\"]\n1: "));
        let read = read_open(&text).expect("read");
        assert_eq!(read.moves, moves);
        assert_eq!(read.last, game);
        assert_eq!(read.last.digest(), game.digest());
    }

    /// Every combination of the trick games' options the rules accept:
    /// a match of each, cut at 300 moves, reads back to the same digest.
    #[test]
    fn every_trick_option_combination_round_trips() {
        use crate::rules::Rules;
        use crate::rules::tricks::random_matches::every_combination;
        let combinations = every_combination();
        for (i, &(options, target)) in combinations.iter().enumerate() {
            let (variant, players) = if options.is_moon() {
                ("moon", 3)
            } else {
                ("texas42", 4)
            };
            let rules = Rules::tricks(options, target);
            let (first, _) = Game::new(variant, rules, players, i as u64).expect("deals");
            let mut game = first.clone();
            let mut moves = Vec::new();
            while game.outcome().is_none() && moves.len() < 300 {
                let legal = game.legal_moves();
                let mv = legal[(i + moves.len() * 7) % legal.len()];
                game.play(mv).expect("legal");
                moves.push(mv);
            }
            let text = write(&first, first.seed(), &moves).expect("written");
            let read = read_open(&text).unwrap_or_else(|e| panic!("{options:?}: {e}\n{text}"));
            assert_eq!(read.last.digest(), game.digest(), "{options:?}\n{text}");
        }
        assert!(combinations.len() > 300);
    }

    #[test]
    fn faults_are_refused_naming_the_line() {
        let cases = [
            ("[Seats \"2\"]\n[Seed \"1\"]\n", 0, "no Preset"),
            (
                "[Preset \"nope\"]\n[Seats \"2\"]\n[Seed \"1\"]\n",
                1,
                "no preset",
            ),
            (
                "[Preset \"muggins\"]\n[Seats \"9\"]\n[Seed \"1\"]\n",
                2,
                "played by 2 to 4",
            ),
            (
                "[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"x\"]\n",
                3,
                "whole number",
            ),
            (
                "[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"1\"]\n[Rules {\"target\": \"x\"}]\n",
                4,
                "house rules",
            ),
            (
                "[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"1\"]\n6-6\n",
                4,
                "hand's number",
            ),
            (
                "[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"1\"]\n2: pass\n",
                4,
                "at hand 1",
            ),
            (
                "[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"1\"]\n1: 6-4@2\n",
                4,
                "not a move",
            ),
            (
                "[Preset \"muggins\"]\n[Seats \"2\"]\n[Seed \"1\"]\n1:\n  pass\n",
                5,
                "pass",
            ),
        ];
        for (text, line, words) in cases {
            let error = read_open(text).expect_err(text);
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.message.contains(words), "{text}: {error}");
        }
    }
}
