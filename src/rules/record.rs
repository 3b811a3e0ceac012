//! The match record's digest: a hash chain over the rules, the deal seed
//! and every move, so that a state can stay bounded (it keeps only the
//! current hand's moves) and still vouch for the whole match. A record of
//! moves agrees with a state exactly when replaying it from the match's
//! first state ends on the state's digest.
//!
//! The chain starts with SHA-256 over a label, the rules (one byte per
//! option, the target as four little-endian bytes; then, only when one of
//! them is set, a byte 1, `count_partner` and the two bonuses as two
//! little-endian bytes each), the player count and a commitment to the
//! deal seed; each move then makes it SHA-256 of the
//! previous digest, the hand number (four little-endian bytes) and the
//! move's four bytes (seat, action, tile index, end).

use sha2::{Digest as _, Sha256};

use super::deal::MAX_SEATS;
use super::foot::FootPlace;
use super::moves::{Action, Move};
use super::options::{Rules, TableKind};
use super::place::{Place, PlaceKind};
use super::trains::TrainId;
use super::tricks::auction::Bidding;
use super::tricks::options::TrickOptions;

/// The label the chain starts with.
const LABEL: &[u8] = b"pips.v1 match record";

/// Bytes of a digest.
pub const DIGEST_LEN: usize = 32;

/// A match's running digest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MatchDigest(pub [u8; DIGEST_LEN]);

impl MatchDigest {
    /// No record: all zeros, the digest of a game restarted without one
    /// ([`Game::restart_unrecorded`](super::Game::restart_unrecorded)).
    pub const UNRECORDED: MatchDigest = MatchDigest([0; DIGEST_LEN]);

    /// The digest of a match not yet begun: its rules, its player count and
    /// `seed_commitment` (the seed's own bytes, or a keyed commitment to it
    /// where the seed must stay secret).
    #[must_use]
    pub fn start(rules: &Rules, players: u8, seed_commitment: &[u8]) -> MatchDigest {
        let mut hash = Sha256::new();
        hash.update(LABEL);
        let (first, later, trains) = rule_bytes(rules);
        hash.update(first);
        if let Some(later) = later {
            hash.update(later);
        }
        if let Some(trains) = trains {
            hash.update(trains);
        }
        hash.update([players]);
        hash.update(seed_commitment);
        MatchDigest(hash.finalize().into())
    }

    /// The digest after `mv`, made in hand `hand`.
    #[must_use]
    pub fn then(&self, hand: u32, mv: Move) -> MatchDigest {
        let (action, tile, end) = match mv.action {
            Action::Play { tile, place } => (0, tile.index(), place_byte(place)),
            Action::Draw => (1, 0, 0),
            Action::Pass => (2, 0, 0),
            Action::EndTurn => (3, 0, 0),
            // A trick game's: its own three bytes (kinds 4 to 7).
            Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {
                let [kind, first, second] = mv.action.trick_bytes().unwrap_or([u8::MAX; 3]);
                (kind, u32::from(first), usize::from(second))
            }
        };
        let tile = u8::try_from(tile).unwrap_or(u8::MAX);
        let end = u8::try_from(end).unwrap_or(u8::MAX);
        let mut hash = Sha256::new();
        hash.update(self.0);
        hash.update(hand.to_le_bytes());
        hash.update([mv.seat, action, tile, end]);
        MatchDigest(hash.finalize().into())
    }
}

/// Where a placement went, as the digest records it: 0 for a lead, a
/// line's end as its index + 1 (the bytes every record has always had).
fn place_byte(place: Place) -> usize {
    match place.kind() {
        PlaceKind::Lead => 0,
        PlaceKind::End(end) => end.index() + 1,
        // After the line's four ends: a seat's train, then the Mexican.
        PlaceKind::Train(TrainId::Seat(seat)) => 5 + usize::from(seat),
        PlaceKind::Train(TrainId::Mexican) => 5 + MAX_SEATS,
        // Then a chicken foot's new arm, then its arms.
        PlaceKind::Foot(FootPlace::NewArm) => 6 + MAX_SEATS,
        PlaceKind::Foot(FootPlace::Arm(arm)) => 7 + MAX_SEATS + usize::from(arm),
    }
}

