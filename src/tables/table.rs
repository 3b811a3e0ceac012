//! The `TableService` RPCs: a table created with its seats, a seat opened
//! by its link, a move played at the table's move number, the record of
//! the match. Every move is refereed by the engine exactly as `Play` does,
//! on the state read back through the checked constructor (a stored state
//! is never trusted), and committed before it is answered.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use prost::Message as _;

use crate::bots::Level;
use crate::proto::{self, ErrorReason};
use crate::rules::{Event, Game, Move, Seat};
use crate::service::ApiError;
use crate::service::codec::{
    decode_move, decode_packed, encode_events, encode_move, encode_packed, encode_view,
};
use crate::service::engine::not_permitted;

use super::Tables;
use super::link::{Link, table_id};
use super::store::{MoveRow, NewMove, NewTable, SeatRow, TableRow};

/// A seat kind as stored: a person's.
pub const PERSON: &str = "person";
/// A seat kind as stored: a computer player's.
pub const COMPUTER: &str = "computer";

/// Now, in unix milliseconds.
pub(super) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |now| i64::try_from(now.as_millis()).unwrap_or(i64::MAX))
}

/// The refusal of a database failure (logged here, with what failed; the
/// caller hears only that the tables are unavailable).
pub(super) fn database(error: &sqlx::Error) -> ApiError {
    tracing::warn!(%error, "the tables' database failed");
    ApiError {
        code: tonic::Code::Unavailable,
        reason: ErrorReason::Unspecified,
        field: String::new(),
        message: "the tables' database is unavailable; retry later".to_owned(),
    }
}

