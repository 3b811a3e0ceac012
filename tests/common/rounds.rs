//! Checks shared by the property tests of the games played in rounds at a
//! hub (the train games and Chicken Foot): what a round's end adds to each
//! seat, and how the match ends.

use pips::proto;
use pips::rules::{Action, Event, Game, Move, Outcome, Place, Report, Rules, Setup, Tile};
use pips::service::codec;
use pips::service::engine::Engine;
use proptest::prelude::*;
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

/// At each round's end in `report`, every seat's pips and score change are
/// the pips left in its hand (0-0 counting its own worth); how many rounds
/// ended.
pub fn check_round_ends(report: &Report, rules: &Rules, players: u8) -> Result<u32, TestCaseError> {
    let mut ended = 0;
    for event in &report.events {
        let Event::HandEnded {
            pips,
            hands,
            end,
            winner,
            ..
        } = event
        else {
            continue;
        };
        ended += 1;
        // A round has a winner only when a seat went out (every seat scores
        // its own pips; the rule book names no winner of a blocked round).
        prop_assert_eq!(*winner, end.seat(), "the round's winner, {:?}", end);
        for seat in 0..players {
            let hand = hands[usize::from(seat)];
            let expected = hand.pips()
                + if hand.contains(Tile::new(0, 0)) {
                    u32::from(rules.double_blank_pips)
                } else {
                    0
                };
            prop_assert_eq!(pips[usize::from(seat)], expected, "seat {} pips", seat);
            prop_assert_eq!(
                report.score_change[usize::from(seat)],
                i32::try_from(expected).unwrap_or(i32::MAX),
                "seat {} score",
                seat
            );
        }
    }
    Ok(ended)
}

/// The match is over after all its rounds, the lowest score winning (a
/// tie for lowest drawn).
pub fn check_lowest_wins(
    game: &Game,
    rules: &Rules,
    rounds_ended: u32,
) -> Result<(), TestCaseError> {
    let Some(outcome) = game.outcome() else {
        return Err(TestCaseError::fail("the match did not end"));
    };
    prop_assert_eq!(rounds_ended, u32::from(rules.rounds));
    let scores = game.scores();
    let lowest = scores.iter().copied().min().unwrap_or(0);
    let at_lowest: Vec<u8> = (0..game.players())
        .filter(|&seat| scores[usize::from(seat)] == lowest)
        .collect();
    match outcome {
        Outcome::Winner(side) => prop_assert_eq!(at_lowest, vec![side]),
        Outcome::Draw => prop_assert!(at_lowest.len() > 1),
    }
    Ok(())
}

/// The seat to act has a move, every listed move is accepted and, given
/// `candidates` (every move anyone could try), exactly the listed ones are.
pub fn check_moves(
    game: &Game,
    legal: &[Move],
    candidates: Option<Vec<Move>>,
) -> Result<(), TestCaseError> {
    prop_assert!(!legal.is_empty(), "the seat to act has no move");
    for &mv in legal {
        prop_assert_eq!(game.check(mv), Ok(()), "{} listed but refused", mv);
    }
    for mv in candidates.unwrap_or_default() {
        prop_assert_eq!(
            game.check(mv).is_ok(),
            legal.contains(&mv),
            "{} accepted and listed disagree",
            mv
        );
    }
    Ok(())
}

/// Every move a seat could try with `places`: each tile it holds at each
/// place, a draw, a pass and an end of turn, for every seat.
pub fn every_seats_tries(game: &Game, places: &[Place]) -> Vec<Move> {
    let mut moves = Vec::new();
    for seat in 0..game.players() {
        for tile in game.hand(seat).iter() {
            for &place in places {
                moves.push(Move::place(seat, tile, place));
            }
        }
        moves.push(Move::draw(seat));
        moves.push(Move::pass(seat));
        moves.push(Move::end_turn(seat));
    }
    moves
}

/// States that differ from `setup` in one way the round's moves refute,
/// whatever the table: another seat to act, a draw that does not name its
/// tile, a history move made by another seat, the last tile placed moved
/// back to its placer's hand (the table still shows it: refused as counted
/// twice or, once the history no longer places it, by the replay).
pub fn history_faults(setup: &Setup, choose: &mut ChaCha8Rng) -> Vec<Setup> {
    let mut faulty = Vec::new();
    let players = setup.players;
    let mut other = setup.clone();
    other.to_act = (setup.to_act + 1) % players;
    faulty.push(other);
    if let Some(index) = (0..setup.history.len()).find(|&i| setup.history[i].drawn.is_some()) {
        let mut unnamed = setup.clone();
        unnamed.history[index].drawn = None;
        faulty.push(unnamed);
    }
    if !setup.history.is_empty() {
        let index = choose.random_range(0..setup.history.len());
        let mut altered = setup.clone();
        let seats = u8::try_from(players).unwrap_or(2);
        altered.history[index].mv.seat = (altered.history[index].mv.seat + 1) % seats;
        faulty.push(altered);
    }
    let last_play = setup
        .history
        .iter()
        .rposition(|e| matches!(e.mv.action, Action::Play { .. }));
    if let Some(index) = last_play
        && let Action::Play { tile, .. } = setup.history[index].mv.action
    {
        let mut moved = setup.clone();
        moved.history.truncate(index);
        let seat = usize::from(setup.history[index].mv.seat);
        moved.hands[seat].push(tile);
        faulty.push(moved);
    }
    faulty
}

