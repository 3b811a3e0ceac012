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
        // The services' clients and servers are the server's (the `server`
        // feature); the messages are everyone's.
        .client_mod_attribute("pips.v1", r#"#[cfg(feature = "server")]"#)
        .server_mod_attribute("pips.v1", r#"#[cfg(feature = "server")]"#)
        .compile_fds(descriptors)?;
    // Canonical proto3 JSON for the HTTP API. Unknown fields are refused
    // (the default), so a misspelt field is an error, not silently dropped.
    // Fields at their default values are written (proto3 JSON allows it),
    // so that `seat: 0` and a zero half are always there; only `optional`
    // fields and unset oneofs are left out when absent, and the few fields
    // of `WRITTEN_WHEN_SET`.
    pbjson_build::Builder::new()
        .register_descriptors(&encoded)?
        .emit_fields()
        .build(&[".pips.v1"])?;
    let serde = out_dir.join("pips.v1.serde.rs");
    let mut code = fs::read_to_string(&serde)?;
    for &(message, field) in WRITTEN_WHEN_SET {
        code = written_when_set(&code, message, field)?;
    }
    fs::write(&serde, code)?;
    // The same list for the OpenAPI document, which must not call them
    // always present.
    fs::write(
        out_dir.join("written_when_set.rs"),
        format!(
            "/// Fields answers write only when set, although they have no presence\n\
             /// of their own (`message`, `field`).\n\
             pub const WRITTEN_WHEN_SET: &[(&str, &str)] = &{WRITTEN_WHEN_SET:?};\n"
        ),
    )?;
    Ok(())
}

/// Fields the JSON leaves out at their default value (zero), where every
/// other field is written: a placement's `end` means nothing off a line
/// or at the lead, and `"end": "END_UNSPECIFIED"` on every train and arm
/// only made clients ask. (Not `optional` in the contract: that would
/// change the field's type in every generated client.)
const WRITTEN_WHEN_SET: &[(&str, &str)] = &[("PlayTile", "end"), ("TilePlayed", "end")];

/// `code` with `message`'s JSON writing `field` only when it is not zero:
/// the `if true {` pbjson puts before writing it becomes a test of it.
/// Fails the build when the generated code is not as expected, so that a
/// new pbjson cannot quietly write the field again.
fn written_when_set(code: &str, message: &str, field: &str) -> Result<String, String> {
    let not_found = || format!("pbjson's JSON writer of {message}.{field} is not as expected");
    let start = code
        .find(&format!("impl serde::Serialize for {message} {{"))
        .ok_or_else(not_found)?;
    let end = start
        + code[start..]
            .find("impl<'de> serde::Deserialize<'de>")
            .ok_or_else(not_found)?;
    let writer = &code[start..end];
    let guards: Vec<usize> = writer
        .match_indices("if true {")
        .filter(|(at, guard)| {
            let next_line = writer[at + guard.len()..].trim_start().lines().next();
            next_line.is_some_and(|line| line.contains(&format!("self.{field})")))
        })
        .map(|(at, _)| at)
        .collect();
    let [at] = guards[..] else {
        return Err(not_found());
    };
    let mut patched = code.to_owned();
    patched.replace_range(
        start + at..start + at + "if true {".len(),
        &format!("if self.{field} != 0 {{"),
    );
    Ok(patched)
}
