//! What the service answers besides states: events, the update after a
//! move, legal moves and one seat's view. What a seat may see is decided by
//! the rules ([`View`], [`Event::seen_by`]); this only encodes it.

use crate::proto;
use crate::rules::{Event, Game, Geometry, HandEnd, Move, ScoreReason, Seat, Table, View};

use super::foot::encode_foot_table;
use super::history::encode_entry_for;
use super::readable::encode_layout;
use super::rules::encode_rules;
use super::trains::encode_train_table;
use super::tricks::encode_trick_table;
use super::wire::{
    encode_arm_ref, encode_bid, encode_contract, encode_end, encode_move, encode_outcome,
    encode_phase, encode_tile, encode_train,
};
use crate::rules::tricks::settle::Verdict;

/// Why points were scored, as its wire value.
fn encode_reason(reason: ScoreReason) -> i32 {
    match reason {
        ScoreReason::Ends => proto::ScoreReason::Ends,
        ScoreReason::Domino => proto::ScoreReason::Domino,
        ScoreReason::Closed => proto::ScoreReason::Closed,
        ScoreReason::Blocked => proto::ScoreReason::Blocked,
        ScoreReason::Penalty => proto::ScoreReason::Penalty,
        ScoreReason::OwnPips => proto::ScoreReason::OwnPips,
        ScoreReason::Capicua => proto::ScoreReason::Capicua,
        ScoreReason::PassBonus => proto::ScoreReason::PassBonus,
        ScoreReason::Marks => proto::ScoreReason::Marks,
        ScoreReason::HandPoints => proto::ScoreReason::HandPoints,
        ScoreReason::Tricks => proto::ScoreReason::Tricks,
    }
    .into()
}

/// The fields of a `PointsScored` (or `PointsVoided`) `earned_by`, each
/// making the oneof's value from a seat.
struct EarnedBy<T> {
    placer: fn(u32) -> T,
    ended_by: fn(u32) -> T,
    holder: fn(u32) -> T,
    bidder: fn(u32) -> T,
}

/// Who earned points, in the field their reason gives that seat.
fn earned_by<T>(seat: Option<Seat>, reason: ScoreReason, fields: &EarnedBy<T>) -> Option<T> {
    let seat = u32::from(seat?);
    Some(match reason {
        ScoreReason::Ends | ScoreReason::PassBonus => (fields.placer)(seat),
        ScoreReason::Domino | ScoreReason::Closed | ScoreReason::Capicua => (fields.ended_by)(seat),
        ScoreReason::Penalty | ScoreReason::OwnPips => (fields.holder)(seat),
        ScoreReason::Marks | ScoreReason::HandPoints | ScoreReason::Tricks => (fields.bidder)(seat),
        // (A blocked hand is won by a side as a whole.)
        ScoreReason::Blocked => return None,
    })
}

/// A `HandEnded` event (anything else gives an empty message).
fn encode_hand_ended(event: &Event, geometry: Geometry) -> proto::HandEnded {
    use proto::hand_ended::EndedBy;
    let Event::HandEnded {
        hand,
        end,
        winner,
        last_placer,
        pips,
        settlement,
        layout,
        table,
        hands,
    } = event
    else {
        return proto::HandEnded::default();
    };
    let (reason, ended_by) = match *end {
        HandEnd::Domino(seat) => (
            proto::HandEndReason::Domino,
            Some(EndedBy::WentOut(u32::from(seat))),
        ),
        HandEnd::Closed(seat) => (
            proto::HandEndReason::Closed,
            Some(EndedBy::ClosedBy(u32::from(seat))),
        ),
        HandEnd::Blocked => (
            proto::HandEndReason::Blocked,
            last_placer.map(|seat| EndedBy::LastPlacer(u32::from(seat))),
        ),
        HandEnd::Made(seat) => (
            proto::HandEndReason::Made,
            Some(EndedBy::Bidder(u32::from(seat))),
        ),
        HandEnd::Set(seat) => (
            proto::HandEndReason::Set,
            Some(EndedBy::Bidder(u32::from(seat))),
        ),
        HandEnd::AllPassed => (proto::HandEndReason::AllPassed, None),
    };
    proto::HandEnded {
        hand: *hand,
        reason: reason.into(),
        ended_by,
        winner: winner.map(u32::from),
        pips: pips.clone(),
        settlement: settlement.clone(),
        layout: layout
            .as_deref()
            .map(|layout| encode_layout(layout, geometry)),
        trains: table
            .as_deref()
            .and_then(Table::trains)
            .map(encode_train_table),
        foot: table
            .as_deref()
            .and_then(Table::foot)
            .map(encode_foot_table),
        hands: hands
            .iter()
            .map(|hand| proto::Hand {
                tiles: hand.iter().map(encode_tile).collect(),
            })
            .collect(),
    }
}