/// The rules as bytes, every option in a fixed order (a new option fails
/// to compile here until it is added). The options added with the Latin
/// games follow only when one of them is set, so that a record made
/// before they existed keeps its digest.
fn rule_bytes(rules: &Rules) -> ([u8; 20], Option<[u8; 6]>, Option<[u8; 6]>) {
    let Rules {
        max_pip,
        partnerships,
        hand_size,
        draw,
        boneyard_reserve,
        connect,
        layout,
        in_play_scoring,
        first_lead,
        next_lead,
        settlement,
        hand_rounding,
        hand_scale,
        blocked_own,
        count_partner,
        capicua_bonus,
        pass_bonus,
        closing_wins,
        match_end,
        target,
        table,
        rounds,
        public_train,
        opening_chain,
        double_blank_pips,
        hub_arms,
        tricks,
    } = *rules;
    // The train table's (or chicken foot's) options follow only there, so
    // that a line game's record keeps its digest; their first byte (2 for
    // trains, 3 for a chicken foot) tells them from the Latin games' (1).
    let [d0, d1] = double_blank_pips.to_le_bytes();
    let trains = match table {
        TableKind::Line => None,
        TableKind::Trains => Some([
            2,
            rounds,
            u8::from(public_train),
            u8::from(opening_chain),
            d0,
            d1,
        ]),
        TableKind::ChickenFoot => Some([3, rounds, hub_arms, 0, d0, d1]),
        // (A trick table's options, first byte 4; `Rules::validate`
        // refuses the table without them.)
        TableKind::Tricks => tricks.map(trick_bytes),
    };
    let [t0, t1, t2, t3] = target.to_le_bytes();
    let [c0, c1] = capicua_bonus.to_le_bytes();
    let [p0, p1] = pass_bonus.to_le_bytes();
    let later = (count_partner || capicua_bonus != 0 || pass_bonus != 0).then_some([
        1,
        u8::from(count_partner),
        c0,
        c1,
        p0,
        p1,
    ]);
    let first = [
        max_pip,
        u8::from(partnerships),
        hand_size,
        draw as u8,
        boneyard_reserve,
        connect as u8,
        layout as u8,
        in_play_scoring as u8,
        first_lead as u8,
        next_lead as u8,
        settlement as u8,
        hand_rounding as u8,
        hand_scale as u8,
        blocked_own as u8,
        u8::from(closing_wins),
        match_end as u8,
        t0,
        t1,
        t2,
        t3,
    ];
    (first, later, trains)
}

/// A trick game's options as bytes: 4 (the family), the bids (0 Texas
/// 42, 1 with plunge, 2 with splash, 3 with both, 4 Moon), `all_pass`,
/// `play_out` + 2 `nello` + 4 `sevens`, the two ranks of the doubles, and
/// `scoring`.
fn trick_bytes(options: TrickOptions) -> [u8; 6] {
    let hand = options.hand;
    let bidding = match hand.bidding {
        Bidding::Texas42 { plunge, splash } => u8::from(plunge) | u8::from(splash) << 1,
        Bidding::Moon => 4,
    };
    [
        4,
        bidding,
        hand.all_pass as u8,
        u8::from(hand.play_out) | u8::from(hand.nello) << 1 | u8::from(hand.sevens) << 2,
        hand.follow_me_doubles as u8 | (hand.nello_doubles as u8) << 4,
        options.scoring as u8,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::end::End;
    use crate::rules::presets::preset;
    use crate::rules::tile::Tile;

    #[test]
    fn every_input_moves_the_digest() {
        let muggins = preset("muggins").expect("preset").rules(2, None);
        let start = MatchDigest::start(&muggins, 2, &7u64.to_le_bytes());
        let other_rules = Rules {
            target: 151,
            ..muggins
        };
        assert_ne!(
            start,
            MatchDigest::start(&other_rules, 2, &7u64.to_le_bytes())
        );
        assert_ne!(start, MatchDigest::start(&muggins, 3, &7u64.to_le_bytes()));
        assert_ne!(start, MatchDigest::start(&muggins, 2, &8u64.to_le_bytes()));
        let lead = Move::play(0, Tile::new(6, 6), None);
        let moves = [
            lead,
            Move::play(1, Tile::new(6, 6), None),
            Move::play(0, Tile::new(6, 5), None),
            Move::play(0, Tile::new(6, 6), Some(End::Left)),
            Move::draw(0),
            Move::pass(0),
        ];
        let digests: Vec<_> = moves.iter().map(|&mv| start.then(1, mv)).collect();
        for (i, a) in digests.iter().enumerate() {
            for b in &digests[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_ne!(start.then(1, lead), start.then(2, lead));
        assert_eq!(start.then(1, lead), start.then(1, lead));
    }
}
