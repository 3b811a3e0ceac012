//! What a seat knows of the hidden tiles, and complete deals sampled
//! consistently with it (determinization, for computer opponents).
//!
//! A seat knows its own hand and draws, the table, and the current hand's
//! public history: every play, pass and draw (not the tile drawn), so the
//! hand sizes and the boneyard's size. What follows from it: a seat that
//! drew or passed held no tile that fitted the open ends at that moment.
//!
//! [`View::knowledge`] follows the hand's history once, keeping for each
//! other seat one *slot* per tile it was dealt or drew: a slot is resolved
//! when its tile is played, and each draw or pass marks the tiles fitting
//! the then-open ends as impossible in every slot the seat then held. (A
//! tile played is taken from the earliest slot that allows it; since a
//! slot's impossible tiles only grow while it is held, earlier slots rule
//! out more, and this choice keeps every deal some other choice allows.
//! At a train table a seat may also have surely held a tile of some set
//! in one of some slots (its opening chain went on): a tile played that
//! is of the set comes from one of those slots, and any other leaves the
//! last free one of them free.)
//!
//! [`Knowledge::sample`] deals the unknown tiles into the open slots
//! (other seats' hands) and the boneyard, most constrained slot first, and
//! keeps the deal only if replaying the hand's public history from the
//! start with it is legal: every observed play held, every draw and pass
//! forced, the lead the one the rules force. A consistent deal is thus a
//! deal whose replay is legal, exactly.

use rand::RngExt;
use rand::seq::SliceRandom;

use super::deal::{MAX_SEATS, forced_lead_for, outranking};
use super::end::End;
use super::foot::{Foot, FootPlace};
use super::game::{Game, HistoryEntry};
use super::layout::Layout;
use super::moves::{Action, Seat};
use super::options::NextLeadRule;
use super::place::Place;
use super::setup::Setup;
use super::table::Table;
use super::tile::{Tile, TileSet};
use super::train_game::{AfterPlacement, TurnState, own_train_tiles};
use super::trains::{TrainId, Trains};
use super::tricks::auction::Bidding;
use super::tricks::deal::tile_set as trick_tiles;
use super::tricks::hand::TrickHand;
use super::tricks::knowledge::{played_tiles, voids_in};
use super::view::View;

/// Attempts [`Knowledge::sample`] makes before giving up.
pub const SAMPLE_ATTEMPTS: usize = 400;

/// A tile another seat was dealt or drew this hand.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The seat holding it.
    seat: Seat,
    /// Tiles it cannot be (they fitted the ends when its holder drew or
    /// passed, or they are known elsewhere).
    impossible: TileSet,
    /// The tile, once played.
    tile: Option<Tile>,
}

/// Where a tile of the hand's start came from, in the boneyard's order.
#[derive(Clone, Copy, Debug)]
enum Drawn {
    /// The seat's own draw: it knows the tile.
    Own(Tile),
    /// Another seat's draw: the slot it filled.
    Slot(usize),
}

/// One seat's knowledge of a game's hidden tiles.
#[derive(Clone, Debug)]
pub struct Knowledge<'a> {
    /// The view it is of.
    view: View<'a>,
    /// The tiles the seat cannot see: in other hands or the boneyard.
    unknown: TileSet,
    /// Every other seat's slots, dealt ones first, then drawn ones.
    slots: Vec<Slot>,
    /// Each other seat's dealt slots (indices into `slots`), by seat.
    dealt: [Vec<usize>; MAX_SEATS],
    /// The hand's draws in order.
    draws: Vec<Drawn>,
    /// The seat's own tiles at the hand's start.
    own_start: TileSet,
    /// Whether the history covers the whole hand (else only sizes are
    /// known, and deals are not checked by replay).
    complete: bool,
    /// What some seats surely held: one of the slots listed held a tile of
    /// the set (a train table's chain went on, so its seat held a tile for
    /// its own train). A deal is sampled with each of these met first.
    needs: Vec<(Vec<usize>, TileSet)>,
}