/// One event.
fn encode_event(event: &Event, geometry: Geometry) -> proto::Event {
    use proto::event::Kind;
    let kind = match event {
        Event::TilePlayed {
            seat,
            tile,
            place,
            ends_total,
            started_arm,
        } => Kind::TilePlayed(proto::TilePlayed {
            seat: u32::from(*seat),
            tile: Some(encode_tile(*tile)),
            end: encode_end(place.end()),
            ends_total: *ends_total,
            train: place.train().map(encode_train),
            arm: place.foot().map(encode_arm_ref),
            started_arm: started_arm.map(u32::from),
        }),
        Event::TileDrawn { seat, tile } => Kind::TileDrawn(proto::TileDrawn {
            seat: u32::from(*seat),
            tile: tile.map(encode_tile),
        }),
        Event::Passed { seat } => Kind::Passed(proto::Passed {
            seat: u32::from(*seat),
        }),
        Event::PointsScored {
            side,
            seat,
            points,
            reason,
        } => Kind::PointsScored(proto::PointsScored {
            side: u32::from(*side),
            earned_by: {
                use proto::points_scored::EarnedBy as Field;
                earned_by(
                    *seat,
                    *reason,
                    &EarnedBy {
                        placer: Field::Placer,
                        ended_by: Field::EndedBy,
                        holder: Field::Holder,
                        bidder: Field::Bidder,
                    },
                )
            },
            points: *points,
            reason: encode_reason(*reason),
        }),
        Event::PointsVoided {
            side,
            seat,
            points,
            reason,
        } => Kind::PointsVoided(proto::PointsVoided {
            side: u32::from(*side),
            earned_by: {
                use proto::points_voided::EarnedBy as Field;
                earned_by(
                    *seat,
                    *reason,
                    &EarnedBy {
                        placer: Field::Placer,
                        ended_by: Field::EndedBy,
                        holder: Field::Holder,
                        bidder: Field::Bidder,
                    },
                )
            },
            points: *points,
            reason: encode_reason(*reason),
        }),
        Event::HandEnded { .. } => Kind::HandEnded(encode_hand_ended(event, geometry)),
        Event::HandDealt {
            hand,
            leader,
            required_lead,
        } => Kind::HandDealt(proto::HandDealt {
            hand: *hand,
            leader: u32::from(*leader),
            required_lead: required_lead.map(encode_tile),
        }),
        Event::MatchEnded {
            outcome,
            scores,
            ranking,
        } => Kind::MatchEnded(proto::MatchEnded {
            result: Some(encode_outcome(*outcome)),
            scores: scores.clone(),
            ranking: ranking.iter().copied().map(u32::from).collect(),
        }),
        Event::MarkerRaised { seat } => Kind::MarkerRaised(proto::MarkerRaised {
            seat: u32::from(*seat),
        }),
        Event::MarkerLowered { seat } => Kind::MarkerLowered(proto::MarkerLowered {
            seat: u32::from(*seat),
        }),
        Event::DoubleSatisfied {
            seat,
            train,
            double,
        } => Kind::DoubleSatisfied(proto::DoubleSatisfied {
            seat: u32::from(*seat),
            train: Some(encode_train(*train)),
            double: Some(encode_tile(*double)),
        }),
        Event::TurnEnded { seat } => Kind::TurnEnded(proto::TurnEnded {
            seat: u32::from(*seat),
        }),
        Event::FootCompleted { seat, arm } => Kind::FootCompleted(proto::FootCompleted {
            seat: u32::from(*seat),
            arm: u32::from(*arm),
        }),
        Event::BidMade { seat, bid } => Kind::BidMade(proto::BidMade {
            seat: u32::from(*seat),
            bid: Some(encode_bid(*bid)),
        }),
        Event::AuctionWon {
            seat,
            bid,
            declarer,
        } => Kind::AuctionWon(proto::AuctionWon {
            seat: u32::from(*seat),
            bid: Some(encode_bid(*bid)),
            declarer: u32::from(*declarer),
        }),
        Event::ContractNamed { seat, contract } => Kind::ContractNamed(proto::ContractNamed {
            seat: u32::from(*seat),
            contract: Some(encode_contract(*contract)),
        }),
        Event::WidowTaken { seat, tile } => Kind::WidowTaken(proto::WidowTaken {
            seat: u32::from(*seat),
            tile: tile.map(encode_tile),
        }),
        Event::Discarded { seat, tile } => Kind::Discarded(proto::Discarded {
            seat: u32::from(*seat),
            tile: tile.map(encode_tile),
        }),
        Event::TrickPlayed { seat, tile } => Kind::TrickPlayed(proto::TrickPlayed {
            seat: u32::from(*seat),
            tile: Some(encode_tile(*tile)),
        }),
        Event::TrickWon {
            seat,
            leader,
            tiles,
            points,
        } => Kind::TrickWon(proto::TrickWon {
            seat: u32::from(*seat),
            leader: u32::from(*leader),
            tiles: tiles.iter().copied().map(encode_tile).collect(),
            points: u32::from(*points),
        }),
        Event::HandDecided {
            bidder,
            verdict,
            taken,
        } => Kind::HandDecided(proto::HandDecided {
            bidder: u32::from(*bidder),
            made: *verdict == Verdict::Made,
            bidders_tricks: u32::from(taken.bidders_tricks),
            bidders_points: u32::from(taken.bidders_points),
            others_tricks: u32::from(taken.others_tricks),
            others_points: u32::from(taken.others_points),
        }),
    };
    proto::Event {
        kind: Some(kind),
        token: crate::rules::notation::action_of(event)
            .map(|action| crate::rules::notation::token(action).to_string())
            .unwrap_or_default(),
    }
}

