//! Random matches of every combination of the options a trick game takes:
//! every hand dealt, bid, named and played from its legal moves to its end,
//! scored, and the match ended by its target; what the play shows a seat
//! lacks, it lacks. (A test of the pieces that `Game` will put together:
//! the deal, the shake, the hand, the scores and the knowledge.)

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::auction::{AllPass, Bid, Bidding};
use super::contract::{Contract, DoublesRank};
use super::deal::{deal, shaker};
use super::hand::{Stage, TrickHand};
use super::options::{Scoring, TrickOptions};
use super::settle::{TRICKS, Taken, Verdict, marks, moon, moon_winners, points, texas42_winner};
use crate::rules::deal::hand_key;
use crate::rules::moves::Seat;
use crate::rules::tile::Tile;

use super::knowledge::shown_void;
use super::suit::Suits;
use crate::rules::moves::Action;

/// More hands than any match takes.
const MAX_HANDS: u32 = 5_000;

/// What a played match showed.
#[derive(Default)]
struct Seen {
    /// Hands dealt.
    hands: u32,
    /// Hands every seat passed.
    all_passed: u32,
    /// Hands played to the seventh trick, every tile in play.
    played_out: u32,
    /// Hands stopped early, decided.
    stopped: u32,
    /// Hands played under nello, sevens, and after a plunge or splash.
    nello: u32,
    sevens: u32,
    plunge_or_splash: u32,
    /// Tiles a play showed a seat does not hold, summed over the plays.
    shown_void: u64,
}

/// A random player's move: in the auction a pass half the time (nearly
/// always over a standing bid), else mostly the lowest bid open, now and
/// then any bid; otherwise any move. (Players who bid whatever comes
/// overbid each other, are set nearly every hand and sink Moon's scores
/// for ever.)
fn pick(moves: &[Action], outbid: bool, rng: &mut ChaCha8Rng) -> Action {
    let bids: Vec<Action> = moves
        .iter()
        .copied()
        .filter(|mv| matches!(mv, Action::Bid(_)))
        .collect();
    let may_pass = moves.contains(&Action::Pass);
    let passes = if outbid { 0..15 } else { 0..8 };
    match (bids.first(), rng.random_range(0..16u8)) {
        (None, _) => moves[rng.random_range(..moves.len())],
        (Some(_), roll) if may_pass && passes.contains(&roll) => Action::Pass,
        (Some(&lowest), 0..14) => lowest,
        (Some(_), _) => bids[rng.random_range(..bids.len())],
    }
}

/// Tiles in a trick of `hand`: a tile a seat, the nello partner sitting
/// out.
fn trick_size(hand: &TrickHand) -> usize {
    let sits_out = hand.contract() == Some(Contract::Nello);
    hand.taken().0.len() - usize::from(sits_out)
}

