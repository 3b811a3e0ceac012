//! The gRPC face of the rules: proto ⇄ rules conversion and the service.
//!
//! - [`engine`]: the `DominoEngineService` RPCs; one function per RPC that
//!   reads the state, runs the rules and answers.
//! - [`codec`]: wire messages ⇄ rule values, one concept per file
//!   (primitives, a hand's history, the readable and the packed
//!   state, rules, answers).
//! - [`error`]: rules errors → gRPC statuses with machine-readable details,
//!   and → HTTP statuses with JSON bodies.
//! - [`grpc_codec`]: the protobuf codec of the generated gRPC code
//!   (malformed requests refused with a reason).
//! - [`grpc_unary`]: the engine's RPCs over gRPC, served by the JSON
//!   API's dispatch with gRPC's framing (large requests on the work pool).
//! - [`http_api`]: the HTTP/JSON API (`POST /v1/<RpcName>`), `/openapi.json`
//!   and the playground page, on the gRPC port.
//! - [`openapi`]: the OpenAPI document, generated from the descriptors.
//! - [`streams`]: `TableService.Watch` as gRPC frames and as server-sent
//!   events.
//! - [`suggest`]: `SuggestMove`, a computer opponent's move within the
//!   server's time cap and the call's deadline.
//! - [`review`]: `ReviewMatch`, a match reviewed move by move with the
//!   expert's values, on the work pool.
//! - [`pool`]: the work pool where searches and long replays run, shared
//!   fairly among connections.
//! - [`custody`], [`keys`]: signed states, sealed tokens and their keys.
//! - [`notation`]: a whole match as text a person reads and writes.
//! - [`web`]: the playground's files (the page, its code, its languages).

pub mod codec;
#[cfg(feature = "server")]
pub mod connect;
pub mod custody;
pub mod engine;
pub mod error;
#[cfg(feature = "server")]
pub mod grpc_codec;
#[cfg(feature = "server")]
pub mod grpc_unary;
#[cfg(feature = "server")]
pub mod http_api;
pub mod json;
pub mod keys;
pub mod notation;
#[cfg(feature = "server")]
pub mod openapi;
#[cfg(feature = "server")]
pub mod pool;
pub mod review;
#[cfg(feature = "server")]
pub mod streams;
#[cfg(feature = "server")]
pub mod suggest;
#[cfg(feature = "server")]
pub mod web;

pub use engine::Engine;
pub use error::ApiError;
