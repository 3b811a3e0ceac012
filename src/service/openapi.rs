//! The OpenAPI 3.1 document of the HTTP/JSON API, generated from the proto
//! descriptors compiled into the binary, so it cannot drift from the
//! messages: one `POST /v1/<RpcName>` path per RPC of `DominoEngineService`
//! and of `TableService`, one
//! schema per message and enum of `pips.v1` in its proto3 JSON form, with
//! the proto comments as descriptions.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorSet, SourceCodeInfo};
use serde_json::{Map, Value, json};

use crate::proto::FILE_DESCRIPTOR_SET;

/// The package whose messages the document describes.
const PACKAGE: &str = "pips.v1";
/// The services whose RPCs become paths.
const SERVICES: [&str; 2] = ["DominoEngineService", "TableService"];
/// Field numbers of `FileDescriptorProto` and friends, as used in source
/// locations (descriptor.proto).
const FILE_MESSAGES: i32 = 4;
const FILE_ENUMS: i32 = 5;
const FILE_SERVICES: i32 = 6;
const MESSAGE_FIELDS: i32 = 2;
const MESSAGE_NESTED: i32 = 3;
const MESSAGE_ENUMS: i32 = 4;
const ENUM_VALUES: i32 = 2;
const SERVICE_METHODS: i32 = 2;

/// The HTTP statuses an RPC may refuse with, each with a `HttpError` body.
const REFUSALS: [(&str, &str); 9] = [
    ("400", "Malformed request or state (INVALID_ARGUMENT)."),
    (
        "401",
        "The server has a state key and the state carries no tag.",
    ),
    ("403", "A seat token was used for another seat."),
    (
        "408",
        "The request body did not arrive whole within the server's body timeout.",
    ),
    ("409", "Illegal move (FAILED_PRECONDITION)."),
    ("413", "The body is larger than the server's limit."),
    (
        "429",
        "The server is at a limit (calls, waiting bodies, work pool, answer bytes); retry later (RESOURCE_EXHAUSTED, ERROR_REASON_OVERLOADED).",
    ),
    ("503", "The server cannot serve the call now (UNAVAILABLE)."),
    (
        "504",
        "The call took longer than the server's request timeout.",
    ),
];

/// The document of a server that keeps tables (`tables`) or not, as JSON:
/// the routes of `TableService` are in it only where they are served.
#[must_use]
pub fn document(tables: bool) -> Value {
    let files = FileDescriptorSet::decode(FILE_DESCRIPTOR_SET)
        .map(|set| set.file)
        .unwrap_or_default();
    let mut schemas = Map::new();
    let mut paths = Map::new();
    let in_requests = request_types(&files);
    for file in files.iter().filter(|f| f.package() == PACKAGE) {
        let comments = Comments::of(file.source_code_info.as_ref());
        for (i, message) in file.message_type.iter().enumerate() {
            let place = Place {
                scope: PACKAGE,
                path: &[FILE_MESSAGES, index(i)],
            };
            add_message(&mut schemas, &comments, &in_requests, &place, message);
        }
        for (i, enumeration) in file.enum_type.iter().enumerate() {
            let name = format!("{PACKAGE}.{}", enumeration.name());
            let schema = enum_schema(&comments, enumeration, &[FILE_ENUMS, index(i)]);
            schemas.insert(name, schema);
        }
        for (s, service) in file.service.iter().enumerate() {
            let served = service.name() == "DominoEngineService"
                || (tables && service.name() == "TableService");
            if !served {
                continue;
            }
            for (m, method) in service.method.iter().enumerate() {
                let path = [FILE_SERVICES, index(s), SERVICE_METHODS, index(m)];
                let description = comments.at(&path);
                paths.insert(
                    format!("/v1/{}", method.name()),
                    rpc_path(
                        method.name(),
                        description,
                        method.input_type(),
                        method.output_type(),
                        method.server_streaming(),
                    ),
                );
            }
        }
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "pips — dominoes rules engine, HTTP/JSON API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Every RPC of the gRPC services pips.v1.DominoEngineService and \
                pips.v1.TableService as POST /v1/<RpcName>, taking and returning the canonical proto3 JSON \
                of the same messages. Unknown fields are refused. 64-bit integers \
                are decimal strings, bytes are base64, enums are their names. \
                Answers write every scalar, enum and list field, at its default \
                value too (0, false, \"\", []); `optional` fields, message \
                fields and the members of a oneof appear only when set. The \
                `required` list of a schema that only answers use names its \
                always-present fields; in a schema that requests use too, the \
                description of such a field says it is always present in answers.",
        },
        "paths": paths,
        "components": { "schemas": schemas },
    })
}