/// Plays one match of `options` to `target` from `seed`, checking each
/// hand as it ends; the match's figures.
fn play_match(options: TrickOptions, target: u32, seed: u64, seen: &mut Seen) {
    let is_moon = options.is_moon();
    let players: u8 = if is_moon { 3 } else { 4 };
    let key = hand_key(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut scores = vec![0i32; if is_moon { 3 } else { 2 }];
    for hand_number in 0..MAX_HANDS {
        seen.hands += 1;
        let dealt = deal(&key, is_moon, players, hand_number);
        let shaker = shaker(&key, players, hand_number);
        let mut hand = TrickHand::dealt(
            options.hand,
            shaker,
            &dealt.hands[..usize::from(players)],
            dealt.widow,
        );
        // The tricks as played, with their seats, for what they show.
        let mut tricks: Vec<Vec<(Seat, Tile)>> = Vec::new();
        while let Some(seat) = hand.to_act() {
            let moves = hand.legal_moves();
            assert!(!moves.is_empty(), "a seat to act has a move");
            let outbid = hand.auction().standing().is_some();
            let mv = pick(&moves, outbid, &mut rng);
            hand.play(seat, mv).expect("a legal move is played");
            if let (Action::Trick(tile), Some(contract)) = (mv, hand.contract()) {
                let size = trick_size(&hand);
                match tricks.last_mut() {
                    Some(trick) if trick.len() < size => {
                        trick.push((seat, tile));
                    }
                    _ => tricks.push(vec![(seat, tile)]),
                }
                // What the play shows a seat lacks, it lacks.
                let suits = Suits::new(
                    contract,
                    options.hand.follow_me_doubles,
                    options.hand.nello_doubles,
                );
                let void = shown_void(suits, tricks.iter().map(Vec::as_slice));
                for other in 0..players {
                    let held = hand.hand(other).and(void[usize::from(other)]);
                    assert!(
                        held.is_empty(),
                        "seat {other} holds {held:?} it showed void"
                    );
                    seen.shown_void += u64::from(void[usize::from(other)].len());
                }
            }
            // A move not offered is refused, and changes nothing.
            if let Some(next) = hand.to_act() {
                let before = hand.clone();
                if hand.legal_moves().iter().all(|&m| m != Action::Pass) {
                    assert!(hand.play(next, Action::Pass).is_err());
                }
                assert_eq!(hand, before);
            }
        }
        assert_eq!(hand.stage(), Stage::Over);
        let Some((bidder, bid)) = hand.auction().standing() else {
            assert_eq!(options.hand.all_pass, AllPass::Reshake, "nobody bid");
            seen.all_passed += 1;
            continue;
        };
        let (tricks, taken_points) = hand.taken();
        let tricks_played: u8 = tricks.iter().sum();
        let nello = hand.contract() == Some(Contract::Nello);
        seen.nello += u32::from(nello);
        seen.sevens += u32::from(hand.contract() == Some(Contract::Sevens));
        seen.plunge_or_splash += u32::from(matches!(bid, Bid::Plunge(_) | Bid::Splash(_)));
        if tricks_played == TRICKS {
            seen.played_out += 1;
            if !nello && !is_moon {
                let total: u32 = taken_points.iter().map(|&p| u32::from(p)).sum();
                assert_eq!(total, 42, "a hand played out counts 42");
            }
        } else {
            seen.stopped += 1;
            assert!(
                !options.hand.play_out,
                "play stops early only without play_out"
            );
            assert!(hand.verdict().is_some(), "a hand stops when it is decided");
        }
        if is_moon {
            assert_eq!(tricks_played, TRICKS, "Moon plays every trick");
            let changes = moon(bid, usize::from(bidder), tricks);
            for (score, change) in scores.iter_mut().zip(changes) {
                *score += change;
            }
            let winners = moon_winners(&scores, Some(usize::from(bidder)), target);
            if !winners.is_empty() {
                return;
            }
            continue;
        }
        let bidders = usize::from(bidder % 2);
        let verdict = hand.verdict().expect("a Texas 42 hand ends decided");
        let mut taken = Taken::default();
        for seat in 0..usize::from(players) {
            let (won, held) = (tricks[seat], taken_points[seat]);
            if seat % 2 == bidders {
                taken.bidders_tricks += won;
                taken.bidders_points += held;
            } else {
                taken.others_tricks += won;
                taken.others_points += held;
            }
        }
        let (to_bidders, to_others) = match options.scoring {
            Scoring::Marks => {
                let (b, o) = marks(bid, verdict);
                (u32::from(b), u32::from(o))
            }
            Scoring::Points => points(bid, verdict, taken),
        };
        if options.scoring == Scoring::Marks {
            // One side scores a hand, and only in marks.
            assert!((to_bidders == 0) != (to_others == 0));
            assert_eq!(verdict == Verdict::Made, to_bidders > 0);
        }
        scores[bidders] += to_bidders as i32;
        scores[1 - bidders] += to_others as i32;
        if texas42_winner([scores[0], scores[1]], bidders, target).is_some() {
            return;
        }
    }
    panic!("the match did not end in {MAX_HANDS} hands: {options:?}, scores {scores:?}");
}

/// Every combination of the options the rules accept, each with its
/// target (the points game's 250, else the game's own).
pub(crate) fn every_combination() -> Vec<(TrickOptions, u32)> {
    let mut all = Vec::new();
    let ranks = [DoublesRank::High, DoublesRank::Low, DoublesRank::OwnSuit];
    for all_pass in [AllPass::Reshake, AllPass::DealerMustBid] {
        for follow_me_doubles in ranks {
            for play_out in [false, true] {
                let mut options = TrickOptions::moon();
                options.hand.all_pass = all_pass;
                options.hand.follow_me_doubles = follow_me_doubles;
                options.hand.play_out = play_out;
                all.push(options);
                for bits in 0..32u8 {
                    let on = |bit: u8| bits & (1 << bit) != 0;
                    for nello_doubles in ranks {
                        let mut options = TrickOptions::texas42();
                        options.hand.all_pass = all_pass;
                        options.hand.follow_me_doubles = follow_me_doubles;
                        options.hand.play_out = play_out;
                        options.hand.nello = on(0);
                        options.hand.sevens = on(1);
                        options.hand.bidding = Bidding::Texas42 {
                            plunge: on(2),
                            splash: on(3),
                        };
                        if on(4) {
                            options.scoring = Scoring::Points;
                        }
                        options.hand.nello_doubles = nello_doubles;
                        all.push(options);
                    }
                }
            }
        }
    }
    all.into_iter()
        .filter(|options| options.check().is_ok())
        .map(|options| {
            let target = match (options.is_moon(), options.scoring) {
                (true, _) => 21,
                (false, Scoring::Marks) => 7,
                (false, Scoring::Points) => 250,
            };
            (options, target)
        })
        .collect()
}

#[test]
fn random_matches_of_every_option_combination_end_and_count_42() {
    let combinations = every_combination();
    // Moon at each of its 12 combinations that stand (play_out on) and
    // Texas 42's that the rules accept.
    assert!(combinations.len() > 100, "{}", combinations.len());
    let mut seen = Seen::default();
    let mut matches = 0;
    for (i, &(options, target)) in combinations.iter().enumerate() {
        for round in 0..8 {
            play_match(options, target, (i * 8 + round) as u64, &mut seen);
            matches += 1;
        }
    }
    assert!(matches >= 1_000, "{matches}");
    // Every way a hand ends happened.
    assert!(seen.all_passed > 0 && seen.played_out > 0 && seen.stopped > 0);
    assert!(seen.nello > 0 && seen.sevens > 0 && seen.plunge_or_splash > 0);
    assert!(seen.shown_void > 0, "the play showed voids");
    assert!(seen.hands > seen.all_passed + seen.played_out);
}

/// Random matches of every combination, played as a [`Game`]: the match
/// machinery deals, shakes, scores and ends them; at every move the seat
/// to act has a move, every legal move is accepted and a move not offered
/// refused; every state handed out is accepted back by the checked
/// constructor as the same game, and replaying the match's moves from its
/// seed ends on the same digest.
#[test]
fn games_of_every_option_combination_end_and_read_back() {
    use crate::rules::events::{Event, HandEnd};
    use crate::rules::game::Game;
    use crate::rules::options::Rules;
    use crate::rules::setup::Setup;

    let mut ends = [0u32; 3];
    for (i, &(options, target)) in every_combination().iter().enumerate() {
        let rules = Rules::tricks(options, target);
        let players = if options.is_moon() { 3 } else { 4 };
        let seed = i as u64;
        let (mut game, _) = Game::new("tricks", rules, players, seed).expect("valid rules");
        let (mut replay, _) = Game::new("tricks", rules, players, seed).expect("valid rules");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves = 0;
        while game.outcome().is_none() {
            let legal = game.legal_moves();
            assert!(!legal.is_empty(), "{options:?}: the seat to act has a move");
            for &mv in &legal {
                assert_eq!(game.check(mv), Ok(()), "{mv:?}");
            }
            let actions: Vec<Action> = legal.iter().map(|mv| mv.action).collect();
            let outbid = game
                .trick_hand()
                .is_some_and(|hand| hand.auction().standing().is_some());
            let action = pick(&actions, outbid, &mut rng);
            let mv = crate::rules::moves::Move {
                seat: game.to_act(),
                action,
            };
            if !actions.contains(&Action::Pass) {
                let pass = crate::rules::moves::Move::pass(game.to_act());
                assert!(game.check(pass).is_err(), "a pass not offered is refused");
            }
            let report = game.play(mv).expect("a legal move is played");
            replay.play(mv).expect("the replay plays it too");
            for event in &report.events {
                if let Event::HandEnded { end, .. } = event {
                    let at = match end {
                        HandEnd::Made(_) => 0,
                        HandEnd::Set(_) => 1,
                        _ => 2,
                    };
                    ends[at] += 1;
                }
            }
            moves += 1;
            // Every few moves (and at the end), the state reads back.
            if moves % 7 == 0 || game.outcome().is_some() {
                let back = Game::from_setup(Setup::from(&game));
                assert_eq!(back.as_ref(), Ok(&game), "{options:?} after {moves} moves");
            }
            assert!(moves < 200_000, "{options:?}: the match did not end");
        }
        assert_eq!(replay.digest(), game.digest());
    }
    assert!(
        ends.iter().all(|&n| n > 0),
        "made, set and all passed: {ends:?}"
    );
}
