//! The `TableService` RPCs: a table created with its seats, a seat (or the
//! public view) opened by its link, a move played at the table's move
//! number, the next match, the record of a match played. Every move is refereed by the engine exactly as `Play` does,
//! on the state read back through the checked constructor (a stored state
//! is never trusted), and committed before it is answered.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use prost::Message as _;

use crate::bots::Level;
use crate::proto::{self, ErrorReason};
use crate::rules::{Event, Game, Move, Seat};
use crate::service::ApiError;
use crate::service::codec::{
    decode_move, decode_packed, encode_events, encode_move, encode_packed, encode_rules,
    encode_view,
};

use super::Tables;
use super::batch;
use super::limits;
use super::link::{Link, table_id};
use super::live::Change;
use super::networks::{Networks, Width};
use super::settings::Settings;
use super::store::{Created, MoveRow, NewTable, Rematch, SeatRow, Shares, TableRow, WATCH_SEAT};
use super::turn::{NextTurn, due_after, next_turn};

/// A seat kind as stored: a person's.
pub const PERSON: &str = "person";
/// A seat kind as stored: a computer player's.
pub const COMPUTER: &str = "computer";

/// Whom a link opens a table for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// A seat: its hand and its moves.
    Seat(Seat),
    /// The watch link: what every seat may see, acting for nobody.
    Watcher,
}

impl Viewer {
    /// The seat as stored (a watcher's: `WATCH_SEAT`).
    #[must_use]
    pub fn stored(self) -> i64 {
        match self {
            Viewer::Seat(seat) => i64::from(seat),
            Viewer::Watcher => WATCH_SEAT,
        }
    }

    /// The seat that acts, refused for a watch link (at `field`).
    fn acting(self, field: &str) -> Result<Seat, ApiError> {
        match self {
            Viewer::Seat(seat) => Ok(seat),
            Viewer::Watcher => Err(ApiError {
                code: tonic::Code::PermissionDenied,
                reason: ErrorReason::SeatNotPermitted,
                field: field.to_owned(),
                message: "a watch link acts for nobody: act with a seat's link".to_owned(),
            }),
        }
    }
}

/// Who made a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The seat's person.
    Person,
    /// A computer seat, or a person's the computer took over.
    Computer,
    /// The computer, for a person whose time ran out.
    Timeout,
}

impl By {
    /// As stored.
    fn name(self) -> &'static str {
        match self {
            By::Person => PERSON,
            By::Computer => COMPUTER,
            By::Timeout => "timeout",
        }
    }
}

/// The refusal of a rematch or a record before the match's end.
fn in_play(what: &str) -> ApiError {
    ApiError {
        code: tonic::Code::FailedPrecondition,
        reason: ErrorReason::MatchInPlay,
        field: String::new(),
        message: format!("the match is still being played: {what} comes after its end"),
    }
}

/// Now, in unix milliseconds.
pub(super) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |now| i64::try_from(now.as_millis()).unwrap_or(i64::MAX))
}

/// The refusal of a database failure (logged here, with what failed; the
/// caller hears only that the tables are unavailable).
pub(super) fn database(error: &sqlx::Error) -> ApiError {
    if let Some(more) = crate::logs::DATABASE.admit() {
        tracing::warn!(%error, more, "the tables' database failed");
    }
    ApiError {
        code: tonic::Code::Unavailable,
        reason: ErrorReason::Unspecified,
        field: String::new(),
        message: "the tables' database is unavailable; retry later".to_owned(),
    }
}

/// The refusal of a link that opens no table.
pub(super) fn not_found(field: &str) -> ApiError {
    ApiError {
        code: tonic::Code::NotFound,
        reason: ErrorReason::TableNotFound,
        field: field.to_owned(),
        message: "this link opens no table: it never did, or its table has expired".to_owned(),
    }
}

/// A stored state, read back through the checked constructor.
pub(super) fn read_state(bytes: &[u8]) -> Result<Game, ApiError> {
    let packed = proto::PackedState::decode(bytes)
        .map_err(|error| ApiError::internal(format!("a stored state does not read: {error}")))?;
    decode_packed(&packed, "state").map_err(|error| {
        ApiError::internal(format!("a stored state is refused: {}", error.message))
    })
}

