//! pips: an authoritative dominoes rules engine, served over gRPC.
//!
//! - [`rules`]: pure game logic (tiles, ends, connection rules, layout,
//!   options, presets, scoring, dealing, legal moves, play, settlement,
//!   validation, what a seat may see). No transport, no I/O.
//! - [`arena`]: `pips arena`, matches between computer opponents (built-in
//!   or external bots over `pips.v1.BotService`) and their table.
//! - [`bots`]: computer opponents (random, greedy, expert) over one seat's
//!   view: pure, seeded, no I/O.
//! - [`proto`]: the wire contract generated from `proto/pips/v1`.
//! - [`service`]: proto ⇄ rules codecs, state custody, the gRPC service,
//!   the HTTP/JSON routes and the OpenAPI document; rules errors become
//!   field paths, reasons, gRPC statuses and HTTP answers only there.
//! - [`tables`]: tables that keep a match for its seats, played by a link
//!   per seat, on a database (SQLite or PostgreSQL); a client of the rules.
//! - [`server`]: builds and runs the server (gRPC, gRPC-Web, Connect and
//!   HTTP/JSON on one port, health, reflection, limits, tracing, graceful
//!   shutdown) on a listener it is given.
//! - [`metrics`]: what the process counts (calls, latency, refusals,
//!   connections, the process), served for Prometheus on `--metrics-addr`.
//! - [`logs`]: what the process writes to its log of the events a client
//!   can cause at will, at most a line a second of each kind.
//!
//! The `server` feature (on by default) builds `arena`, `tables`, `server`,
//! `metrics`, `logs`, the HTTP and gRPC parts of `service` and the binary. Without
//! it (`default-features = false`, as the Python package builds) the crate
//! is the rules, the bots, the wire messages and their codecs.

#[cfg(feature = "server")]
pub mod arena;
pub mod bots;
#[cfg(feature = "server")]
pub mod logs;
#[cfg(feature = "server")]
pub mod metrics;
pub mod rules;
#[cfg(feature = "server")]
pub mod server;
pub mod service;
#[cfg(feature = "server")]
pub mod tables;

/// Generated protobuf messages and the tonic service for `pips.v1`.
pub mod proto {
    #![allow(missing_docs, clippy::all, clippy::pedantic)]
    tonic::include_proto!("pips.v1");
    include!(concat!(env!("OUT_DIR"), "/pips.v1.serde.rs"));
    include!(concat!(env!("OUT_DIR"), "/written_when_set.rs"));

    /// A request's state as its `state_source`: `state.into()` for a readable
    /// state, `token.into()` for a state token.
    macro_rules! state_sources {
        ($($module:ident),*) => {$(
            impl From<GameState> for $module::StateSource {
                fn from(state: GameState) -> Self {
                    $module::StateSource::State(state)
                }
            }
            impl From<Vec<u8>> for $module::StateSource {
                fn from(token: Vec<u8>) -> Self {
                    $module::StateSource::StateToken(token)
                }
            }
        )*};
    }
    state_sources!(
        play_request,
        replay_request,
        legal_moves_request,
        view_request,
        suggest_move_request
    );

    /// `NewGameResponse` and `PlayResponse` hold the same fields (an update
    /// of the game), so that a client may keep either as the other.
    macro_rules! same_update {
        ($from:ident => $to:ident) => {
            impl From<$from> for $to {
                fn from(update: $from) -> $to {
                    $to {
                        state: update.state,
                        events: update.events,
                        score_change: update.score_change,
                        to_act: update.to_act,
                        legal_moves: update.legal_moves,
                        state_token: update.state_token,
                        seat_tokens: update.seat_tokens,
                        match_digest: update.match_digest,
                    }
                }
            }
        };
    }
    same_update!(NewGameResponse => PlayResponse);
    same_update!(PlayResponse => NewGameResponse);

    /// The encoded descriptor set of `pips.v1`, for gRPC reflection and the
    /// OpenAPI document.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/pips_descriptor.bin"));
}
