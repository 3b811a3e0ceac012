//! `Game`: one match in-process.

use numpy::{IntoPyArray, PyArray1};
use pips::bots::default_seed;
use pips::bots::{self, Budget, Level};
use pips::proto::{self, ErrorReason};
use pips::rules::presets::preset;
use pips::rules::{
    ActionSpace, ChanceError, Game, Move, ObservationShape, Outcome, PlayError, Report, Tile,
    TileSet,
};
use pips::service::codec::{encode_events, encode_rules, encode_view};
use pips::service::custody::{Authority, Custody, Source};
use pips::service::engine::{Engine, seat_view};
use pips::service::error::ApiError;
use pips::service::keys::StateKeys;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::actions;
use crate::errors::{Players, Refuse, Seed, refusal};
use crate::json;
use crate::moves::{PyMove, PyUpdate};

/// One match of dominoes, held in-process: deal it from a preset, list the
/// legal moves (or actions), play them, look at it as one seat sees it,
/// hand it to a pips server as a state or token and back.
#[pyclass(module = "pips._pips", name = "Game")]
pub struct PyGame {
    /// The match.
    game: Game,
    /// Its actions: moves as integers.
    space: ActionSpace,
    /// Its observations: what a seat sees as numbers.
    shape: ObservationShape,
    /// Legal moves, reused between calls (no allocation a step).
    moves: Vec<Move>,
}

