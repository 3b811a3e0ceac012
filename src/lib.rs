//! pips: an authoritative dominoes rules engine, served over gRPC.
//!
//! - [`rules`]: pure game logic (tiles, ends, connection rules, layout,
//!   options, presets, scoring, dealing, legal moves, play, settlement,
//!   validation, what a seat may see). No transport, no I/O.
//! - [`proto`]: the wire contract generated from `proto/pips/v1`.
//! - [`service`]: proto ⇄ rules codecs, state custody, the gRPC service,
//!   the HTTP/JSON routes and the OpenAPI document; rules errors become
//!   field paths, reasons, gRPC statuses and HTTP answers only there.
//! - [`server`]: builds and runs the server (gRPC, gRPC-Web and HTTP/JSON
//!   on one port, health, reflection, limits, tracing, graceful shutdown) on
//!   a listener it is given.

pub mod rules;
pub mod server;
pub mod service;

/// Generated protobuf messages and the tonic service for `pips.v1`.
pub mod proto {
    #![allow(missing_docs, clippy::all, clippy::pedantic)]
    tonic::include_proto!("pips.v1");
    include!(concat!(env!("OUT_DIR"), "/pips.v1.serde.rs"));

    /// The encoded descriptor set of `pips.v1`, for gRPC reflection and the
    /// OpenAPI document.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/pips_descriptor.bin"));
}
