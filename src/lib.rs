//! pips: an authoritative dominoes rules engine, served over gRPC.
//!
//! - [`rules`]: pure game logic (tiles, layout, options, scoring, legal
//!   moves, play, validation). No transport, no I/O.
//! - [`proto`]: the wire contract generated from `proto/pips/v1`.
//! - [`service`]: proto ⇄ rules conversion and the gRPC service; rules errors
//!   become gRPC statuses only there.
//! - [`server`]: builds and runs the server (gRPC, health, reflection,
//!   tracing, graceful shutdown) on a listener it is given.

pub mod rules;
pub mod server;
pub mod service;

/// Generated protobuf messages and the tonic service for `pips.v1`.
pub mod proto {
    #![allow(missing_docs, clippy::all)]
    tonic::include_proto!("pips.v1");
    include!(concat!(env!("OUT_DIR"), "/pips.v1.serde.rs"));

    /// The encoded descriptor set of `pips.v1`, for gRPC reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/pips_descriptor.bin"));
}