/// A state as stored.
pub(super) fn write_state(game: &Game) -> Vec<u8> {
    encode_packed(game).encode_to_vec()
}

/// The level a stored computer seat plays at.
pub(super) fn level_of(name: Option<&str>) -> Level {
    name.and_then(Level::from_name).unwrap_or(Level::Greedy)
}

/// A level's stored name.
fn level_name(level: proto::BotLevel) -> &'static str {
    match level {
        proto::BotLevel::Random => "random",
        proto::BotLevel::Expert => "expert",
        proto::BotLevel::Unspecified | proto::BotLevel::Greedy => "greedy",
    }
}

/// A seat as the wire shows it.
fn seat_plan(row: &SeatRow) -> proto::SeatPlan {
    use proto::seat_plan::Who;
    let who = if row.kind == COMPUTER {
        let level = match level_of(row.level.as_deref()) {
            Level::Random => proto::BotLevel::Random,
            Level::Expert
            | Level::ExpertFlat
            | Level::ExpertPlayouts
            | Level::ExpertSolved
            | Level::ExpertUnsolved => proto::BotLevel::Expert,
            Level::Greedy => proto::BotLevel::Greedy,
        };
        Who::Computer(proto::ComputerSeat {
            level: level as i32,
        })
    } else {
        Who::Person(proto::PersonSeat {})
    };
    proto::SeatPlan { who: Some(who) }
}

/// A table as it stands, as every viewer's update is made from it: read
/// once per change, and shared by the streams watching it.
#[derive(Debug)]
pub struct Snapshot {
    /// The table as stored.
    pub table: TableRow,
    /// Its match, read back.
    game: Game,
    /// What the last move (or the deal) did, as every seat sees it.
    events: Vec<Event>,
    /// Its seats, and whether each is watched from.
    pub(super) seats: Vec<SeatRow>,
}

impl Snapshot {
    /// Its match.
    pub(super) fn game(&self) -> &Game {
        &self.game
    }
}

/// `snapshot` as `viewer` may see it.
pub(super) fn show(snapshot: &Snapshot, viewer: Viewer) -> Result<proto::TableUpdate, ApiError> {
    let Snapshot {
        table,
        game,
        events,
        seats,
    } = snapshot;
    let (view, events) = match viewer {
        Viewer::Seat(seat) => (
            game.view(seat)
                .ok_or_else(|| ApiError::internal("a stored seat is not one of its game's"))?,
            encode_events(events, game, Some(seat)),
        ),
        Viewer::Watcher => {
            let public: Vec<Event> = events.iter().map(Event::public).collect();
            (game.public_view(), encode_events(&public, game, None))
        }
    };
    let settings = Settings::from_json(&table.settings);
    // The timer shown is a person's, while it runs.
    let timed = matches!(next_turn(game, seats, settings), NextTurn::TimedPerson(_));
    Ok(proto::TableUpdate {
        table_id: table.id.clone(),
        number: u64::try_from(table.version).unwrap_or(0),
        seat: match viewer {
            Viewer::Seat(seat) => u32::from(seat),
            Viewer::Watcher => 0,
        },
        view: Some(encode_view(view)),
        events,
        seats: seats.iter().map(seat_plan).collect(),
        watching: viewer == Viewer::Watcher,
        presence: seats
            .iter()
            .map(|row| proto::SeatPresence {
                connected: row.kind == COMPUTER || row.connected,
                computer_plays: row.auto,
            })
            .collect(),
        settings: Some(settings.to_proto()),
        turn_ends_at_ms: table
            .turn_due
            .filter(|_| timed)
            .and_then(|due| u64::try_from(due).ok())
            .unwrap_or(0),
        r#match: u32::try_from(table.match_no).unwrap_or(0),
        server_time_ms: u64::try_from(now_ms()).unwrap_or(0),
    })
}

