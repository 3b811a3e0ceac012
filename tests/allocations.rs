//! The engine's hot path allocates nothing: generating legal moves into a
//! reused vector and playing a move with `play_unchecked` do not touch the
//! allocator, for every move that does not end a hand. (Ending a hand
//! settles it and deals the next, which builds a few small vectors.)
//!
//! The same holds for the copies a search plays on: a clone of a game
//! (including one decoded from a state, as a server's `SuggestMove` has),
//! and a game refilled with `clone_from`, play the rest of their hand
//! without allocating.
//!
//! A counting global allocator sees every allocation of this test binary,
//! so this file holds a single test, and it counts those of the test's own
//! thread only: the harness's main thread may allocate while the test runs
//! (it files the running test once it has started it, which on a loaded
//! machine can come after the test's first moves).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use pips::rules::presets::PRESETS;
use pips::rules::{Game, Move, Setup};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Counts allocations and reallocations, then defers to the system.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted (the test's thread).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

/// Counts an allocation made by a counted thread.
fn count() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn moves_within_a_hand_allocate_nothing() {
    COUNTED.set(true);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let boxed = std::hint::black_box(Box::new(1u64));
    assert!(
        ALLOCATIONS.load(Ordering::Relaxed) > before && *boxed == 1,
        "the counter sees this thread's allocations"
    );
    let mut checked = 0usize;
    let mut copies = 0usize;
    let mut scratch: Option<Game> = None;
    for preset in PRESETS {
        for players in preset.players.clone() {
            let rules = preset.rules(players, None);
            let (mut game, _) = Game::new(preset.id, rules, players, 77).expect("valid");
            let mut rng = ChaCha8Rng::seed_from_u64(77);
            let mut legal = Vec::with_capacity(256);
            while game.outcome().is_none() {
                let hand = game.hand_number();
                if game.history().len() == 2 {
                    let decoded = Game::from_setup(Setup::from(&game)).expect("its own setup");
                    let target = scratch.get_or_insert_with(|| game.clone());
                    target.clone_from(&game);
                    let refilled = target.clone();
                    for (how, copy) in [
                        ("a clone", game.clone()),
                        ("a refilled game", refilled),
                        ("a clone of a decoded game", decoded.clone()),
                    ] {
                        let allocated = rest_of_hand_allocations(copy, &mut rng, &mut legal);
                        assert_eq!(allocated, 0, "{} {players}p: {how} allocated", preset.id);
                        copies += 1;
                    }
                }
                let before = ALLOCATIONS.load(Ordering::Relaxed);
                game.legal_moves_into(&mut legal);
                let mv = legal[rng.random_range(0..legal.len())];
                game.play_unchecked(mv);
                let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
                if game.hand_number() == hand && game.outcome().is_none() {
                    assert_eq!(allocations, 0, "{} {players}p: {mv} allocated", preset.id);
                    checked += 1;
                }
            }
            assert!(
                game.history().len() <= 1024,
                "the reserved history sufficed"
            );
        }
    }
    assert!(checked > 1000, "only {checked} moves were checked");
    assert!(copies > 100, "only {copies} copies were played");
}

/// Plays `game` to the end of its hand with random moves; the allocations
/// made by its moves before the last (the one that ends the hand settles
/// it and deals the next).
fn rest_of_hand_allocations(mut game: Game, rng: &mut ChaCha8Rng, legal: &mut Vec<Move>) -> usize {
    let hand = game.hand_number();
    let mut allocations = 0;
    while game.outcome().is_none() && game.hand_number() == hand {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        game.legal_moves_into(legal);
        let mv = legal[rng.random_range(0..legal.len())];
        game.play_unchecked(mv);
        if game.hand_number() == hand && game.outcome().is_none() {
            allocations += ALLOCATIONS.load(Ordering::Relaxed) - before;
        }
    }
    allocations
}
