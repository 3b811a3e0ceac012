//! `Batch`: many matches stepped in one call, for training loops.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pips::proto::ErrorReason;
use pips::rules::deal::MAX_SEATS;
use pips::rules::{ActionSpace, End, Game, MatchDigest, Move, ObservationShape, PlayError, Setup};
use pips::service::error::ApiError;
use pyo3::prelude::*;

use crate::actions;
use crate::errors::{Players, Seed, Size, refusal};
use crate::rewards::{match_result, zero_sum};

/// What one call answers: observations, masks, rewards and done flags.
type Answer<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// `size` matches of one preset stepped together: `step(actions)` plays
/// one action in each (for its seat to act), answers every game's
/// observation of its seat to act, its legal-action mask, each seat's
/// reward and whether its match ended, and deals a finished match's
/// successor in the same call. The GIL is released while the rules work.
///
/// Game `i` is dealt from seed `seed + i`; each new match takes the next
/// unused seed, in game order, so a batch is reproducible from its seed
/// and its actions.
#[pyclass(module = "pips._pips", name = "Batch")]
pub struct PyBatch {
    /// The matches.
    games: Vec<Game>,
    /// The seed the next new match is dealt from.
    next_seed: u64,
    /// The scores each game's current hand began with (seats' sides, in
    /// rows of `sides`).
    hand_scores: Vec<i32>,
    /// Sides of a match.
    sides: usize,
    /// Actions: moves as integers.
    space: ActionSpace,
    /// Observations: what a seat sees as numbers.
    shape: ObservationShape,
    /// Rewards at the end of the match only (else at each hand's end).
    reward_match: bool,
    /// Whether `step` and `reset` answer observations (else zero-width).
    observe: bool,
    /// Legal moves, reused.
    moves: Vec<Move>,
    /// Each game's seat to act, as last described (what its action is
    /// decoded for, read without touching the game).
    seats: Vec<u8>,
    /// Each game's legal actions as last described, `words` bits a game:
    /// an action is checked against them, and only one that is not there
    /// is looked at by `Game::check` (for the reason it is refused).
    legal: Vec<u64>,
    /// 64-bit words a game in `legal`.
    words: usize,
}

/// What the rules work out for one call, off the GIL.
struct Out {
    /// Observations, a row a game, added as each game is described.
    observations: Vec<f32>,
    /// Masks, a row a game, added as each game is described (a row
    /// cleared just before it is written, not the whole array ahead).
    masks: Vec<bool>,
    /// Rewards, a row of seats a game.
    rewards: Vec<f32>,
    /// Done flags.
    done: Vec<bool>,
}

/// `actions` as int64s: an int64 array as it is; an array of another
/// integer type (int32, say, numpy's default on some platforms) converted;
/// anything else refused naming `actions` (numpy's own refusal, "type
/// mismatch: from=int32, to=int64", named neither).
fn int64_actions<'py>(py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(array) = actions.extract::<PyReadonlyArray1<'py, i64>>() {
        return Ok(array.as_slice()?.to_vec());
    }
    let array = py.import("numpy")?.call_method1("asarray", (actions,))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let dims: usize = array.getattr("ndim")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") || dims != 1 {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "actions must be a one-dimensional array of integers, not {dims}-dimensional {}",
            dtype.str()?
        )));
    }
    let converted = array.call_method1("astype", ("int64",))?;
    let array = converted.extract::<PyReadonlyArray1<'py, i64>>()?;
    Ok(array.as_slice()?.to_vec())
}

/// The most games a batch holds: 2^20, a few hundred MiB of games and of
/// each step's arrays. Past it a batch is refused with a `ValueError`
/// naming `size`, where its arrays would abort the interpreter when their
/// memory could not be had.
pub(crate) const MAX_SIZE: usize = 1 << 20;