impl Tables {
    /// The table `link` opens and for whom (at `field` of the request).
    pub(super) async fn seat_of(
        &self,
        link: &str,
        field: &str,
    ) -> Result<(TableRow, Viewer), ApiError> {
        let link = Link::read(link).ok_or_else(|| not_found(field))?;
        let (table, seat) = self
            .store
            .seat_of_link(&link.hash())
            .await
            .map_err(|e| database(&e))?
            .ok_or_else(|| not_found(field))?;
        let viewer = if seat == WATCH_SEAT {
            Viewer::Watcher
        } else {
            Viewer::Seat(Seat::try_from(seat).map_err(|_| not_found(field))?)
        };
        Ok((table, viewer))
    }

    /// Where `table` stands for `viewer`: its view, and what the last move
    /// (or the deal) did, as the seat (or a watcher) may see them; who
    /// sits where and is there; the timer.
    pub(super) async fn update(
        &self,
        table: &TableRow,
        viewer: Viewer,
    ) -> Result<proto::TableUpdate, ApiError> {
        show(&self.snapshot(table.clone()).await?, viewer)
    }

    /// What every viewer's update of `table` is made from, read once.
    pub(super) async fn snapshot(&self, table: TableRow) -> Result<Snapshot, ApiError> {
        let game = read_state(&table.state)?;
        let last = self
            .store
            .last_move(&table.id, table.match_no)
            .await
            .map_err(|e| database(&e))?;
        let events = match last {
            Some((last, before)) => last_events(&last, &before)?,
            None => vec![Event::HandDealt {
                hand: game.hand_number(),
                leader: game.hand_leader(),
                required_lead: game.required_lead(),
            }],
        };
        let seats = self.seat_rows(&table.id).await?;
        Ok(Snapshot {
            table,
            game,
            events,
            seats,
        })
    }

    /// Commits `mv`, made on `table` (whose seats are `seats`) as it
    /// stands and leaving `after` with `events`, by `by`: the table as it
    /// now stands, which its watchers here are shown without reading it
    /// again, or `None` when another move came first. A person's move takes their seat back
    /// from the computer; a timeout hands it over (unless the table's
    /// computer plays one move only). The next turn's due time is set.
    pub(super) async fn commit(
        &self,
        table: &TableRow,
        seats: &[SeatRow],
        mv: Move,
        (after, events): (Game, Vec<Event>),
        by: By,
    ) -> Result<Option<Arc<Option<Snapshot>>>, ApiError> {
        let settings = Settings::from_json(&table.settings);
        let mover = i64::from(mv.seat);
        let was_auto = seats.iter().any(|row| row.seat == mover && row.auto);
        let auto = match by {
            By::Person => was_auto.then_some(false),
            By::Timeout => (!settings.one_move).then_some(true),
            By::Computer => None,
        };
        let mut seats_after = seats.to_vec();
        if let Some(auto) = auto {
            for row in seats_after.iter_mut().filter(|row| row.seat == mover) {
                row.auto = auto;
            }
        }
        let now = now_ms();
        let state = write_state(&after);
        let turn_due = due_after(&after, &seats_after, settings, now);
        let committed = self
            .store
            .commit_move(batch::Move {
                table: table.id.clone(),
                match_no: table.match_no,
                number: table.version,
                seat: i64::from(mv.seat),
                mv: encode_move(mv).encode_to_vec(),
                after: state.clone(),
                by: by.name(),
                auto,
                turn_due,
                now,
                told: self.told(&table.id, Change::Moved(table.version + 1)),
            })
            .await
            .map_err(|e| database(&e))?;
        if !committed {
            return Ok(None);
        }
        let snapshot = Arc::new(Some(Snapshot {
            table: TableRow {
                version: table.version + 1,
                state,
                turn_due,
                ..table.clone()
            },
            game: after,
            events,
            seats: seats_after,
        }));
        self.tell_read(&table.id, table.version + 1, Arc::clone(&snapshot))
            .await;
        Ok(Some(snapshot))
    }