/// What every seat knows of `game` holds for the true deal: no tile
/// another seat holds is among those it surely does not hold (draws and
/// passes said what it lacked), and a sampled deal keeps everything the
/// seat sees: its hand, the table, the hand sizes, its legal moves. How
/// many samples were drawn, and how many found no deal.
pub fn check_knowledge(game: &Game, choose: &mut ChaCha8Rng) -> Result<(u32, u32), TestCaseError> {
    let players = game.players();
    let (mut samples, mut unsampled) = (0, 0);
    for me in 0..players {
        let Some(view) = game.view(me) else {
            return Err(TestCaseError::fail("no view"));
        };
        let knowledge = view.knowledge();
        for other in (0..players).filter(|&s| s != me) {
            let wrong = knowledge.surely_not_held(other).and(game.hand(other));
            prop_assert!(
                wrong.is_empty(),
                "seat {} rules out {:?}, which seat {} holds",
                me,
                wrong.iter().collect::<Vec<_>>(),
                other
            );
        }
        samples += 1;
        let Some(sampled) = knowledge.sample(choose) else {
            unsampled += 1;
            continue;
        };
        prop_assert_eq!(sampled.hand(me), game.hand(me));
        prop_assert_eq!(sampled.trains(), game.trains());
        prop_assert_eq!(sampled.foot(), game.foot());
        prop_assert_eq!(sampled.boneyard_len(), game.boneyard_len());
        for seat in 0..players {
            prop_assert_eq!(sampled.hand(seat).len(), game.hand(seat).len());
        }
        if game.to_act() == me {
            prop_assert_eq!(sampled.legal_moves(), game.legal_moves());
        }
    }
    Ok((samples, unsampled))
}

/// Plays one of the legal moves of `game`, chosen by `choose`.
pub fn play_random(game: &mut Game, choose: &mut ChaCha8Rng) -> Result<Move, TestCaseError> {
    let legal = game.legal_moves();
    let mv = legal[choose.random_range(0..legal.len())];
    game.play(mv)
        .map_err(|e| TestCaseError::fail(format!("{mv}: {e}")))?;
    Ok(mv)
}

/// Plays `game` to the match's end with random moves, replaying each round
/// through the service's `Replay` from the state it began with: the same
/// moves end on the same state and the same match digest.
pub fn check_round_replays(mut game: Game, choose: &mut ChaCha8Rng) -> Result<u32, TestCaseError> {
    let engine = Engine::default();
    let mut start = codec::encode_state(&game);
    let mut moves = Vec::new();
    let mut rounds = 0;
    while game.outcome().is_none() {
        let round = game.hand_number();
        moves.push(codec::encode_move(play_random(&mut game, choose)?));
        if game.hand_number() == round && game.outcome().is_none() {
            continue;
        }
        let replayed = engine
            .replay(&proto::ReplayRequest {
                state_source: Some(start.into()),
                moves: std::mem::take(&mut moves),
                as_token: false,
                notation: String::new(),
            })
            .map_err(|e| TestCaseError::fail(format!("round {round}: {e:?}")))?;
        start = codec::encode_state(&game);
        prop_assert_eq!(
            &replayed.match_digest,
            &game.digest().0.to_vec(),
            "round {}",
            round
        );
        prop_assert_eq!(replayed.state.as_ref(), Some(&start), "round {}", round);
        rounds += 1;
    }
    Ok(rounds)
}

/// The state reads back unchanged from both wire forms (the readable one
/// through its JSON too), written in format 2; both forms, for the table's
/// own checks.
pub fn read_back(
    game: &Game,
    step: usize,
) -> Result<(proto::GameState, proto::PackedState), TestCaseError> {
    let readable = codec::encode_state(game);
    prop_assert_eq!(readable.format_version, 2);
    let json = serde_json::to_string(&readable).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let from_json: proto::GameState =
        serde_json::from_str(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let decoded = codec::decode_state(Some(&from_json), "state");
    prop_assert_eq!(decoded.as_ref(), Ok(game), "step {}", step);
    let packed = codec::encode_packed(game);
    let unpacked = codec::decode_packed(&packed, "state_token");
    prop_assert_eq!(unpacked.as_ref(), Ok(game), "step {}", step);
    Ok((readable, packed))
}

/// Walks a random match from `game` (at most `max_moves` moves): every
/// state goes through the checked constructor unchanged and `check` holds
/// of it (given its setup and step); every fifth step of a match in play,
/// each state `faults` makes of it is refused.
pub fn walk_states(
    mut game: Game,
    choose: &mut ChaCha8Rng,
    max_moves: usize,
    mut check: impl FnMut(&Game, &Setup, usize) -> Result<(), TestCaseError>,
    faults: impl Fn(&Setup, &mut ChaCha8Rng) -> Vec<Setup>,
) -> Result<(), TestCaseError> {
    let mut step = 0usize;
    loop {
        let setup = Setup::from(&game);
        let rebuilt = Game::from_setup(setup.clone());
        prop_assert_eq!(rebuilt.as_ref(), Ok(&game), "step {}", step);
        check(&game, &setup, step)?;
        if step % 5 == 0 && game.outcome().is_none() {
            for faulty in faults(&setup, choose) {
                prop_assert!(
                    Game::from_setup(faulty.clone()).is_err(),
                    "accepted a faulty state: {:?}",
                    faulty.table
                );
            }
        }
        if game.outcome().is_some() || step >= max_moves {
            return Ok(());
        }
        play_random(&mut game, choose)?;
        step += 1;
    }
}