/// The path item of one RPC; a `streaming` one answers server-sent events.
fn rpc_path(name: &str, description: &str, input: &str, output: &str, streaming: bool) -> Value {
    let mut responses = Map::new();
    let answer = if streaming {
        json!({
            "description": format!(
                "Server-sent events: each event's data is a {} as JSON; a comment \
                 line while nothing happens; a refusal after the stream began as an \
                 `error` event whose data is an HttpError.",
                output.trim_start_matches('.')
            ),
            "content": { "text/event-stream": { "schema": { "type": "string" } } },
        })
    } else {
        json!({
            "description": "The answer.",
            "content": { "application/json": { "schema": reference(output) } },
        })
    };
    responses.insert("200".to_owned(), answer);
    for (status, why) in REFUSALS {
        responses.insert(
            status.to_owned(),
            json!({
                "description": why,
                "content": { "application/json": {
                    "schema": reference(&format!(".{PACKAGE}.HttpError")),
                } },
            }),
        );
    }
    let summary = description.lines().next().unwrap_or(name);
    json!({
        "post": {
            "operationId": name,
            "summary": summary,
            "description": description,
            "requestBody": {
                "description": "The request message; an empty body is the empty message.",
                "required": false,
                "content": { "application/json": { "schema": reference(input) } },
            },
            "responses": responses,
        }
    })
}

/// Where a message is declared: its scope (`pips.v1`, or the enclosing
/// message's name) and its location path in the file.
struct Place<'a> {
    /// The fully qualified scope.
    scope: &'a str,
    /// The location path of the message.
    path: &'a [i32],
}