/// The refusal of a link that opens no table.
fn not_found(field: &str) -> ApiError {
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
            Level::Expert | Level::ExpertFlat | Level::ExpertPlayouts => proto::BotLevel::Expert,
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

impl Tables {
    /// The table and seat `link` opens (at `field` of the request).
    pub(super) async fn seat_of(
        &self,
        link: &str,
        field: &str,
    ) -> Result<(TableRow, Seat), ApiError> {
        let link = Link::read(link).ok_or_else(|| not_found(field))?;
        let (id, seat) = self
            .store
            .seat_of_link(&link.hash())
            .await
            .map_err(|e| database(&e))?
            .ok_or_else(|| not_found(field))?;
        let table = self
            .store
            .table(&id)
            .await
            .map_err(|e| database(&e))?
            .ok_or_else(|| not_found(field))?;
        let seat = Seat::try_from(seat).map_err(|_| not_found(field))?;
        Ok((table, seat))
    }

    /// Where `table` stands for `seat`: its view, and what the last move
    /// (or the deal) did, as the seat may see them.
    pub(super) async fn update(
        &self,
        table: &TableRow,
        seat: Seat,
    ) -> Result<proto::TableUpdate, ApiError> {
        let game = read_state(&table.state)?;
        let last = self
            .store
            .last_move(&table.id, table.match_no)
            .await
            .map_err(|e| database(&e))?;
        let events = match last {
            Some(last) => last_events(&last)?,
            None => vec![Event::HandDealt {
                hand: game.hand_number(),
                leader: game.hand_leader(),
                required_lead: game.required_lead(),
            }],
        };
        let seats = self
            .store
            .seats(&table.id)
            .await
            .map_err(|e| database(&e))?;
        let view = game
            .view(seat)
            .ok_or_else(|| ApiError::internal("a stored seat is not one of its game's"))?;
        Ok(proto::TableUpdate {
            table_id: table.id.clone(),
            number: u64::try_from(table.version).unwrap_or(0),
            seat: u32::from(seat),
            view: Some(encode_view(view)),
            events: encode_events(&events, &game, Some(seat)),
            seats: seats.iter().map(seat_plan).collect(),
        })
    }

    /// Commits `mv`, made on `table` as it stands and leaving `after`, by
    /// `by` (`person` or `computer`): whether it was (another move came
    /// first when it was not).
    pub(super) async fn commit(
        &self,
        table: &TableRow,
        mv: Move,
        after: &Game,
        by: &str,
    ) -> Result<bool, ApiError> {
        let committed = self
            .store
            .commit_move(NewMove {
                table: &table.id,
                match_no: table.match_no,
                number: table.version,
                seat: i64::from(mv.seat),
                mv: &encode_move(mv).encode_to_vec(),
                before: &table.state,
                after: &write_state(after),
                by,
                now: now_ms(),
            })
            .await
            .map_err(|e| database(&e))?;
        if committed {
            self.live.publish(&table.id, table.version + 1);
        }
        Ok(committed)
    }

    /// Creates a table: deals its match (as `NewGame` would), stores it
    /// with its seats and answers a link per person.
    ///
    /// # Errors
    /// A refusal of the game (as `NewGame`'s), seats that are not one per
    /// seat with a person among them, or a database failure.
    pub async fn create(
        self: &Arc<Self>,
        request: &proto::CreateTableRequest,
    ) -> Result<proto::CreateTableResponse, ApiError> {
        let (game, _) = self.engine.deal(&proto::NewGameRequest {
            variant: request.variant.clone(),
            players: request.players,
            rules: request.rules,
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
        let state = write_state(&game);
        self.store
            .create(NewTable {
                id: &id,
                state: &state,
                seats,
                now: now_ms(),
            })
            .await
            .map_err(|e| database(&e))?;
        let table = self
            .store
            .table(&id)
            .await
            .map_err(|e| database(&e))?
            .ok_or_else(|| ApiError::internal("a table just stored is gone"))?;
        let update = self.update(&table, first_seat).await?;
        self.play_computers(id.clone());
        Ok(proto::CreateTableResponse {
            table_id: id,
            seat_links: links,
            update: Some(update),
        })
    }

    /// Opens the seat a link names.
    ///
    /// # Errors
    /// A link that opens no table, or a database failure.
    pub async fn open_seat(
        &self,
        request: &proto::OpenSeatRequest,
    ) -> Result<proto::OpenSeatResponse, ApiError> {
        let (table, seat) = self.seat_of(&request.link, "link").await?;
        Ok(proto::OpenSeatResponse {
            update: Some(self.update(&table, seat).await?),
        })
    }

    /// Plays a move for the seat a link names, at the table's move number.
    ///
    /// # Errors
    /// A link that opens no table, a move of another seat
    /// (`PERMISSION_DENIED`), an illegal move (as `Play`'s), or a database
    /// failure.
    pub async fn act(
        self: &Arc<Self>,
        request: &proto::ActRequest,
    ) -> Result<proto::ActResponse, ApiError> {
        let (table, seat) = self.seat_of(&request.link, "link").await?;
        let mv = decode_move(request.r#move.as_ref(), &|| "move".to_owned())?;
        if mv.seat != seat {
            return Err(not_permitted("move.seat", seat));
        }
        let stale = |update| proto::ActResponse {
            update: Some(update),
            stale: true,
        };
        if u64::try_from(table.version).ok() != Some(request.number) {
            return Ok(stale(self.update(&table, seat).await?));
        }
        let mut game = read_state(&table.state)?;
        game.play(mv)?;
        let committed = self.commit(&table, mv, &game, PERSON).await?;
        let now = self
            .store
            .table(&table.id)
            .await
            .map_err(|e| database(&e))?
            .ok_or_else(|| not_found("link"))?;
        let update = self.update(&now, seat).await?;
        if !committed {
            return Ok(stale(update));
        }
        self.play_computers(table.id.clone());
        Ok(proto::ActResponse {
            update: Some(update),
            stale: false,
        })
    }

    /// The current match's record, as `Replay` takes it.
    ///
    /// # Errors
    /// A link that opens no table, or a database failure.
    pub async fn record(
        &self,
        request: &proto::RecordRequest,
    ) -> Result<proto::RecordResponse, ApiError> {
        let (table, _) = self.seat_of(&request.link, "link").await?;
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
        Ok(proto::RecordResponse {
            record: Some(proto::ReplayRequest {
                state_source: Some(self.engine.custody().write_state(&first)?.into()),
                moves,
                as_token: false,
            }),
        })
    }
}

/// What a stored move did: its events, played again on the state it was
/// made on.
fn last_events(last: &MoveRow) -> Result<Vec<Event>, ApiError> {
    let mut before = read_state(&last.before)?;
    let mv = proto::Move::decode(last.mv.as_slice())
        .map_err(|error| ApiError::internal(format!("a stored move: {error}")))?;
    let mv = decode_move(Some(&mv), &|| "move".to_owned())?;
    Ok(before.play(mv)?.events)
}
