//! Compiles the wire contract in `proto/` with protox (no system `protoc`),
//! writes the encoded descriptor set for gRPC reflection, and generates the
//! prost messages, the tonic service code and (pbjson) the proto3 JSON
//! mapping of every message; and lists the playground's files (`web/`) for
//! the binary to serve, so that a file added there (a language's catalog)
//! is served with no other change.

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
    web_files(&out_dir)?;
    Ok(())
}

/// Writes `web_files.rs`: every file under `web/` as `(path, type, tag,
/// bytes)`, its path relative to `web/`, its content type from its
/// extension, and a tag of its content for `ETag`.
fn web_files(out_dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=web");
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?).join("web");
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        // (A checkout without the page, as the Python package's build has
        // none: nothing to serve.)
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut code = String::from(
        "/// Every file of the playground (`web/`): its path there, its content\n\
         /// type, a tag of its content (`ETag`) and its bytes.\n\
         pub const WEB_FILES: &[(&str, &str, &str, &[u8])] = &[\n",
    );
    for path in files {
        let name = path
            .strip_prefix(&root)?
            .to_string_lossy()
            .replace('\\', "/");
        let content_type = match path.extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("json") => "application/json",
            Some("svg") => "image/svg+xml",
            _ => return Err(format!("web/{name}: no content type for its extension").into()),
        };
        let bytes = fs::read(&path)?;
        // FNV-1a: a tag that changes with the content.
        let tag = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        code.push_str(&format!(
            "    ({name:?}, {content_type:?}, \"\\\"{tag:016x}\\\"\", include_bytes!({path:?})),\n",
            path = path.to_string_lossy()
        ));
    }
    code.push_str("];\n");
    fs::write(out_dir.join("web_files.rs"), code)?;
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
