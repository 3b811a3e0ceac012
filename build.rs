//! Compiles the wire contract in `proto/` with protox (no system `protoc`),
//! writes the encoded descriptor set for gRPC reflection, and generates the
//! prost messages, the tonic service code and (pbjson) the proto3 JSON
//! mapping of every message.

use std::{env, fs, path::PathBuf};

use prost::Message;

const PROTOS: &[&str] = &[
    "proto/pips/v1/rules.proto",
    "proto/pips/v1/state.proto",
    "proto/pips/v1/events.proto",
    "proto/pips/v1/engine.proto",
    "proto/pips/v1/bots.proto",
    "proto/pips/v1/tables.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let descriptors = protox::compile(PROTOS, ["proto"])?;
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    let encoded = descriptors.encode_to_vec();
    fs::write(out_dir.join("pips_descriptor.bin"), &encoded)?;
    // Malformed request messages are the caller's fault: the codec refuses
    // them with INVALID_ARGUMENT and a reason, not prost's INTERNAL.
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .codec_path("crate::service::grpc_codec::PipsCodec")
        .compile_fds(descriptors)?;
    // Canonical proto3 JSON for the HTTP API. Unknown fields are refused
    // (the default), so a misspelt field is an error, not silently dropped.
    // Fields at their default values are written (proto3 JSON allows it),
    // so that `seat: 0` and a zero half are always there; only `optional`
    // fields and unset oneofs are left out when absent.
    pbjson_build::Builder::new()
        .register_descriptors(&encoded)?
        .emit_fields()
        .build(&[".pips.v1"])?;
    Ok(())
}