impl PyGame {
    /// A game for Python.
    pub(crate) fn from_game(game: Game) -> PyGame {
        PyGame {
            space: ActionSpace::new(game.rules(), game.players()),
            shape: ObservationShape::new(game.rules(), game.players()),
            game,
            moves: Vec::new(),
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

/// The match the service's `NewGame` deals for `variant`, `players`,
/// `seed` (random when `None`) and house `rules` (the service's JSON
/// `Rules`, a dict or its text).
pub(crate) fn deal(
    variant: String,
    players: Option<Players>,
    seed: Option<u64>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Game> {
    let rules = rules
        .map(|value| json::from_python::<proto::Rules>(value, "rules"))
        .transpose()?;
    // (An unknown preset is refused by the engine, naming the known ones.)
    let players = players.map_or_else(
        || preset(&variant).map_or(2, |preset| u32::from(*preset.players.start())),
        |players| players.0,
    );
    let request = proto::NewGameRequest {
        variant,
        players,
        seed,
        rules,
        ..proto::NewGameRequest::default()
    };
    let (game, _events) = Engine::default().deal(&request).refused()?;
    Ok(game)
}

/// How states are kept under `state_key` (the server's `--state-key`
/// text: 64 hex digits, optionally a second key after a comma), or open.
fn custody(state_key: Option<&str>) -> PyResult<Custody> {
    let keys = state_key
        .map(StateKeys::from_text)
        .transpose()
        .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
    Ok(Custody::new(keys))
}

/// A game read from a state source, refused unless it has full authority
/// (an in-process game holds every hand).
fn read(custody: &Custody, source: Source<'_>) -> PyResult<PyGame> {
    let (game, authority) = custody.read(source).refused()?;
    if let Authority::Seat(seat) = authority {
        return Err(refusal(&ApiError {
            code: tonic::Code::PermissionDenied,
            reason: ErrorReason::SeatNotPermitted,
            field: "state_token".to_owned(),
            message: format!(
                "this token speaks for seat {seat} only; an in-process game needs the full state"
            ),
        }));
    }
    Ok(PyGame::from_game(game))
}

#[pymethods]
impl PyGame {
    /// Deals a new match of preset `variant` for `players` seats (absent:
    /// the fewest the preset seats, 4 at `texas42`, 3 at `moon`, else 2),
    /// as the service's `NewGame` does: `seed` (any 64-bit integer; random when
    /// `None`) deals every hand, `rules` overrides the preset's options
    /// (the service's JSON `Rules`, as a dict or text: house rules).
    ///
    /// Raises `pips.InvalidArgument` for an unknown preset, a player count
    /// it does not allow or rules that cannot be played.
    #[new]
    #[pyo3(signature = (variant, players = None, seed = None, rules = None))]
    #[pyo3(text_signature = "(variant, players=None, seed=None, rules=None)")]
    fn new(
        variant: String,
        players: Option<Players>,
        seed: Option<Seed>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyGame> {
        deal(variant, players, seed.map(|s| s.0), rules).map(PyGame::from_game)
    }

    /// Deals a new match of the same preset, seats and rules from `seed`,
    /// in place: what `Game(variant, players, seed, rules)` deals, without
    /// reading the rules again (a training loop's reset).
    fn restart(&mut self, seed: Seed) {
        self.game.restart(seed.0);
    }

    /// Reads a state in the service's JSON form (the `state` of an answer,
    /// as a dict or its text). Under `state_key` (the server's key) the
    /// state must carry the tag that server gave it.
    ///
    /// Raises `pips.InvalidArgument` (with the field at fault, e.g.
    /// `state.hands[1].tiles[0]`) for a state that is malformed or
    /// impossible.
    #[staticmethod]
    #[pyo3(signature = (state, state_key = None))]
    fn from_json(state: &Bound<'_, PyAny>, state_key: Option<&str>) -> PyResult<PyGame> {
        let wire: proto::GameState = json::from_python(state, "state")?;
        read(&custody(state_key)?, Source::State(&wire))
    }

    /// The state in the service's JSON form (text), which a pips server
    /// accepts as a request's `state`. Under `state_key` it is tagged and
    /// its seed sealed as that server's own states are.
    #[pyo3(signature = (state_key = None))]
    fn to_json(&self, state_key: Option<&str>) -> PyResult<String> {
        let state = custody(state_key)?.write_state(&self.game).refused()?;
        json::to_text(&state)
    }

    /// Reads a state token (a full-authority one: a seat token speaks for
    /// one seat and is refused). Without `state_key`, an open token; with
    /// it, one sealed by that key.
    #[staticmethod]
    #[pyo3(signature = (token, state_key = None))]
    fn from_token(token: &[u8], state_key: Option<&str>) -> PyResult<PyGame> {
        read(&custody(state_key)?, Source::Token(token))
    }

    /// The state as a token: open (a `PackedState`'s bytes) without
    /// `state_key`, sealed by it with one.
    #[pyo3(signature = (state_key = None))]
    fn to_token<'py>(
        &self,
        py: Python<'py>,
        state_key: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let token = custody(state_key)?
            .write_token(&self.game, Authority::Full)
            .refused()?;
        Ok(PyBytes::new(py, &token))
    }

    /// The preset the match was dealt from.
    #[getter]
    fn variant(&self) -> &str {
        self.game.variant()
    }

    /// The rules in force, in the service's JSON form.
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json::to_python(py, &encode_rules(self.game.rules()))
    }

    /// Seats.
    #[getter]
    fn players(&self) -> u8 {
        self.game.players()
    }

    /// Sides scoring (seats, or two partnerships).
    #[getter]
    fn sides(&self) -> u8 {
        self.game.sides()
    }

    /// The side of `seat`.
    fn side_of(&self, seat: u8) -> PyResult<u8> {
        self.check_seat(seat)?;
        Ok(self.game.side_of(seat))
    }

    /// The seed every hand is dealt from.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed()
    }

    /// The current hand (a round, at a train table), from 1.
    #[getter]
    fn hand_number(&self) -> u32 {
        self.game.hand_number()
    }

    /// The seat to act; `None` once the match is over (as the service
    /// leaves `toAct` out then).
    #[getter]
    fn to_act(&self) -> Option<u8> {
        self.game.outcome().is_none().then(|| self.game.to_act())
    }

    /// Points per side.
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.game.scores().to_vec()
    }

    /// Whether the match is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// The winning side once the match is over, `None` while it runs or
    /// when it ended drawn.
    #[getter]
    fn winner(&self) -> Option<u8> {
        match self.game.outcome() {
            Some(Outcome::Winner(side)) => Some(side),
            Some(Outcome::Draw) | None => None,
        }
    }

    /// The match digest: a hash chain over the rules, the seed and every
    /// move played (what the service answers as `match_digest`).
    #[getter]
    fn match_digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.game.digest().0)
    }

    /// The legal moves of the seat to act (none once the match is over).
    fn legal_moves(&mut self) -> Vec<PyMove> {
        self.game.legal_moves_into(&mut self.moves);
        self.moves.iter().copied().map(PyMove).collect()
    }

    /// Plays a move (a `Move`, or a move in the service's JSON form: a
    /// dict such as `{"bid": {"points": 30}}`, or its text; one without a
    /// `"seat"` is the seat to act's) and answers what it did.
    ///
    /// Raises `pips.IllegalMove` (with the reason, e.g.
    /// `ERROR_REASON_NOT_YOUR_TURN`) for a move that is not legal now and
    /// `pips.InvalidArgument` for one that is malformed (text that is not
    /// JSON is told what a move looks like).
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<PyUpdate> {
        let to_act = self.game.outcome().is_none().then(|| self.game.to_act());
        let mv = crate::moves::given_move(r#move, to_act)?;
        let Report {
            events,
            score_change,
        } = self.game.play(mv).refused()?;
        Ok(PyUpdate {
            events: json::to_python(py, &encode_events(&events, &self.game, None))?,
            score_change,
        })
    }

    /// How many actions there are (a fixed number per game): a placement
    /// is `tile_index * places + place`, then draw, pass and end-turn.
    #[getter]
    fn num_actions(&self) -> u32 {
        self.space.len()
    }

    /// Places per tile in the action space (5 at a line: lead, left,
    /// right, up, down; the seats' trains and the Mexican train; a new
    /// arm and each arm of a chicken foot; none at a trick game, which
    /// places no tile).
    #[getter]
    fn num_places(&self) -> u32 {
        self.space.places()
    }

    /// The legal moves of the seat to act as actions, ascending.
    fn legal_actions(&mut self) -> Vec<u32> {
        self.game.legal_moves_into(&mut self.moves);
        let mut actions: Vec<u32> = self
            .moves
            .iter()
            .filter_map(|&mv| self.space.encode(mv))
            .collect();
        actions.sort_unstable();
        actions
    }

    /// Plays the seat to act's move named by `action`: the fast step of a
    /// learning environment (no events are collected; the digest is kept).
    ///
    /// Raises `pips.InvalidArgument` for a number outside the action space
    /// and `pips.IllegalMove` for an action that is not legal now.
    fn apply_action(&mut self, action: &Bound<'_, PyInt>) -> PyResult<()> {
        let mv = self.action_move(action)?;
        self.game.apply(mv).refused()
    }

    /// The move of the seat to act that `action` names.
    ///
    /// Raises `pips.InvalidArgument` for a number outside the action space.
    fn action_to_move(&self, action: &Bound<'_, PyInt>) -> PyResult<PyMove> {
        self.action_move(action).map(PyMove)
    }

    /// The action of a move, `None` for a move this game cannot make.
    fn move_to_action(&self, r#move: PyRef<'_, PyMove>) -> Option<u32> {
        self.space.encode(r#move.0)
    }

    /// The length of an observation vector (fixed per game).
    #[getter]
    fn observation_size(&self) -> usize {
        self.shape.len()
    }

    /// What `seat` sees as numbers (a float32 vector of `observation_size`,
    /// computed from the seat's view alone: its hand, the table, what each
    /// other seat surely lacks, each place's number and state, hand sizes,
    /// the boneyard, scores, who is to act; at a trick game the played
    /// tiles, the trick, the auction, the contract and what each seat has
    /// won instead; seats counted from `seat`). The layout is documented in
    /// the README.
    ///
    /// Raises `pips.InvalidArgument` for a seat the game does not have.
    fn observation<'py>(&self, py: Python<'py>, seat: u32) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let view = seat_view(&self.game, seat, Authority::Full).refused()?;
        let mut out = vec![0.0; self.shape.len()];
        self.shape.observe(&view, &mut out);
        Ok(out.into_pyarray(py))
    }

    /// The legal actions as a mask: a bool vector of `num_actions`, true
    /// for each legal action of the seat to act.
    fn legal_action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.space.len() as usize];
        actions::write_mask(&self.game, &self.space, &mut self.moves, &mut mask);
        mask.into_pyarray(py)
    }

    /// `seat`'s tiles as `(high, low)` pairs: the full state, which an
    /// in-process game holds (a seat's own share is `view(seat)`).
    ///
    /// Raises `pips.InvalidArgument` for a seat the game does not have.
    fn hand(&self, seat: u8) -> PyResult<Vec<(u8, u8)>> {
        self.check_seat(seat)?;
        Ok(pairs(self.game.hand(seat)))
    }

    /// The boneyard's tiles as `(high, low)` pairs, in index order.
    #[getter]
    fn boneyard(&self) -> Vec<(u8, u8)> {
        pairs(self.game.boneyard().collect())
    }

    /// Whether the lowest score is best (penalty scores: the train games,
    /// some house rules).
    #[getter]
    fn lowest_score_wins(&self) -> bool {
        self.game.rules().lowest_score_wins()
    }

    /// Sets the current hand's deal before its first move (the deal as a
    /// chance outcome): `hands[seat]` is that seat's tiles as `(high, low)`
    /// pairs, as many as the rules deal it; the tiles left form the
    /// boneyard; where the deal decides the leader (the first hand, a
    /// forced lead) it is decided again. The match digest does not follow.
    ///
    /// Raises `pips.InvalidArgument` (reason
    /// `ERROR_REASON_INCONSISTENT_STATE`, field `hands[i]`) for a deal that
    /// cannot be, or once the hand has begun.
    fn redeal(&mut self, hands: Vec<Vec<(u8, u8)>>) -> PyResult<()> {
        let mut sets = Vec::with_capacity(hands.len());
        for (seat, hand) in hands.iter().enumerate() {
            let mut set = TileSet::EMPTY;
            for (i, &(a, b)) in hand.iter().enumerate() {
                let field = format!("hands[{seat}][{i}]");
                let tile = self.tile(a, b, &field)?;
                if set.contains(tile) {
                    let seat = u8::try_from(seat).unwrap_or(u8::MAX);
                    return Err(chance_refusal(
                        ChanceError::NotDealable { seat, tile },
                        field,
                    ));
                }
                set = set.with(tile);
            }
            sets.push(set);
        }
        self.game.redeal(&sets).map_err(|error| {
            let field = match error {
                ChanceError::Size { seat, .. } | ChanceError::NotDealable { seat, .. } => {
                    format!("hands[{seat}]")
                }
                _ => "hands".to_owned(),
            };
            chance_refusal(error, field)
        })
    }

    /// Makes `tile` (`(high, low)`) the boneyard's next draw (the drawn tile
    /// as a chance outcome).
    ///
    /// Raises `pips.InvalidArgument` for a tile the boneyard does not hold.
    fn arrange_next_draw(&mut self, tile: (u8, u8)) -> PyResult<()> {
        let tile = self.tile(tile.0, tile.1, "tile")?;
        self.game
            .arrange_next_draw(tile)
            .map_err(|error| chance_refusal(error, "tile".to_owned()))
    }

    /// A game that `seat` cannot tell from this one: the other hands and
    /// the boneyard replaced by a deal consistent with everything the seat
    /// has seen (its plays, passes and draws), drawn with `seed`
    /// (determinizing searches, OpenSpiel's `resample_from_infostate`).
    /// `None` in the rare case no consistent deal was found.
    ///
    /// Raises `pips.InvalidArgument` for a seat the game does not have.
    fn resample(&self, seat: u8, seed: Seed) -> PyResult<Option<PyGame>> {
        self.check_seat(seat)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed.0);
        Ok(self
            .game
            .view(seat)
            .and_then(|view| view.knowledge().sample(&mut rng))
            .map(PyGame::from_game))
    }

    /// What `seat` may see, as the service's `View` answers it (a dict:
    /// its hand, the table, the scores, the others' hand sizes, the hand's
    /// public history, its legal moves when it is to act).
    ///
    /// Raises `pips.InvalidArgument` for a seat the game does not have.
    fn view(&self, py: Python<'_>, seat: u32) -> PyResult<Py<PyAny>> {
        let view = seat_view(&self.game, seat, Authority::Full).refused()?;
        json::to_python(py, &encode_view(view))
    }

    /// The move a built-in bot suggests for the seat to act: `level` is
    /// `"random"`, `"greedy"` or `"expert"` (`"expert-flat"`: expert
    /// without its tree search; `"expert-playouts"`: without any of its
    /// refinements; `"expert-solved"` and `"expert-unsolved"`: with exact
    /// endings at every trick game and line, and at none); `playouts` is
    /// expert's budget (default:
    /// the service's); `seed` makes it reproducible (default: from the
    /// match digest and the seat, as the service's `SuggestMove`). The bot
    /// sees only that seat's view. The GIL is released while it searches.
    ///
    /// Raises `pips.IllegalMove` once the match is over and `ValueError`
    /// for an unknown level.
    #[pyo3(signature = (level = "expert", playouts = None, seed = None))]
    fn suggest(
        &self,
        py: Python<'_>,
        level: &str,
        playouts: Option<u32>,
        seed: Option<Seed>,
    ) -> PyResult<PyMove> {
        let seed = seed.map(|s| s.0);
        let level = Level::from_name(level).ok_or_else(|| {
            let known: Vec<&str> = Level::NAMES.iter().map(|(name, _)| *name).collect();
            pyo3::exceptions::PyValueError::new_err(format!(
                "{level:?} is not a level: {}",
                known.join(", ")
            ))
        })?;
        if self.game.outcome().is_some() {
            return Err(refusal(&ApiError::from(PlayError::MatchOver)));
        }
        let seat = self.game.to_act();
        let seed = seed.unwrap_or_else(|| default_seed(&self.game, seat));
        let playouts = playouts.unwrap_or_else(|| bots::default_playouts(self.game.rules()));
        let game = &self.game;
        let suggestion = py.detach(|| {
            let view = game.view(seat)?;
            let never = || false;
            let budget = Budget {
                playouts,
                stop: &never,
            };
            bots::suggest(view, level, seed, budget)
        });
        suggestion.map(|s| PyMove(s.mv)).ok_or_else(|| {
            refusal(&ApiError::invalid(
                ErrorReason::NotYourTurn,
                "seat",
                "the seat to act has no move",
            ))
        })
    }

    /// A copy, independent of this game.
    fn clone(&self) -> PyGame {
        PyGame::from_game(self.game.clone())
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|other| other.borrow().game == self.game)
    }

    fn __repr__(&self) -> String {
        format!(
            "<pips.Game {} players={} seed={} hand={} to_act={} scores={:?}{}>",
            self.game.variant(),
            self.game.players(),
            self.game.seed(),
            self.game.hand_number(),
            self.game.to_act(),
            self.game.scores(),
            if self.game.outcome().is_some() {
                " over"
            } else {
                ""
            }
        )
    }
}