#[pymethods]
impl PyBatch {
    /// `size` matches of `variant` for `players` seats (absent: as at
    /// `Game`, the fewest the preset seats) under house `rules`
    /// (the service's JSON `Rules`), dealt from `seed`, `seed + 1`, ...;
    /// `reward` is `"hand"` (each hand's zero-sum points as it is settled)
    /// or `"match"` (1 to the winners and `-1 / (sides - 1)` to the others
    /// at the end); `observations=False` leaves the observation vectors out
    /// (a zero-width array) for callers that build their own.
    #[new]
    #[pyo3(signature = (variant, players = None, size = Size(1), seed = Seed(0), rules = None, reward = "hand", observations = true))]
    #[pyo3(
        text_signature = "(variant, players=None, size=1, seed=0, rules=None, reward=\"hand\", observations=True)"
    )]
    fn new(
        variant: String,
        players: Option<Players>,
        size: Size,
        seed: Seed,
        rules: Option<&Bound<'_, PyAny>>,
        reward: &str,
        observations: bool,
    ) -> PyResult<PyBatch> {
        let reward_match = match reward {
            "hand" => false,
            "match" => true,
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "reward must be \"hand\" or \"match\", not {other:?}"
                )));
            }
        };
        let (Size(size), Seed(seed)) = (size, seed);
        if !(1..=MAX_SIZE).contains(&size) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "size must be from 1 to {MAX_SIZE} games, not {size}"
            )));
        }
        let mut first = crate::game::deal(variant, players, Some(seed), rules)?;
        first.shrink_to_fit();
        let sides = usize::from(first.sides());
        let mut batch = PyBatch {
            space: ActionSpace::new(first.rules(), first.players()),
            shape: ObservationShape::new(first.rules(), first.players()),
            games: vec![first],
            next_seed: seed.wrapping_add(1),
            hand_scores: Vec::new(),
            sides,
            reward_match,
            observe: observations,
            moves: Vec::new(),
            seats: Vec::new(),
            legal: Vec::new(),
            words: 0,
        };
        while batch.games.len() < size {
            let Some(mut game) = batch.deal() else { break };
            // Many games stepped in turn: memory kept small (the room a
            // game keeps for a long hand let go) is cache and address
            // translations that the steps do not wait for.
            game.shrink_to_fit();
            batch.games.push(game);
        }
        batch.hand_scores = vec![0; size * sides];
        batch.words = (batch.space.len() as usize).div_ceil(64);
        batch.legal = vec![0; batch.games.len() * batch.words];
        batch.seats = vec![0; batch.games.len()];
        for index in 0..batch.games.len() {
            batch.learn(index);
        }
        Ok(batch)
    }

    /// Games in the batch.
    #[getter]
    fn size(&self) -> usize {
        self.games.len()
    }

    /// Actions a game: the width of a mask.
    #[getter]
    fn num_actions(&self) -> u32 {
        self.space.len()
    }

    /// The width of an observation (0 with `observations=False`).
    #[getter]
    fn observation_size(&self) -> usize {
        if self.observe { self.shape.len() } else { 0 }
    }

    /// Each game's seat to act.
    #[getter]
    fn to_act<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.games
            .iter()
            .map(Game::to_act)
            .collect::<Vec<_>>()
            .into_pyarray(py)
    }

    /// Game `index`, as a `Game` (a copy). A batch keeps no match record:
    /// its match digest covers the deal only (the rules, seats and seed).
    fn game(&self, index: usize) -> PyResult<crate::game::PyGame> {
        let game = self.games.get(index).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "game {index} of a batch of {}",
                self.games.len()
            ))
        })?;
        let mut setup = Setup::from(game);
        setup.digest = MatchDigest::start(game.rules(), game.players(), &game.seed().to_le_bytes());
        let game = Game::from_setup(setup).map_err(|error| {
            pyo3::exceptions::PyRuntimeError::new_err(format!(
                "a batch's game is not whole: {error}"
            ))
        })?;
        Ok(crate::game::PyGame::from_game(game))
    }

    /// Every game's current observation, mask, zero rewards and no done
    /// flags (a training loop's first step).
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Answer<'py>> {
        let out = py.detach(|| {
            let mut out = self.out();
            for index in 0..self.games.len() {
                self.describe(index, &mut out);
            }
            out
        });
        self.answer(py, out)
    }

    /// Plays `actions[i]` (an array of `size` integers: int64, or any
    /// integer type, converted) in game `i` for its
    /// seat to act, deals a new match where one ended, and answers
    /// `(observations, masks, rewards, done)`: float32 `[size,
    /// observation_size]` of each game's seat to act (after a reset, the
    /// new match's), bool `[size, num_actions]`, float32 `[size, players]`
    /// and bool `[size]`.
    ///
    /// Raises `pips.InvalidArgument` (field `actions[i]`) for an action
    /// outside the space or a wrong length, and `pips.IllegalMove` for one
    /// that is not legal; then no game has moved.
    fn step<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Answer<'py>> {
        let actions = int64_actions(py, actions)?;
        if actions.len() != self.games.len() {
            return Err(refusal(&ApiError::invalid(
                ErrorReason::MalformedMove,
                "actions",
                format!(
                    "{} actions for a batch of {} games",
                    actions.len(),
                    self.games.len()
                ),
            )));
        }
        let out = py.detach(|| -> Result<Out, ApiError> {
            let moves = self.checked(&actions)?;
            let mut out = self.out();
            for (index, mv) in moves.into_iter().enumerate() {
                prefetch_ahead(&self.games, index);
                self.advance(index, mv, &mut out);
                self.describe(index, &mut out);
            }
            Ok(out)
        });
        let out = out.map_err(|error| refusal(&error))?;
        self.answer(py, out)
    }
}

