//! Hand-made positions for the rule tests: a builder that puts the given
//! tiles in hands and on the table and every other tile in the boneyard.

#![allow(dead_code)]

pub mod house;
pub mod rounds;

use pips::rules::MatchDigest;
use pips::rules::presets::preset;
use pips::rules::{
    DrawRule, End, Event, Game, HandEnd, LayoutRule, Move, Placed, Report, Rules, ScoreReason,
    Setup, SpinnerAt, Tile, TileSet,
};

pub fn t(a: u8, b: u8) -> Tile {
    Tile::new(a, b)
}

pub fn rules(variant: &str, players: u8) -> Rules {
    preset(variant).expect("preset exists").rules(players, None)
}

/// A position in hand `hand_number` with the given hands and layout; every
/// other tile is in the boneyard, in index order.
pub struct Position {
    pub rules: Rules,
    pub players: u8,
    pub hands: Vec<Vec<Tile>>,
    pub lead: Option<Tile>,
    pub left: Vec<Placed>,
    pub right: Vec<Placed>,
    pub to_act: u8,
    /// The hand's leader, when not the seat to act.
    pub leader: Option<u8>,
    pub scores: Vec<i32>,
    pub hand_number: u32,
    pub required_lead: Option<Tile>,
    pub spinner: Option<SpinnerAt>,
    pub up: Vec<Placed>,
    pub down: Vec<Placed>,
}

impl Position {
    pub fn new(rules: Rules, players: u8, hands: Vec<Vec<Tile>>) -> Position {
        let sides = rules.sides(players);
        Position {
            rules,
            players,
            hands,
            lead: None,
            left: Vec::new(),
            right: Vec::new(),
            to_act: 0,
            leader: None,
            scores: vec![0; usize::from(sides)],
            hand_number: 2,
            required_lead: None,
            spinner: None,
            up: Vec::new(),
            down: Vec::new(),
        }
    }

    pub fn with_lead(mut self, lead: Tile) -> Position {
        self.lead = Some(lead);
        self
    }

    pub fn with_scores(mut self, scores: Vec<i32>) -> Position {
        self.scores = scores;
        self
    }

    pub fn game(self) -> Game {
        let used: TileSet = self
            .hands
            .iter()
            .flatten()
            .copied()
            .chain(self.lead)
            .chain(
                [&self.left, &self.right, &self.up, &self.down]
                    .into_iter()
                    .flatten()
                    .map(|p| p.tile()),
            )
            .collect();
        let setup = Setup {
            variant: "test".to_owned(),
            rules: self.rules,
            players: u32::from(self.players),
            seed: 1,
            hand_number: self.hand_number,
            hands: self.hands,
            boneyard: self.rules.tile_set().minus(used).iter().collect(),
            lead: self.lead,
            left: self.left,
            right: self.right,
            up: self.up,
            down: self.down,
            spinner: self.spinner,
            scores: self.scores,
            to_act: u32::from(self.to_act),
            hand_leader: u32::from(self.leader.unwrap_or(self.to_act)),
            required_lead: self.required_lead,
            drew_this_turn: false,
            outcome: None,
            history: Vec::new(),
            digest: MatchDigest::start(&self.rules, self.players, &1u64.to_le_bytes()),
            widow: None,
            table: None,
        };
        Game::from_setup(setup).expect("a valid position")
    }
}

pub fn points_of(events: &[Event]) -> Vec<(u8, i32, ScoreReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::PointsScored {
                side,
                points,
                reason,
                ..
            } => Some((*side, *points, *reason)),
            _ => None,
        })
        .collect()
}

pub fn hand_end(events: &[Event]) -> Option<(HandEnd, Option<u8>, Vec<i32>)> {
    events.iter().find_map(|e| match e {
        Event::HandEnded {
            end,
            winner,
            settlement,
            ..
        } => Some((*end, *winner, settlement.clone())),
        _ => None,
    })
}

/// Plays `moves` in order, each of which must be legal, and returns every
/// report.
pub fn play_all(game: &mut Game, moves: &[Move]) -> Vec<Report> {
    moves
        .iter()
        .map(|&mv| {
            let legal = game.legal_moves();
            assert!(legal.contains(&mv), "{mv} is not among {legal:?}");
            game.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"))
        })
        .collect()
}

/// `seat` places `tile` on `end`.
pub fn on(seat: u8, tile: Tile, end: End) -> Move {
    Move::play(seat, tile, Some(end))
}

/// `seat` leads `tile`.
pub fn lead(seat: u8, tile: Tile) -> Move {
    Move::play(seat, tile, None)
}

/// Every score change of `reports`, added up per side.
pub fn total_change(reports: &[Report]) -> Vec<i32> {
    let mut total = vec![0; reports.first().map_or(0, |r| r.score_change.len())];
    for report in reports {
        for (sum, change) in total.iter_mut().zip(&report.score_change) {
            *sum += change;
        }
    }
    total
}

/// Whether any of `reports` says the hand ended with `end`.
pub fn ended_with(reports: &[Report], end: HandEnd) -> bool {
    reports
        .iter()
        .any(|r| hand_end(&r.events).is_some_and(|(e, _, _)| e == end))
}

/// Two seats and no drawing (the undealt tiles are dead), 6-6 on the table
/// (the spinner, under spinner rules): seat 0 plays 6-5 on the left, after
/// which nobody shows a 5 or a 6, so the hand is blocked with seat 0
/// holding `seat0_rest` and seat 1 `seat1`.
pub fn blocked_after_six_five(
    variant: &str,
    seat0_rest: &[Tile],
    seat1: &[Tile],
) -> (Game, Report) {
    let mut rules = rules(variant, 2);
    rules.draw = DrawRule::None;
    let mut seat0 = vec![t(6, 5)];
    seat0.extend_from_slice(seat0_rest);
    let mut position = Position::new(rules, 2, vec![seat0, seat1.to_vec()]).with_lead(t(6, 6));
    if rules.layout != LayoutRule::TwoEnds {
        position.spinner = Some(SpinnerAt::Lead);
    }
    let mut game = position.game();
    let report = game.play(on(0, t(6, 5), End::Left)).expect("legal");
    (game, report)
}