impl PyGame {
    /// Refuses a seat the game does not have, as the service does.
    fn check_seat(&self, seat: u8) -> PyResult<()> {
        seat_view(&self.game, u32::from(seat), Authority::Full)
            .map(|_| ())
            .refused()
    }

    /// The tile `a`-`b` of this game's set, refused (at `field`) past it.
    fn tile(&self, a: u8, b: u8, field: &str) -> PyResult<Tile> {
        let max = self.game.rules().max_pip;
        if a > max || b > max {
            return Err(refusal(&ApiError::invalid(
                ErrorReason::InvalidTile,
                field,
                format!("{a}-{b} is not a tile of the double-{max} set"),
            )));
        }
        Ok(Tile::new(a, b))
    }

    /// The move of the seat to act that `action` names, refused past the
    /// space.
    fn action_move(&self, action: &Bound<'_, PyInt>) -> PyResult<Move> {
        actions::decode(
            &self.space,
            self.game.to_act(),
            action.extract::<u32>().ok(),
            action,
            || "action".to_owned(),
        )
        .map_err(|error| refusal(&error))
    }
}

/// A set's tiles as `(high, low)` pairs, in index order.
fn pairs(tiles: TileSet) -> Vec<(u8, u8)> {
    tiles.iter().map(|t| (t.high(), t.low())).collect()
}

/// A chance outcome refused, at `field`.
fn chance_refusal(error: ChanceError, field: String) -> PyErr {
    refusal(&ApiError::invalid(
        ErrorReason::InconsistentState,
        field,
        error.to_string(),
    ))
}