impl PyBatch {
    /// A new match, from the next seed (`None` only for an empty batch,
    /// which is never made).
    fn deal(&mut self) -> Option<Game> {
        let seed = self.next_seed;
        self.next_seed = seed.wrapping_add(1);
        let first = self.games.first()?;
        // The rules were checked when the first game was dealt.
        Game::new(first.variant(), *first.rules(), first.players(), seed)
            .ok()
            .map(|(game, _)| game)
    }

    /// Empty answers for this batch.
    fn out(&self) -> Out {
        let n = self.games.len();
        Out {
            observations: Vec::with_capacity(n * self.observation_size()),
            masks: Vec::with_capacity(n * self.space.len() as usize),
            rewards: vec![0.0; n * self.games.first().map_or(0, |g| usize::from(g.players()))],
            done: vec![false; n],
        }
    }

    /// Each action as its game's move, every one checked before any is
    /// played.
    fn checked(&self, actions: &[i64]) -> Result<Vec<Move>, ApiError> {
        let mut moves = Vec::with_capacity(actions.len());
        for (index, (&action, &seat)) in actions.iter().zip(&self.seats).enumerate() {
            let field = || format!("actions[{index}]");
            let number = u32::try_from(action).ok();
            let mv = actions::decode(&self.space, seat, number, action, field)?;
            if !number.is_some_and(|number| self.is_legal(index, number)) {
                // Not among the legal actions: the rules say why (or, should
                // they disagree with the legal moves, have the last word).
                if let Some(game) = self.games.get(index) {
                    game.check(mv).map_err(|error: PlayError| {
                        let mut error = ApiError::from(error);
                        error.field = field();
                        error
                    })?;
                }
            }
            moves.push(mv);
        }
        Ok(moves)
    }

    /// Whether `action` was among game `index`'s legal actions when it was
    /// last described.
    fn is_legal(&self, index: usize, action: u32) -> bool {
        let word = index * self.words + (action / 64) as usize;
        self.legal
            .get(word)
            .is_some_and(|bits| bits & (1 << (action % 64)) != 0)
    }

    /// Records game `index`'s seat to act and legal actions (see `seats`,
    /// `legal`), calling `each` with every legal action.
    fn learn_with(&mut self, index: usize, mut each: impl FnMut(u32)) {
        let (Some(game), Some(seat), Some(bits)) = (
            self.games.get(index),
            self.seats.get_mut(index),
            self.legal
                .get_mut(index * self.words..(index + 1) * self.words),
        ) else {
            return;
        };
        *seat = game.to_act();
        bits.fill(0);
        actions::for_each_legal(game, &self.space, &mut self.moves, |action| {
            if let Some(word) = bits.get_mut((action / 64) as usize) {
                *word |= 1 << (action % 64);
            }
            each(action);
        });
    }

    /// [`PyBatch::learn_with`], calling nothing.
    fn learn(&mut self, index: usize) {
        self.learn_with(index, |_| {});
    }