/// Moves, ready to be sent back.
fn encode_moves(moves: Vec<Move>) -> Vec<proto::Move> {
    moves.into_iter().map(encode_move).collect()
}

/// The legal moves to show: all of them, or only a `viewer`'s own.
fn legal_moves_for(game: &Game, viewer: Option<View<'_>>) -> Vec<proto::Move> {
    encode_moves(match viewer {
        Some(view) => view.legal_moves(),
        None => game.legal_moves(),
    })
}

/// The seat to act, while the match goes on.
fn seat_to_act(game: &Game) -> Option<u32> {
    game.outcome().is_none().then(|| u32::from(game.to_act()))
}

/// Events as a `viewer` sees them (all of them for none).
#[must_use]
pub fn encode_events(events: &[Event], game: &Game, viewer: Option<Seat>) -> Vec<proto::Event> {
    let geometry = game.geometry();
    match viewer {
        Some(seat) => events
            .iter()
            .map(|event| encode_event(&event.seen_by(seat), geometry))
            .collect(),
        None => events
            .iter()
            .map(|event| encode_event(event, geometry))
            .collect(),
    }
}

/// What an answer to `NewGame`, `Play` or `Replay` says of the game after
/// it: the seat to act, its legal moves (for a `viewer`, only when it is
/// to act) and the match digest. The state itself (readable or a token) is
/// the caller's to add.
#[derive(Clone, Debug, Default)]
pub struct Outlook {
    /// The seat to act, while the match goes on.
    pub to_act: Option<u32>,
    /// Its legal moves, ready to be sent back.
    pub legal_moves: Vec<proto::Move>,
    /// The match digest.
    pub match_digest: Vec<u8>,
}

/// The game's [`Outlook`] for `viewer` (everything for none).
#[must_use]
pub fn encode_outlook(game: &Game, viewer: Option<Seat>) -> Outlook {
    Outlook {
        to_act: seat_to_act(game),
        legal_moves: legal_moves_for(game, viewer.and_then(|seat| game.view(seat))),
        match_digest: game.digest().0.to_vec(),
    }
}

/// The answer to `LegalMoves` (for a `viewer`, only when it is to act).
#[must_use]
pub fn encode_legal_moves(game: &Game, viewer: Option<Seat>) -> proto::LegalMovesResponse {
    proto::LegalMovesResponse {
        seat: seat_to_act(game),
        legal_moves: legal_moves_for(game, viewer.and_then(|seat| game.view(seat))),
    }
}

/// What one seat may know, as `View` answers it.
#[must_use]
pub fn encode_view(view: View<'_>) -> proto::ViewResponse {
    let players = view.players();
    proto::ViewResponse {
        seat: u32::from(view.seat()),
        variant: view.variant().to_owned(),
        rules: Some(encode_rules(view.rules())),
        players: u32::from(players),
        side_of_seat: (0..players).map(|s| u32::from(view.side_of(s))).collect(),
        hand_number: view.hand_number(),
        hand: view.hand().iter().map(encode_tile).collect(),
        hand_sizes: (0..players).map(|s| view.hand_size(s)).collect(),
        boneyard_size: u32::try_from(view.boneyard_len()).unwrap_or(u32::MAX),
        // (A trick game has no layout.)
        layout: view
            .trick_hand()
            .is_none()
            .then(|| encode_layout(view.layout(), view.rules().geometry())),
        scores: view.scores().to_vec(),
        phase: encode_phase(view.outcome()),
        to_act: view.to_act().map(u32::from),
        hand_leader: u32::from(view.hand_leader()),
        required_lead: view.required_lead().map(encode_tile),
        result: view.outcome().map(encode_outcome),
        history: view
            .history()
            .map(|entry| encode_entry_for(&entry, Some(view.seat())))
            .collect(),
        legal_moves: encode_moves(view.legal_moves()),
        match_digest: view.digest().0.to_vec(),
        trains: view.trains().map(encode_train_table),
        foot: view.foot().map(encode_foot_table),
        tricks: view
            .trick_hand()
            .map(|hand| encode_trick_table(hand, false)),
    }
}
