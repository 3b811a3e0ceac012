//! Any combination of options that the engine accepts plays to its end,
//! and every state it reaches is accepted again — by the checked
//! constructor and through both wire forms. Random house rules: every
//! option drawn afresh or kept from the preset, every preset as the base,
//! 2–4 players, all three sets. Every accepted combination's random match
//! ends within the match's hand limit, and nearly all of them well before
//! it: combinations under which a match could not end are refused.

use crate::common;

use common::house::house_rules;
use pips::proto;
use pips::rules::{Game, InPlayScoring, Rules, Setup};
use pips::service::codec::{decode_packed, decode_state, encode_packed, encode_state};
use prost::Message;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Combinations tried (those the engine refuses are skipped).
const COMBINATIONS: u64 = 16_000;
/// Moves whose states are checked through the wire forms, per match (the
/// rest of the match is played without, to keep the test quick).
const CHECKED_MOVES: usize = 600;
/// Moves any match may take: the hand limit times more moves than a hand
/// of the largest set can have (every tile drawn and placed, every seat
/// passing after each).
const MAX_MOVES: usize = pips::rules::game::MAX_HANDS as usize * 91 * 6;
/// The hand limit, which ends a match still going (the best score wins):
/// a backstop that only a few accepted combinations reach (scoring one
/// point a hand, to a target of hundreds).
const HAND_LIMIT: u32 = pips::rules::game::MAX_HANDS;

/// `game` is accepted again: by the checked constructor, and through the
/// bytes of both wire forms.
fn accepted_again(game: &Game) -> Result<(), String> {
    let again = Game::from_setup(Setup::from(game)).map_err(|e| format!("from_setup: {e}"))?;
    if &again != game {
        return Err("from_setup changed the game".into());
    }
    let bytes = encode_state(game).encode_to_vec();
    let readable = proto::GameState::decode(bytes.as_slice()).map_err(|e| e.to_string())?;
    let readable = decode_state(Some(&readable), "state").map_err(|e| format!("{e:?}"))?;
    let bytes = encode_packed(game).encode_to_vec();
    let packed = proto::PackedState::decode(bytes.as_slice()).map_err(|e| e.to_string())?;
    let packed = decode_packed(&packed, "state_token").map_err(|e| format!("{e:?}"))?;
    if &readable != game || &packed != game {
        return Err("a wire form changed the game".into());
    }
    Ok(())
}

/// Plays a random match under `rules` to its end, checking the states of
/// its first moves; the hands it took.
fn play_out(variant: &str, rules: Rules, players: u8, seed: u64) -> Result<u32, String> {
    let (mut game, _) = Game::new(variant, rules, players, seed).map_err(|e| e.to_string())?;
    let mut choices = ChaCha8Rng::seed_from_u64(seed ^ 0xdecaf);
    let mut legal = Vec::new();
    for step in 0..MAX_MOVES {
        if step < CHECKED_MOVES || game.outcome().is_some() {
            accepted_again(&game).map_err(|e| format!("after {step} moves: {e}"))?;
        }
        game.legal_moves_into(&mut legal);
        if game.outcome().is_some() {
            return Ok(game.hand_number());
        }
        let mv = *legal
            .get(choices.random_range(0..legal.len().max(1)))
            .ok_or("a match in play has no legal move")?;
        if step < CHECKED_MOVES {
            game.play(mv)
                .map_err(|e| format!("{mv} listed but refused: {e}"))?;
        } else {
            game.play_unchecked(mv);
        }
    }
    Err(format!(
        "still going after {MAX_MOVES} moves, in hand {}, scores {:?}",
        game.hand_number(),
        game.scores()
    ))
}

#[test]
fn every_accepted_combination_of_options_keeps_every_state_acceptable() {
    let (mut tried, mut long, mut failures) = (0, Vec::new(), Vec::new());
    for seed in 0..COMBINATIONS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (variant, rules, players) = house_rules(&mut rng);
        if rules.validate(players).is_err() {
            continue;
        }
        tried += 1;
        match play_out(variant, rules, players, seed) {
            Ok(hands) if hands >= HAND_LIMIT => {
                long.push(format!(
                    "seed {seed}: {variant} {players}p, {hands} hands: {rules:?}"
                ));
            }
            Ok(_) => {}
            Err(error) => failures.push(format!(
                "seed {seed}: {variant} with {players} players, {rules:?}: {error}"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {tried} combinations failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(tried >= 1_500, "only {tried} combinations were playable");
    assert!(
        long.len() * 100 <= tried,
        "{} of {tried} matches were ended by the hand limit:\n{}",
        long.len(),
        long.join("\n")
    );
    eprintln!(
        "{tried} combinations played to their end, {} of them by the hand limit",
        long.len()
    );
}

#[test]
fn jarac_with_in_play_points_plays_on_past_the_target_until_the_hand_ends() {
    let mut rules = pips::rules::presets::preset("jarac")
        .expect("jarac")
        .rules(2, None);
    rules.in_play_scoring = InPlayScoring::FivesFace;
    rules.target = 20;
    let mut passed_mid_hand = 0;
    for seed in 0..200 {
        let (mut game, _) = Game::new("jarac", rules, 2, seed).expect("valid");
        let mut choices = ChaCha8Rng::seed_from_u64(seed);
        while game.outcome().is_none() {
            let legal = game.legal_moves();
            let mv = legal[choices.random_range(0..legal.len())];
            let hand = game.hand_number();
            game.play(mv).expect("legal");
            let past = game.scores().iter().any(|&s| s >= 20);
            if past && game.outcome().is_none() {
                // Mid-hand, past the target: the hand goes on, and the
                // state the server hands out is accepted back.
                assert_eq!(game.hand_number(), hand, "seed {seed}");
                assert_eq!(accepted_again(&game), Ok(()), "seed {seed}");
                passed_mid_hand += 1;
            }
        }
        // The match ended with the hand, the lowest score winning.
        let scores = game.scores().to_vec();
        if let Some(pips::rules::Outcome::Winner(side)) = game.outcome() {
            let lowest = scores.iter().min().copied();
            assert_eq!(Some(scores[usize::from(side)]), lowest, "seed {seed}");
        }
    }
    assert!(passed_mid_hand > 0, "no match passed the target mid-hand");
}