    /// Plays a checked move in game `index`, pays its rewards, and deals a
    /// new match in place of a finished one.
    fn advance(&mut self, index: usize, mv: Move, out: &mut Out) {
        let sides = self.sides;
        let Some(game) = self.games.get_mut(index) else {
            return;
        };
        let hand = game.hand_number();
        // Checked above. A batch keeps no match record: the digest is not
        // advanced (its hash was a third of a step).
        game.play_unchecked(mv);
        let players = usize::from(game.players());
        let row = index * players..(index + 1) * players;
        let scores_row = index * sides..(index + 1) * sides;
        let over = game.outcome();
        if !self.reward_match && (game.hand_number() != hand || over.is_some()) {
            if let (Some(rewards), Some(start)) = (
                out.rewards.get_mut(row.clone()),
                self.hand_scores.get_mut(scores_row.clone()),
            ) {
                let mut gains = [0; MAX_SEATS];
                for ((gain, now), then) in gains.iter_mut().zip(game.scores()).zip(start.iter()) {
                    *gain = now - then;
                }
                zero_sum(game, gains.get(..sides).unwrap_or(&[]), rewards);
                start.copy_from_slice(game.scores().get(..sides).unwrap_or(&[]));
            }
        }
        if let Some(outcome) = over {
            if self.reward_match {
                if let Some(rewards) = out.rewards.get_mut(row) {
                    match_result(game, outcome, rewards);
                }
            }
            if let Some(done) = out.done.get_mut(index) {
                *done = true;
            }
            // The next match, dealt in this one's room.
            game.restart_unrecorded(self.next_seed);
            self.next_seed = self.next_seed.wrapping_add(1);
            if let Some(start) = self.hand_scores.get_mut(scores_row) {
                start.fill(0);
            }
        }
    }

    /// Writes game `index`'s observation of its seat to act and its mask.
    /// Games are described in order, each adding its rows to `out`.
    fn describe(&mut self, index: usize, out: &mut Out) {
        let start = out.masks.len();
        out.masks.resize(start + self.space.len() as usize, false);
        if let Some(mask) = out.masks.get_mut(start..) {
            self.learn_with(index, |action| {
                if let Some(cell) = mask.get_mut(action as usize) {
                    *cell = true;
                }
            });
        }
        if self.observe {
            let start = out.observations.len();
            out.observations.resize(start + self.shape.len(), 0.0);
            if let (Some(game), Some(cells)) =
                (self.games.get(index), out.observations.get_mut(start..))
            {
                if let Some(view) = game.view(game.to_act()) {
                    self.shape.observe(&view, cells);
                }
            }
        }
    }

    /// The arrays of an answer.
    fn answer<'py>(&self, py: Python<'py>, out: Out) -> PyResult<Answer<'py>> {
        let n = self.games.len();
        let players = out.rewards.len() / n.max(1);
        let width = self.observation_size();
        Ok((
            out.observations.into_pyarray(py).reshape([n, width])?,
            out.masks
                .into_pyarray(py)
                .reshape([n, self.space.len() as usize])?,
            out.rewards.into_pyarray(py).reshape([n, players])?,
            out.done.into_pyarray(py),
        ))
    }
}

/// How many games ahead of the one being stepped `step` asks for memory.
const AHEAD: usize = 4;

/// Asks the processor to bring into cache the memory that stepping game
/// `index + AHEAD` touches: the game itself for game `index + 2 * AHEAD`,
/// then, once its game is in cache, the end of its history and of its
/// line's arms. A large batch's games do not fit in cache and are stepped
/// in turn, so each would otherwise wait for memory a few times a step (a
/// third of a batch of 4,096's time).
fn prefetch_ahead(games: &[Game], index: usize) {
    if let Some(game) = games.get(index + 2 * AHEAD) {
        let start = std::ptr::from_ref(game).cast::<u8>();
        for offset in (0..size_of::<Game>()).step_by(64) {
            prefetch(start.wrapping_add(offset));
        }
    }
    if let Some(game) = games.get(index + AHEAD) {
        prefetch(game.history().as_ptr_range().end.cast());
        for end in [End::Left, End::Right] {
            prefetch(game.layout().arm(end).as_ptr_range().end.cast());
        }
    }
}

/// A hint that the cache line at `address` is wanted soon (none where the
/// processor has no such instruction).
fn prefetch(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and faults on no address (it is a
    // hint, dropped where the address is not mapped), and SSE, which it
    // needs, is part of every x86-64 processor.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