/// Whether an answer always writes `field`: a scalar, enum or repeated
/// field outside every oneof (a proto3 `optional` field is in a synthetic
/// one); a single message field is written only when set, and so are the
/// few fields of [`crate::proto::WRITTEN_WHEN_SET`].
fn always_present(message: &str, field: &FieldDescriptorProto) -> bool {
    field.oneof_index.is_none()
        && (field.label() == Label::Repeated || field.r#type() != Type::Message)
        && !crate::proto::WRITTEN_WHEN_SET.contains(&(message, field.name()))
}

/// Adds the schema of `message` (and of its nested types) to `schemas`.
/// `in_requests`: the messages some request may carry, whose schemas
/// cannot list answer-only `required` fields.
fn add_message(
    schemas: &mut Map<String, Value>,
    comments: &Comments,
    in_requests: &HashSet<String>,
    place: &Place<'_>,
    message: &DescriptorProto,
) {
    let name = format!("{}.{}", place.scope, message.name());
    let shared = in_requests.contains(&name);
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (i, field) in message.field.iter().enumerate() {
        let mut field_path = place.path.to_vec();
        field_path.extend([MESSAGE_FIELDS, index(i)]);
        let mut schema = field_schema(field);
        let mut description = comments.at(&field_path).to_owned();
        if always_present(message.name(), field) {
            if shared {
                description.push_str("\n\nAlways present in answers.");
            } else {
                required.push(field.json_name().to_owned());
            }
        }
        if let Some(object) = schema.as_object_mut() {
            object.insert("description".to_owned(), json!(description));
        }
        properties.insert(field.json_name().to_owned(), schema);
    }
    for (i, nested) in message.nested_type.iter().enumerate() {
        let mut nested_path = place.path.to_vec();
        nested_path.extend([MESSAGE_NESTED, index(i)]);
        let nested_place = Place {
            scope: &name,
            path: &nested_path,
        };
        add_message(schemas, comments, in_requests, &nested_place, nested);
    }
    for (i, enumeration) in message.enum_type.iter().enumerate() {
        let mut enum_path = place.path.to_vec();
        enum_path.extend([MESSAGE_ENUMS, index(i)]);
        let schema = enum_schema(comments, enumeration, &enum_path);
        schemas.insert(format!("{name}.{}", enumeration.name()), schema);
    }
    let mut schema = json!({
        "type": "object",
        "description": comments.at(place.path),
        "properties": properties,
        "additionalProperties": false,
    });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schemas.insert(name, schema);
}

/// The messages some request of the service may carry (fully qualified,
/// without the leading dot): the RPCs' inputs and every message they
/// reach.
fn request_types(files: &[prost_types::FileDescriptorProto]) -> HashSet<String> {
    let mut messages: HashMap<String, &DescriptorProto> = HashMap::new();
    for file in files {
        for message in &file.message_type {
            messages.insert(format!("{}.{}", file.package(), message.name()), message);
        }
    }
    let mut pending: Vec<String> = files
        .iter()
        .flat_map(|file| &file.service)
        .filter(|service| SERVICES.contains(&service.name()))
        .flat_map(|service| &service.method)
        .map(|method| method.input_type().trim_start_matches('.').to_owned())
        .collect();
    let mut seen = HashSet::new();
    while let Some(name) = pending.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(message) = messages.get(&name) {
            for field in &message.field {
                if field.r#type() == Type::Message {
                    pending.push(field.type_name().trim_start_matches('.').to_owned());
                }
            }
        }
    }
    seen
}

/// The schema of an enum: its value names (numbers are also accepted).
fn enum_schema(
    comments: &Comments,
    enumeration: &prost_types::EnumDescriptorProto,
    path: &[i32],
) -> Value {
    let mut description = comments.at(path).to_owned();
    for (i, value) in enumeration.value.iter().enumerate() {
        let mut value_path = path.to_vec();
        value_path.extend([ENUM_VALUES, index(i)]);
        let text = comments.at(&value_path).replace('\n', " ");
        let _ = write!(description, "\n- `{}`: {text}", value.name());
    }
    let names: Vec<&str> = enumeration
        .value
        .iter()
        .map(prost_types::EnumValueDescriptorProto::name)
        .collect();
    json!({ "type": "string", "enum": names, "description": description })
}

/// The schema of one field's JSON value.
fn field_schema(field: &FieldDescriptorProto) -> Value {
    let single = match field.r#type() {
        Type::Double | Type::Float => json!({ "type": "number" }),
        Type::Int32 | Type::Sint32 | Type::Sfixed32 => {
            json!({ "type": "integer", "format": "int32" })
        }
        Type::Uint32 | Type::Fixed32 => {
            json!({ "type": "integer", "format": "int64", "minimum": 0, "maximum": u32::MAX })
        }
        Type::Int64 | Type::Sint64 | Type::Sfixed64 => {
            json!({ "type": "string", "format": "int64", "pattern": "^-?[0-9]+$" })
        }
        Type::Uint64 | Type::Fixed64 => {
            json!({ "type": "string", "format": "uint64", "pattern": "^[0-9]+$" })
        }
        Type::Bool => json!({ "type": "boolean" }),
        Type::String => json!({ "type": "string" }),
        Type::Bytes => json!({ "type": "string", "contentEncoding": "base64" }),
        Type::Enum | Type::Message | Type::Group => reference(field.type_name()),
    };
    if field.label() == Label::Repeated {
        json!({ "type": "array", "items": single })
    } else if single.get("$ref").is_some() {
        // A sibling `description` next to `$ref` is allowed in OpenAPI 3.1,
        // but keep the reference alone and describe it through `allOf`.
        json!({ "allOf": [single] })
    } else {
        single
    }
}

