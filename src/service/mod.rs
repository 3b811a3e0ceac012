//! The gRPC face of the rules: proto ⇄ rules conversion and the service.
//!
//! - [`engine`]: the `DominoEngine` service; one function per RPC that
//!   decodes, runs the rules and encodes.
//! - [`rules_codec`]: `Rules` ⇄ `pips.v1.Rules` (presets, overrides).
//! - [`state_codec`]: states, moves, events and views ⇄ messages.
//! - [`error`]: rules errors → gRPC statuses with machine-readable details.

pub mod custody;
pub mod engine;
pub mod error;
pub mod keys;
pub mod rules_codec;
pub mod state_codec;

pub use engine::Engine;
pub use error::ApiError;