    /// Creates a table: deals its match (as `NewGame` would), stores it
    /// with its seats and answers a link per person.
    ///
    /// # Errors
    /// A refusal of the game (as `NewGame`'s), seats that are not one per
    /// seat with a person among them, settings out of bounds, the limits
    /// (tables from `peer`'s address in a minute, tables kept:
    /// `RESOURCE_EXHAUSTED`), or a database failure.
    pub async fn create(
        self: &Arc<Self>,
        request: &proto::CreateTableRequest,
        peer: Option<IpAddr>,
    ) -> Result<proto::CreateTableResponse, ApiError> {
        let settings = Settings {
            seed: request.seed,
            ..Settings::from_request(request.settings.as_ref())?
        };
        let (game, _) = self.engine.deal(&proto::NewGameRequest {
            variant: request.variant.clone(),
            players: request.players,
            rules: request.rules,
            seed: settings.match_seed(1),
            ..Default::default()
        })?;
        let players = usize::from(game.players());
        if request.seats.len() != players {
            return Err(ApiError::invalid(
                ErrorReason::InvalidRules,
                "seats",
                format!(
                    "{} seats planned for {players} players: plan each seat, a person or a computer player",
                    request.seats.len()
                ),
            ));
        }
        let randomness = |error: rand::rngs::SysError| {
            ApiError::internal(format!("no randomness for a link: {error}"))
        };
        let id = table_id().map_err(randomness)?;
        let mut seats = Vec::with_capacity(players);
        let mut links = Vec::new();
        for (seat, plan) in (0u32..).zip(&request.seats) {
            let field = || format!("seats[{seat}]");
            let row = |kind: &str, level: Option<&str>| SeatRow {
                seat: i64::from(seat),
                kind: kind.to_owned(),
                level: level.map(str::to_owned),
                auto: false,
                connected: false,
            };
            match &plan.who {
                Some(proto::seat_plan::Who::Person(_)) => {
                    let link = Link::new().map_err(randomness)?;
                    seats.push((row(PERSON, None), Some(link.hash())));
                    links.push(proto::SeatLink {
                        seat,
                        link: link.text(),
                    });
                }
                Some(proto::seat_plan::Who::Computer(computer)) => {
                    let level = proto::BotLevel::try_from(computer.level).map_err(|_| {
                        ApiError::invalid(
                            ErrorReason::MalformedMove,
                            format!("{}.computer.level", field()),
                            format!("{} is not a BotLevel", computer.level),
                        )
                    })?;
                    seats.push((row(COMPUTER, Some(level_name(level))), None));
                }
                None => return Err(ApiError::missing(field())),
            }
        }
        let Some(first) = links.first() else {
            return Err(ApiError::invalid(
                ErrorReason::InvalidRules,
                "seats",
                "a table needs a person at one seat at least (computer players alone: \
                 use `pips arena`)",
            ));
        };
        let first_seat = Seat::try_from(first.seat).unwrap_or(0);
        // The limits last: a request refused for itself takes no token.
        let client = Networks::of(peer);
        self.limiter.create(&client, std::time::Instant::now())?;
        let watch = Link::new().map_err(randomness)?;
        let state = write_state(&game);
        let now = now_ms();
        let rows: Vec<SeatRow> = seats.iter().map(|(row, _)| row.clone()).collect();
        let limits = self.limiter.limits;
        let created = self
            .store
            .create(
                NewTable {
                    id: &id,
                    state: &state,
                    turn_due: due_after(&game, &rows, settings, now),
                    seats,
                    watch: watch.hash(),
                    settings: &settings.to_json(),
                    now,
                    creator: client.keys(),
                },
                Shares {
                    most: limits.most_tables,
                    per_width: Width::ALL.map(|width| limits.share(width)),
                },
            )
            .await
            .map_err(|e| database(&e))?;
        match created {
            Created::Stored { evicted: None } => {}
            Created::Stored {
                evicted: Some(evicted),
            } => {
                tracing::debug!("a table was deleted to make room at the cap on tables");
                self.tell(&evicted, Change::Gone).await;
            }
            Created::OverShare(width) => {
                return Err(limits::refused(format!(
                    "one {} may keep {} tables at once, and keeps them: retry once one of them \
                     has gone unplayed for the server's expiry",
                    width.name(),
                    limits.share(width)
                )));
            }
            Created::Full => {
                return Err(limits::refused(format!(
                    "the server keeps {} tables, as many as it may, and this address keeps as many \
                     as any other: retry once some have expired",
                    limits.most_tables
                )));
            }
        }
        let table = self
            .store
            .table(&id)
            .await
            .map_err(|e| database(&e))?
            .ok_or_else(|| ApiError::internal("a table just stored is gone"))?;
        let update = self.update(&table, Viewer::Seat(first_seat)).await?;
        self.play_computers(id.clone());
        Ok(proto::CreateTableResponse {
            table_id: id,
            seat_links: links,
            update: Some(update),
            watch_link: watch.text(),
        })
    }