/// A reference to the schema of a fully qualified proto type
/// (`.pips.v1.Tile`).
fn reference(type_name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{}", type_name.trim_start_matches('.')) })
}

/// A location path element from a position in a descriptor list.
fn index(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}

/// The leading comments of a file's elements, by location path.
struct Comments(HashMap<Vec<i32>, String>);

impl Comments {
    fn of(info: Option<&SourceCodeInfo>) -> Comments {
        let locations = info.map(|i| i.location.as_slice()).unwrap_or_default();
        Comments(
            locations
                .iter()
                .filter_map(|location| {
                    let text = location.leading_comments.as_deref()?;
                    let text = text
                        .lines()
                        .map(str::trim)
                        .collect::<Vec<_>>()
                        .join("\n")
                        .trim()
                        .to_owned();
                    Some((location.path.clone(), text))
                })
                .collect(),
        )
    }

    fn at(&self, path: &[i32]) -> &str {
        self.0.get(path).map(String::as_str).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::http_api::SERVICES as SERVED;

    #[test]
    fn every_rpc_has_a_path_and_every_reference_resolves() {
        let document = document(true);
        let paths = document["paths"].as_object().expect("paths");
        let mut listed: Vec<&str> = paths
            .keys()
            .filter_map(|p| p.strip_prefix("/v1/"))
            .collect();
        listed.sort_unstable();
        let mut served: Vec<&str> = SERVED
            .iter()
            .flat_map(|(_, rpcs)| rpcs.iter().copied())
            .collect();
        served.sort_unstable();
        assert_eq!(listed, served);

        let schemas = document["components"]["schemas"]
            .as_object()
            .expect("schemas");
        let text = document.to_string();
        for reference in text.split("\"#/components/schemas/").skip(1) {
            let name = reference.split('"').next().unwrap_or_default();
            assert!(schemas.contains_key(name), "dangling reference {name}");
        }
        assert!(schemas["pips.v1.GameState"]["properties"]["handNumber"].is_object());
        assert!(
            schemas["pips.v1.ErrorReason"]["enum"]
                .as_array()
                .expect("enum")
                .contains(&json!("ERROR_REASON_MALFORMED_JSON"))
        );
    }

    #[test]
    fn answer_only_schemas_list_their_always_present_fields() {
        let document = document(true);
        let schemas = &document["components"]["schemas"];
        let required = |name: &str| schemas[name]["required"].clone();
        let play = required("pips.v1.PlayResponse");
        assert!(
            play.as_array()
                .expect("required")
                .contains(&json!("events"))
        );
        // (`toAct` is optional: absent once the match is over.)
        assert!(!play.as_array().expect("required").contains(&json!("toAct")));
        let tile_played = required("pips.v1.TilePlayed");
        let tile_played = tile_played.as_array().expect("required");
        assert!(tile_played.contains(&json!("seat")));
        // (An `end` is written only where one applies.)
        assert!(!tile_played.contains(&json!("end")));
        // A message requests carry too says it in the field's description.
        let tile = &schemas["pips.v1.Tile"];
        assert!(tile.get("required").is_none());
        let b = tile["properties"]["b"]["description"]
            .as_str()
            .unwrap_or_default();
        assert!(b.ends_with("Always present in answers."), "{b}");
    }

    #[test]
    fn descriptions_come_from_the_proto_comments() {
        let document = document(true);
        let play = &document["paths"]["/v1/Play"]["post"];
        assert!(!play["summary"].as_str().unwrap_or_default().is_empty());
        let tile = &document["components"]["schemas"]["pips.v1.Tile"];
        assert!(!tile["description"].as_str().unwrap_or_default().is_empty());
    }
}