impl<'a> View<'a> {
    /// What this seat knows of the hidden tiles.
    #[must_use]
    pub fn knowledge(&self) -> Knowledge<'a> {
        Knowledge::of(*self)
    }
}

impl<'a> Knowledge<'a> {
    /// Follows the hand's public history (see the module's documentation).
    fn of(view: View<'a>) -> Knowledge<'a> {
        let game = view.game();
        let me = view.seat();
        let players = game.players();
        let rules = game.rules();
        let on_table: TileSet = match game.table() {
            Some(table) => table.tiles(),
            None => game.layout().tiles().collect(),
        };
        let unknown = rules.tile_set().minus(view.hand()).minus(on_table);
        let mut knowledge = Knowledge {
            view,
            unknown,
            slots: Vec::with_capacity(
                usize::from(rules.hand_size) * usize::from(players) + game.boneyard_len(),
            ),
            dealt: Default::default(),
            draws: Vec::new(),
            own_start: view.hand(),
            complete: false,
            needs: Vec::new(),
        };
        if let Some(hand) = game.trick_hand() {
            knowledge.follow_tricks(hand);
            return knowledge;
        }
        let history = game.history();
        let plays = history
            .iter()
            .filter(|e| matches!(e.mv.action, Action::Play { .. }))
            .count();
        // A history from the hand's lead on (every state pips writes has
        // one); a position set up by hand may lack it.
        let starts_at_lead = matches!(
            history.first(),
            Some(HistoryEntry {
                mv: crate::rules::Move {
                    action: Action::Play {
                        place: Place::LEAD,
                        ..
                    },
                    ..
                },
                ..
            })
        );
        let complete = match game.table() {
            // Every tile on the trains or the foot was placed in the
            // history.
            Some(Table::Trains(trains)) => plays == trains.len(),
            Some(Table::Foot(foot)) => plays == foot.len(),
            None => {
                (history.is_empty() && game.layout().is_empty())
                    || (starts_at_lead && plays == game.layout().len())
            }
        };
        let hand_size = usize::from(rules.hand_size);
        // The dealt slots.
        for seat in (0..players).filter(|&s| s != me) {
            knowledge.dealt[usize::from(seat)].reserve(hand_size);
            for _ in 0..hand_size {
                knowledge.dealt[usize::from(seat)].push(knowledge.slots.len());
                knowledge.slots.push(Slot {
                    seat,
                    impossible: TileSet::EMPTY,
                    tile: None,
                });
            }
        }
        if !complete {
            knowledge.fallback();
            return knowledge;
        }
        // A forced lead says what was not dealt: no seat held a tile the
        // rule would have forced before the one led (or, before the lead,
        // the one this seat must lead).
        let forced = lead_was_forced(view);
        let led = match history.first() {
            Some(HistoryEntry {
                mv:
                    crate::rules::Move {
                        action: Action::Play { tile, .. },
                        ..
                    },
                ..
            }) => Some(*tile),
            Some(_) => None,
            None => view.required_lead(),
        };
        if let (true, Some(led)) = (forced, led) {
            let outranks = outranking(rules.first_lead, led, rules.tile_set());
            for slot in &mut knowledge.slots {
                slot.impossible = slot.impossible.or(outranks);
            }
        }
        let geometry = rules.geometry();
        let connect = rules.connect;
        let mut layout = Layout::with_capacity(on_table.len() as usize);
        // At a train table or a chicken foot, the table as the round's
        // moves built it.
        let mut table = game.trains().map(Trains::at_start);
        let mut foot = game.foot().map(Foot::at_start);
        let mut held: [Vec<usize>; MAX_SEATS] = knowledge.dealt.clone();
        // The seat's own tiles at the start: those it holds or played, but
        // not those it drew.
        let (mut own_played, mut own_drawn) = (TileSet::EMPTY, TileSet::EMPTY);
        // At a train table, the turn as the moves show it: whether a chain
        // ended by itself says the seat held no tile for its own train.
        let (mut turn, mut drew) = (TurnState::default(), false);
        for (index, entry) in history.iter().enumerate() {
            let seat = entry.mv.seat;
            let other = seat != me && seat < players;
            match entry.mv.action {
                Action::Play { tile, place } => {
                    if seat == me {
                        own_played.insert(tile);
                    } else if other {
                        let slots = &mut held[usize::from(seat)];
                        let Some(at) = knowledge.pin(slots, tile) else {
                            knowledge.fallback();
                            return knowledge;
                        };
                        let slot = slots.remove(at);
                        knowledge.slots[slot].tile = Some(tile);
                    }
                    if let Some(foot) = &mut foot {
                        foot.place(tile, place.foot().unwrap_or(FootPlace::NewArm));
                        continue;
                    }
                    let Some(table) = &mut table else {
                        layout.place(tile, place.end(), geometry);
                        continue;
                    };
                    let train = place.train().unwrap_or(TrainId::Seat(seat));
                    let unsatisfied = table.unsatisfied().is_some();
                    let opens =
                        turn.opens_chain(rules.opening_chain, drew, unsatisfied, seat, train);
                    let placed = table.place(tile, train, seat);
                    let after = turn.place(opens, drew, placed.double_placed);
                    if after == AfterPlacement::CoverDouble {
                        drew = false;
                        continue;
                    }
                    let next = history.get(index + 1).map_or(game.to_act(), |e| e.mv.seat);
                    if next == seat {
                        if after == AfterPlacement::ChainIfOwnTile && other {
                            // The chain went on: it held a tile for its train.
                            let held_now = held[usize::from(seat)].clone();
                            knowledge
                                .needs
                                .push((held_now, own_train_tiles(table, seat)));
                        }
                        continue;
                    }
                    if after == AfterPlacement::ChainIfOwnTile && other {
                        // The chain ended by itself: no tile for its train.
                        let lacked = own_train_tiles(table, seat);
                        for &i in &held[usize::from(seat)] {
                            knowledge.slots[i].impossible =
                                knowledge.slots[i].impossible.or(lacked);
                        }
                    }
                    turn.end(seat);
                    drew = false;
                }
                // Ending a chain says nothing of what the seat holds.
                Action::EndTurn => {
                    turn.end(seat);
                    drew = false;
                }
                Action::Draw | Action::Pass => {
                    if other {
                        // What the seat could have placed: it held none.
                        let fitting = match (&table, &foot) {
                            (Some(table), _) => table.fitting(seat, false),
                            (None, Some(foot)) => foot.fitting(),
                            (None, None) => End::ALL
                                .into_iter()
                                .filter_map(|end| layout.open_end(end))
                                .fold(TileSet::EMPTY, |set, pips| set.or(connect.fitting(pips))),
                        };
                        for &i in &held[usize::from(seat)] {
                            knowledge.slots[i].impossible =
                                knowledge.slots[i].impossible.or(fitting);
                        }
                    }
                    match entry.mv.action {
                        Action::Pass => {
                            if let Some(table) = &mut table {
                                table.raise_marker(seat);
                            }
                            turn.end(seat);
                            drew = false;
                        }
                        _ => drew = true,
                    }
                    if entry.mv.action == Action::Draw {
                        if seat == me {
                            let Some(tile) = entry.drawn else {
                                knowledge.fallback();
                                return knowledge;
                            };
                            own_drawn.insert(tile);
                            knowledge.draws.push(Drawn::Own(tile));
                        } else if other {
                            held[usize::from(seat)].push(knowledge.slots.len());
                            knowledge.draws.push(Drawn::Slot(knowledge.slots.len()));
                            knowledge.slots.push(Slot {
                                seat,
                                impossible: TileSet::EMPTY,
                                tile: None,
                            });
                        }
                    }
                }
                // A trick game's history (its knowledge is its own, to come):
                // nothing learnt, and the sizes below cannot agree.
                Action::Bid(_) | Action::Name(_) | Action::Discard(_) | Action::Trick(_) => {
                    knowledge.fallback();
                    return knowledge;
                }
            }
        }
        let open = knowledge.slots.iter().filter(|s| s.tile.is_none()).count();
        let sizes_agree = open + view.boneyard_len() == unknown.len() as usize
            && (0..players)
                .filter(|&s| s != me)
                .all(|s| held[usize::from(s)].len() == view.hand_size(s) as usize);
        if !sizes_agree {
            knowledge.fallback();
            return knowledge;
        }
        knowledge.own_start = view.hand().or(own_played).minus(own_drawn);
        knowledge.complete = true;
        knowledge
    }

    /// Which of a seat's `held` slots (a position in it) a tile it played
    /// came from: the earliest that allows the tile (see the module's
    /// documentation), but with what the seat surely held in mind. A tile
    /// of a set the seat surely held in one of some slots, none of them
    /// yet known to hold one, comes from one of those slots; any other
    /// tile leaves the last free one of them free. (Taking the earliest
    /// slot regardless could take every slot a need lists for tiles that
    /// were drawn later, and no deal would then meet the need.) `None`
    /// when no held slot allows the tile.
    fn pin(&self, held: &[usize], tile: Tile) -> Option<usize> {
        let allows = |i: usize| !self.slots[i].impossible.contains(tile);
        let open_needs = || {
            self.needs.iter().filter(|(slots, set)| {
                !slots
                    .iter()
                    .any(|&i| self.slots[i].tile.is_some_and(|t| set.contains(t)))
            })
        };
        // A need this tile meets: it came from one of its slots.
        for (slots, set) in open_needs() {
            if set.contains(tile)
                && let Some(at) = held.iter().position(|i| allows(*i) && slots.contains(i))
            {
                return Some(at);
            }
        }
        // Otherwise the earliest slot that leaves every open need a free
        // slot; failing that, the earliest (the replay then decides).
        let keeps_needs = |i: usize| {
            open_needs().all(|(slots, set)| {
                set.contains(tile)
                    || !slots.contains(&i)
                    || slots
                        .iter()
                        .any(|&j| j != i && self.slots[j].tile.is_none())
            })
        };
        held.iter()
            .position(|&i| allows(i) && keeps_needs(i))
            .or_else(|| held.iter().position(|&i| allows(i)))
    }

    /// At a trick game: one slot per tile each other seat holds now, each
    /// ruling out what the play showed the seat lacks; the unknown tiles
    /// are the set's less the seat's own and those played (and, for Moon's
    /// bidder, the tile he laid away). What is left over once the hands
    /// are dealt is Moon's widow, or the discard of another seat.
    fn follow_tricks(&mut self, hand: &TrickHand) {
        let game = self.view.game();
        let me = self.view.seat();
        let moon = hand.rules().bidding == Bidding::Moon;
        let played: TileSet = played_tiles(game.history().iter().copied());
        let bidder = hand.auction().standing().map(|(seat, _)| seat);
        let mut unknown = trick_tiles(moon).minus(self.view.hand()).minus(played);
        if let (Some(discard), true) = (hand.discard(), bidder == Some(me)) {
            unknown.remove(discard);
        }
        self.unknown = unknown;
        let voids = voids_in(hand, game.history().iter().copied());
        self.slots.clear();
        self.dealt = Default::default();
        for seat in (0..game.players()).filter(|&s| s != me) {
            let impossible = voids.get(usize::from(seat)).copied().unwrap_or_default();
            for _ in 0..self.view.hand_size(seat) {
                self.dealt[usize::from(seat)].push(self.slots.len());
                self.slots.push(Slot {
                    seat,
                    impossible,
                    tile: None,
                });
            }
        }
        self.complete = true;
    }

    /// One attempt at a trick game's consistent deal: the other seats'
    /// hands dealt within what the play showed, the tile left over Moon's
    /// widow (or the discard another seat laid away), the widow once taken
    /// one of its bidder's tiles; the game built from it by the checked
    /// constructor, which replays the hand (so a plunge needs its doubles,
    /// every tile followed as it must), its seed then replaced.
    fn attempt_tricks<R: RngExt + ?Sized>(&self, hand: &TrickHand, rng: &mut R) -> Option<Game> {
        let game = self.view.game();
        let me = self.view.seat();
        let mut open: Vec<usize> = (0..self.slots.len()).collect();
        open.shuffle(rng);
        open.sort_by_key(|&i| self.unknown.minus(self.slots[i].impossible).len());
        let mut left = self.unknown;
        let mut hands = [TileSet::EMPTY; MAX_SEATS];
        hands[usize::from(me)] = self.view.hand();
        for &i in &open {
            let slot = self.slots[i];
            let allowed = left.minus(slot.impossible);
            let count = allowed.len();
            if count == 0 {
                return None;
            }
            let tile = allowed.iter().nth(rng.random_range(0..count as usize))?;
            left.remove(tile);
            hands[usize::from(slot.seat)].insert(tile);
        }
        let mut setup = Setup::from(game);
        setup.hands = (0..game.players())
            .map(|seat| hands[usize::from(seat)].iter().collect())
            .collect();
        let bidder = hand.auction().standing().map(|(seat, _)| seat);
        let spare = left.iter().next();
        match (setup.widow, hand.widow()) {
            // Texas 42: every tile is in a hand or played.
            (None, _) if !left.is_empty() => return None,
            (None, _) => {}
            // Moon's widow, untaken: the tile left over.
            (Some(_), Some(_)) => setup.widow = spare,
            // Taken, by another seat: the discard, if laid away, is the tile
            // left over, and the widow one of the bidder's tiles.
            (Some(_), None) if bidder != Some(me) => {
                let bidder = bidder?;
                let mut candidates = hands[usize::from(bidder)];
                for entry in &mut setup.history {
                    match &mut entry.mv.action {
                        Action::Discard(tile) => {
                            *tile = spare?;
                            candidates.insert(*tile);
                        }
                        Action::Trick(tile) if entry.mv.seat == bidder => {
                            candidates.insert(*tile);
                        }
                        _ => {}
                    }
                }
                let count = candidates.len();
                setup.widow = candidates
                    .iter()
                    .nth(rng.random_range(0..count.max(1) as usize));
            }
            // Taken by this seat, who knows it and his discard.
            (Some(_), None) => {}
        }
        let mut sampled = Game::from_setup(setup).ok()?;
        sampled.reseed(rng.random());
        Some(sampled)
    }

    /// Without a usable history: one open slot per tile each other seat
    /// holds now, and nothing more known.
    fn fallback(&mut self) {
        let game = self.view.game();
        self.slots.clear();
        self.dealt = Default::default();
        self.draws.clear();
        for seat in (0..game.players()).filter(|&s| s != self.view.seat()) {
            for _ in 0..self.view.hand_size(seat) {
                self.dealt[usize::from(seat)].push(self.slots.len());
                self.slots.push(Slot {
                    seat,
                    impossible: TileSet::EMPTY,
                    tile: None,
                });
            }
        }
        self.complete = false;
        self.needs.clear();
    }

    /// The tiles `seat` surely does not hold now: those every tile it holds
    /// was ruled out as (for the seat itself, every tile it does not hold).
    #[must_use]
    pub fn surely_not_held(&self, seat: Seat) -> TileSet {
        if seat == self.view.seat() {
            return self.view.rules().tile_set().minus(self.view.hand());
        }
        let mut open = self
            .slots
            .iter()
            .filter(|slot| slot.seat == seat && slot.tile.is_none())
            .peekable();
        if open.peek().is_none() {
            return self.view.rules().tile_set();
        }
        let not_unknown = self.view.rules().tile_set().minus(self.unknown);
        open.fold(self.view.rules().tile_set(), |all, slot| {
            all.and(slot.impossible)
        })
        .or(not_unknown)
    }

    /// A complete game consistent with this knowledge: the other seats'
    /// hands and the boneyard's order sampled, the seed replaced (the deals
    /// of later hands are as unknown as the boneyard), everything the seat
    /// sees unchanged. `None` when no consistent deal was found in
    /// [`SAMPLE_ATTEMPTS`] attempts (the true deal always is one, so this
    /// is rare).
    pub fn sample<R: RngExt + ?Sized>(&self, rng: &mut R) -> Option<Game> {
        (0..SAMPLE_ATTEMPTS).find_map(|_| self.attempt(rng))
    }

    /// One attempt at a consistent deal.
    fn attempt<R: RngExt + ?Sized>(&self, rng: &mut R) -> Option<Game> {
        if let Some(hand) = self.view.game().trick_hand() {
            return self.attempt_tricks(hand, rng);
        }
        // Open slots, most constrained first (ties in random order).
        let mut open: Vec<usize> = (0..self.slots.len())
            .filter(|&i| self.slots[i].tile.is_none())
            .collect();
        open.shuffle(rng);
        open.sort_by_key(|&i| self.unknown.minus(self.slots[i].impossible).len());
        let mut left = self.unknown;
        let mut tiles: Vec<Option<Tile>> = self.slots.iter().map(|s| s.tile).collect();
        // What a seat surely held first: one of its slots (at random) gets
        // a tile of the set, unless one already has one.
        for (slots, set) in &self.needs {
            if slots
                .iter()
                .any(|&i| tiles[i].is_some_and(|tile| set.contains(tile)))
            {
                continue;
            }
            // (Which slot a played tile filled is a guess, so a need may
            // find its slots filled otherwise: the replay then decides.)
            let free: Vec<usize> = slots
                .iter()
                .copied()
                .filter(|&i| tiles[i].is_none())
                .collect();
            if free.is_empty() {
                continue;
            }
            let i = free[rng.random_range(0..free.len())];
            let allowed = left.and(*set).minus(self.slots[i].impossible);
            let count = allowed.len();
            if count == 0 {
                continue;
            }
            let tile = allowed.iter().nth(rng.random_range(0..count as usize))?;
            left.remove(tile);
            tiles[i] = Some(tile);
        }
        let open: Vec<usize> = open.into_iter().filter(|&i| tiles[i].is_none()).collect();
        for &i in &open {
            let allowed = left.minus(self.slots[i].impossible);
            let count = allowed.len();
            if count == 0 {
                return None;
            }
            let tile = allowed.iter().nth(rng.random_range(0..count as usize))?;
            left.remove(tile);
            tiles[i] = Some(tile);
        }
        let mut boneyard: Vec<Tile> = left.iter().collect();
        boneyard.shuffle(rng);
        let game = self.view.game();
        let players = game.players();
        let me = self.view.seat();
        let mut hands = [TileSet::EMPTY; MAX_SEATS];
        hands[usize::from(me)] = self.view.hand();
        for (slot, tile) in self.slots.iter().zip(&tiles) {
            if let (None, Some(tile)) = (slot.tile, tile) {
                hands[usize::from(slot.seat)].insert(*tile);
            }
        }
        let mut sampled = game.clone();
        sampled.hands = hands;
        // (Drawing pops from the back: the next tile to draw is last.)
        sampled.boneyard = boneyard.iter().rev().copied().collect();
        sampled.reseed(rng.random());
        // A state names every draw of the hand (its history is replayed to
        // check it), so each of the other seats' draws names the tile the
        // sample gave it.
        let mut draws = self.draws.iter();
        for entry in &mut sampled.history {
            let drawn = if entry.mv.action == Action::Draw {
                draws.next()
            } else {
                None
            };
            if entry.mv.seat != me {
                entry.drawn = match drawn {
                    Some(&Drawn::Slot(i)) => tiles.get(i).copied().flatten(),
                    _ => None,
                };
            }
        }
        if self.complete && !self.replays(&tiles, &boneyard, players) {
            return None;
        }
        Some(sampled)
    }

    /// Whether the hand's public history replays legally from the start
    /// the slot tiles `tiles` and the rest of the boneyard `rest` make.
    fn replays(&self, tiles: &[Option<Tile>], rest: &[Tile], players: u8) -> bool {
        let game = self.view.game();
        let me = self.view.seat();
        let mut start = [TileSet::EMPTY; MAX_SEATS];
        start[usize::from(me)] = self.own_start;
        for seat in (0..players).filter(|&s| s != me) {
            for &i in &self.dealt[usize::from(seat)] {
                if let Some(tile) = tiles[i] {
                    start[usize::from(seat)].insert(tile);
                }
            }
        }
        // The boneyard at the start: the hand's draws, then what is left.
        let mut order: Vec<Tile> = Vec::with_capacity(self.draws.len() + rest.len());
        for drawn in &self.draws {
            match *drawn {
                Drawn::Own(tile) => order.push(tile),
                Drawn::Slot(i) => order.extend(tiles[i]),
            }
        }
        order.extend_from_slice(rest);
        let rules = *game.rules();
        let forced = lead_was_forced(self.view);
        let required_lead = match forced_lead_for(rules.first_lead, &start[..usize::from(players)])
        {
            Some((seat, tile)) if forced => {
                if seat != game.hand_leader() {
                    return false;
                }
                Some(tile)
            }
            _ => None,
        };
        let mut replay = game.clone();
        replay.boneyard = order.into_iter().rev().collect();
        rewind(&mut replay, start, required_lead);
        for entry in game.history() {
            if replay.check(entry.mv).is_err() || replay.hand_number != game.hand_number() {
                return false;
            }
            replay.play_unchecked(entry.mv);
        }
        replay.hand_number == game.hand_number()
            && (0..players).all(|s| s == me || replay.hand(s).len() == game.hand(s).len())
    }
}

/// Turns `replay` (a copy of a game, its boneyard already as the hand
/// started) back to its hand's start, the hands `start`, the lead forced
/// to `required_lead`: the current hand's history is to be replayed on it.
/// Scores cannot make a move illegal; its target is out of reach, so that
/// the replayed hand cannot end the match.
fn rewind(replay: &mut Game, start: [TileSet; MAX_SEATS], required_lead: Option<Tile>) {
    replay.hands = start;
    replay.family = replay.family.rewound();
    replay.to_act = replay.hand_leader;
    replay.required_lead = required_lead;
    replay.drew_this_turn = false;
    replay.outcome = None;
    replay.history.clear();
    replay.rules.target = u32::MAX;
}

impl Game {
    /// This complete game (a sampled deal, say) as its current hand
    /// started, at a line where nobody has drawn in the hand: every seat
    /// holds its tiles and those it has played. Its target is out of reach
    /// and its lead is not forced (see `rewind`): it is for replaying
    /// the hand's history, move by move, unchecked (a search weighing how
    /// likely a deal makes the moves seen). `None` at another table or
    /// after a draw.
    #[must_use]
    pub fn hand_start(&self) -> Option<Game> {
        if self.table().is_some()
            || self
                .history
                .iter()
                .any(|entry| entry.mv.action == Action::Draw)
        {
            return None;
        }
        let mut start = self.hands;
        for entry in &self.history {
            if let Action::Play { tile, .. } = entry.mv.action {
                start.get_mut(usize::from(entry.mv.seat))?.insert(tile);
            }
        }
        // (No draw: the boneyard is as the hand started.)
        let mut replay = self.clone();
        rewind(&mut replay, start, None);
        Some(replay)
    }
}

/// Whether the hand's lead is known to be the one its rule forces: in the
/// first hand, under first-lead rules, or while this seat holds a forced
/// lead still to be played. (After a blocked hand, winner-else-first-lead
/// rules force the next lead too, but a later state does not say which
/// hand was blocked.)
fn lead_was_forced(view: View<'_>) -> bool {
    let game = view.game();
    game.hand_number() == 1
        || game.rules().next_lead == NextLeadRule::FirstLead
        || (game.history().is_empty() && view.required_lead().is_some())
}