    /// Opens the seat (or the public view) a link names (which does not
    /// keep the table: play does). A person's seat the computer took over is
    /// theirs again.
    ///
    /// # Errors
    /// A link that opens no table, or a database failure.
    pub async fn open_seat(
        &self,
        request: &proto::OpenSeatRequest,
    ) -> Result<proto::OpenSeatResponse, ApiError> {
        let (table, viewer) = self.seat_of(&request.link, "link").await?;
        let table = if self.resume(&table, viewer).await? {
            self.reread(&table.id).await?
        } else {
            table
        };
        Ok(proto::OpenSeatResponse {
            update: Some(self.update(&table, viewer).await?),
        })
    }

    /// Plays a move for the seat a link names, at the table's move number.
    ///
    /// # Errors
    /// A link that opens no table, a watch link or a move of another seat
    /// (`PERMISSION_DENIED`), an illegal move (as `Play`'s), or a database
    /// failure.
    pub async fn act(
        self: &Arc<Self>,
        request: &proto::ActRequest,
    ) -> Result<proto::ActResponse, ApiError> {
        let (table, viewer) = self.seat_of(&request.link, "link").await?;
        let seat = viewer.acting("link")?;
        let mv = decode_move(request.r#move.as_ref(), &|| "move".to_owned())?;
        if mv.seat != seat {
            return Err(ApiError {
                code: tonic::Code::PermissionDenied,
                reason: ErrorReason::SeatNotPermitted,
                field: "move.seat".to_owned(),
                message: format!("this link acts for seat {seat} only"),
            });
        }
        let stale = |update| proto::ActResponse {
            update: Some(update),
            stale: true,
        };
        if u64::try_from(table.version).ok() != Some(request.number) {
            return Ok(stale(self.update(&table, viewer).await?));
        }
        let mut game = read_state(&table.state)?;
        let events = game.play(mv)?.events;
        let seats = self.seat_rows(&table.id).await?;
        let committed = self
            .commit(&table, &seats, mv, (game, events), By::Person)
            .await?;
        let Some(Some(snapshot)) = committed.as_deref() else {
            let now = self.reread(&table.id).await?;
            return Ok(stale(self.update(&now, viewer).await?));
        };
        let update = show(snapshot, viewer)?;
        // (A table of people only has no computer to wake.)
        if snapshot
            .seats
            .iter()
            .any(|row| row.kind == COMPUTER || row.auto)
        {
            self.play_computers(table.id.clone());
        }
        Ok(proto::ActResponse {
            update: Some(update),
            stale: false,
        })
    }

    /// A table's seats, in seat order.
    pub(super) async fn seat_rows(&self, id: &str) -> Result<Vec<SeatRow>, ApiError> {
        self.store.seats(id).await.map_err(|e| database(&e))
    }

    /// The table as it stands now.
    pub(super) async fn reread(&self, id: &str) -> Result<TableRow, ApiError> {
        self.store
            .table(id)
            .await
            .map_err(|e| database(&e))?
            .ok_or_else(|| not_found("link"))
    }

    /// Deals the next match for the same seats, once the match is over, at
    /// the table's number (a later ask at the same number is stale).
    ///
    /// # Errors
    /// A link that opens no table, a watch link (`PERMISSION_DENIED`), a
    /// match still in play (`FAILED_PRECONDITION`), or a database failure.
    pub async fn rematch(
        self: &Arc<Self>,
        request: &proto::RematchRequest,
    ) -> Result<proto::RematchResponse, ApiError> {
        let (table, viewer) = self.seat_of(&request.link, "link").await?;
        viewer.acting("link")?;
        let answer = |update, stale| proto::RematchResponse {
            update: Some(update),
            stale,
        };
        if u64::try_from(table.version).ok() != Some(request.number) {
            return Ok(answer(self.update(&table, viewer).await?, true));
        }
        let game = read_state(&table.state)?;
        if game.outcome().is_none() {
            return Err(in_play("a rematch"));
        }
        // The same game: its preset, seats and every rule, dealt anew (a
        // seeded table's from its next seed).
        let settings = Settings::from_json(&table.settings);
        let (next, _) = self.engine.deal(&proto::NewGameRequest {
            variant: game.variant().to_owned(),
            players: u32::from(game.players()),
            rules: Some(encode_rules(game.rules())),
            seed: settings.match_seed(table.match_no.saturating_add(1)),
            ..Default::default()
        })?;
        let seats = self.seat_rows(&table.id).await?;
        let now = now_ms();
        let dealt = self
            .store
            .rematch(Rematch {
                table: &table.id,
                number: table.version,
                state: &write_state(&next),
                turn_due: due_after(&next, &seats, settings, now),
                now,
            })
            .await
            .map_err(|e| database(&e))?;
        if dealt {
            self.tell(&table.id, Change::Moved(table.version + 1)).await;
            self.play_computers(table.id.clone());
        }
        let table = self.reread(&table.id).await?;
        Ok(answer(self.update(&table, viewer).await?, !dealt))
    }

    /// The match's record, as `Replay` takes it, once the match is over.
    ///
    /// # Errors
    /// A link that opens no table, a match still in play
    /// (`FAILED_PRECONDITION`: its first state shows every hand), or a
    /// database failure.
    pub async fn record(
        &self,
        request: &proto::RecordRequest,
    ) -> Result<proto::RecordResponse, ApiError> {
        let (table, _) = self.seat_of(&request.link, "link").await?;
        if read_state(&table.state)?.outcome().is_none() {
            return Err(in_play("its record"));
        }
        let first = read_state(&table.first_state)?;
        let moves = self
            .store
            .moves(&table.id, table.match_no)
            .await
            .map_err(|e| database(&e))?;
        let moves = moves
            .iter()
            .map(|row| {
                proto::Move::decode(row.mv.as_slice())
                    .map_err(|error| ApiError::internal(format!("a stored move: {error}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        // A seeded table's match in its notation, dealt again from its
        // seed (a table dealt from a random seed cannot be).
        let settings = Settings::from_json(&table.settings);
        let notation = match settings.match_seed(table.match_no) {
            Some(seed) => {
                let played = moves
                    .iter()
                    .enumerate()
                    .map(|(i, mv)| decode_move(Some(mv), &|| format!("moves[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                crate::service::notation::write(&first, seed, &played).unwrap_or_default()
            }
            None => String::new(),
        };
        Ok(proto::RecordResponse {
            record: Some(proto::ReplayRequest {
                state_source: Some(self.engine.custody().write_state(&first)?.into()),
                moves,
                as_token: false,
                notation: String::new(),
            }),
            notation,
        })
    }
}

/// What a stored move did: its events, played again on the state it was
/// made on (`before`).
fn last_events(last: &MoveRow, before: &[u8]) -> Result<Vec<Event>, ApiError> {
    let mut before = read_state(before)?;
    let mv = proto::Move::decode(last.mv.as_slice())
        .map_err(|error| ApiError::internal(format!("a stored move: {error}")))?;
    let mv = decode_move(Some(&mv), &|| "move".to_owned())?;
    Ok(before.play(mv)?.events)
}
