//! The Connect protocol, unary, at the gRPC paths of `DominoEngineService`
//! (`/pips.v1.DominoEngineService/<RpcName>`), so that a connect-es client
//! (`createConnectTransport`), `buf curl --protocol connect` or plain curl
//! can call the engine as they call any Connect service:
//!
//! - `POST` with `Content-Type: application/json` (proto3 JSON) or
//!   `application/proto` (protobuf); the answer in the same encoding.
//! - `GET ?encoding=json|proto&message=…[&base64=1][&connect=v1]` for every
//!   RPC, as all are marked `idempotency_level = NO_SIDE_EFFECTS` in the
//!   proto, so that answers can be cached by URL.
//! - `Connect-Protocol-Version: 1` (optional; any other value is refused)
//!   and `Connect-Timeout-Ms` (the call's deadline, as `grpc-timeout` is
//!   for gRPC).
//! - Errors as Connect's JSON: `{"code": "invalid_argument", "message": …,
//!   "details": [{"type": "google.rpc.ErrorInfo", "value": …}]}` with the
//!   HTTP status Connect assigns to the code, carrying the same `ErrorInfo`
//!   (and `BadRequest`) as the gRPC status.
//!
//! gRPC and gRPC-Web calls at the same paths (content types
//! `application/grpc…`) pass through to tonic. The handlers are the JSON
//! API's ([`super::http_api::Api`]).

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine as _;
use http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use prost::Message as _;
use serde::Serialize;
use tonic::Code;

use super::error::{ApiError, QUOTE_CHARS, clip};
use super::http_api::{Api, Encoding, read_body, refusal_json};
use super::pool::Call;
use super::streams::{Opened, STREAM_RPC_NAMES};
use crate::proto::ErrorReason;

/// The path prefix of the engine's RPCs.
pub const SERVICE_PATH: &str = "/pips.v1.DominoEngineService/";

/// The path prefix of the tables' RPCs.
pub const TABLE_SERVICE_PATH: &str = "/pips.v1.TableService/";

/// The RPC a path of a served service's names, if it names one: its last
/// part, after the service's path.
#[must_use]
pub fn rpc_of_path(path: &str) -> Option<&str> {
    path.strip_prefix(SERVICE_PATH)
        .or_else(|| path.strip_prefix(TABLE_SERVICE_PATH))
}

/// The RPCs that Connect GET may call: those marked
/// `idempotency_level = NO_SIDE_EFFECTS` in the proto, read from the
/// descriptors in the binary.
static GET_ALLOWED: LazyLock<Vec<String>> = LazyLock::new(|| {
    use prost_types::method_options::IdempotencyLevel;
    prost_types::FileDescriptorSet::decode(crate::proto::FILE_DESCRIPTOR_SET)
        .map(|set| set.file)
        .unwrap_or_default()
        .iter()
        .filter(|file| file.package() == "pips.v1")
        .flat_map(|file| &file.service)
        .filter(|service| matches!(service.name(), "DominoEngineService" | "TableService"))
        .flat_map(|service| &service.method)
        .filter(|method| {
            method.options.as_ref().is_some_and(|options| {
                options.idempotency_level() == IdempotencyLevel::NoSideEffects
            })
        })
        .map(|method| method.name().to_owned())
        .collect()
});

/// Whether a request is a Connect call: at the engine's paths, a GET, or a
/// POST whose content type is not gRPC's or gRPC-Web's.
#[must_use]
pub fn is_connect(method: &Method, path: &str, headers: &HeaderMap) -> bool {
    rpc_of_path(path).is_some()
        && (method == Method::GET || !content_type(headers).starts_with("application/grpc"))
}

/// The media type of a request, without parameters, lowercased.
fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// The deadline a Connect client sent (`Connect-Timeout-Ms`: at most 10
/// digits), if it sent a valid one.
#[must_use]
pub fn connect_timeout(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get("connect-timeout-ms")?.to_str().ok()?;
    if value.is_empty() || value.len() > 10 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok().map(Duration::from_millis)
}

/// The RPC a request at the engine's gRPC paths calls (its path's last
/// part; empty elsewhere).
pub(super) fn rpc_name(request: &Request) -> String {
    rpc_of_path(request.uri().path())
        .unwrap_or_default()
        .to_owned()
}

/// Answers Connect calls; passes every other request on.
pub async fn serve(State(api): State<Arc<Api>>, request: Request, next: Next) -> Response {
    if !is_connect(request.method(), request.uri().path(), request.headers()) {
        return next.run(request).await;
    }
    let rpc = rpc_name(&request);
    let call = Call::of(request.extensions());
    if let Some(json) = stream_encoding(request.headers()) {
        return serve_stream(&api, &rpc, request, json, call).await;
    }
    let result = match read_request(&rpc, request, api.max_request_bytes).await {
        Ok((encoding, body)) => api
            .run(rpc, encoding, body, call)
            .await
            .map(|answer| (encoding, answer)),
        Err(error) => Err(error),
    };
    match result {
        Ok((encoding, answer)) => {
            let mut response = Response::new(Body::from(answer));
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, media_type(encoding));
            response
        }
        Err(error) => {
            error.log();
            error_response(&error)
        }
    }
}

/// Whether a request is a Connect streaming call, by its content type:
/// `Some(true)` for `application/connect+json`, `Some(false)` for
/// `application/connect+proto`.
fn stream_encoding(headers: &HeaderMap) -> Option<bool> {
    match content_type(headers).as_str() {
        "application/connect+json" => Some(true),
        "application/connect+proto" => Some(false),
        _ => None,
    }
}

/// A Connect streaming call: `Watch` or `StreamReviewMatch` (its one
/// request message in an envelope, the stream's messages in envelopes,
/// then the end of the stream); any refusal is the end-of-stream message.
async fn serve_stream(
    api: &Arc<Api>,
    rpc: &str,
    request: Request,
    json: bool,
    call: Call,
) -> Response {
    let opened = async {
        if !STREAM_RPC_NAMES.contains(&rpc) {
            return Err(ApiError {
                code: Code::Unimplemented,
                reason: ErrorReason::UnsupportedMediaType,
                field: String::new(),
                message: format!(
                    "{} is unary: call it with application/json or application/proto; \
                     the streams are {}",
                    clip(rpc, QUOTE_CHARS),
                    STREAM_RPC_NAMES.join(" and ")
                ),
            });
        }
        if request.method() != Method::POST {
            return Err(ApiError {
                code: Code::Unimplemented,
                reason: ErrorReason::MethodNotAllowed,
                field: String::new(),
                message: "a Connect stream is a POST".to_owned(),
            });
        }
        check_protocol_version(request.headers())?;
        check_identity(
            request.headers().get("connect-content-encoding"),
            "Connect-Content-Encoding",
        )?;
        let limit = api.max_request_bytes.saturating_add(5);
        let body = super::http_api::read_body(request.into_body(), limit).await?;
        // (An envelope is laid out as a gRPC frame: flags, length, message.)
        let message = Bytes::copy_from_slice(super::grpc_unary::unframe(&body)?);
        let encoding = if json {
            Encoding::Json
        } else {
            Encoding::Proto
        };
        api.open_stream(rpc, encoding, message, call).await
    }
    .await;
    Opened::connect(opened, json)
}

/// The end of a Connect stream, as its last envelope carries it: `{}`, or
/// the refusal that ended it (the code, message and details a unary
/// call's error body has).
#[must_use]
pub fn end_of_stream(error: Option<&ApiError>) -> Vec<u8> {
    #[derive(Serialize)]
    struct End {
        /// The refusal, if the stream ended on one.
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<ConnectError>,
    }
    serde_json::to_vec(&End {
        error: error.map(connect_error),
    })
    .unwrap_or_default()
}

/// The content type of an encoding.
fn media_type(encoding: Encoding) -> HeaderValue {
    HeaderValue::from_static(match encoding {
        Encoding::Json => "application/json",
        Encoding::Proto | Encoding::Grpc => "application/proto",
    })
}

/// The encoding and the message bytes of a Connect request: the body of a
/// POST, the `message` parameter of a GET.
async fn read_request(
    rpc: &str,
    request: Request,
    limit: usize,
) -> Result<(Encoding, Bytes), ApiError> {
    check_protocol_version(request.headers())?;
    match *request.method() {
        Method::POST => {
            let encoding = match content_type(request.headers()).as_str() {
                "application/json" => Encoding::Json,
                "application/proto" => Encoding::Proto,
                other => {
                    return Err(unsupported(format!(
                        "content type {:?}; Connect unary calls take application/json or \
                         application/proto",
                        clip(other, QUOTE_CHARS)
                    )));
                }
            };
            check_identity(
                request.headers().get("content-encoding"),
                "Content-Encoding",
            )?;
            Ok((encoding, read_body(request.into_body(), limit).await?))
        }
        // (An unknown RPC is refused as such by the dispatch.)
        Method::GET
            if GET_ALLOWED.iter().any(|allowed| allowed == rpc)
                || !super::http_api::is_rpc(rpc) =>
        {
            read_query(request.uri().query().unwrap_or_default(), limit)
        }
        Method::GET => Err(ApiError {
            code: Code::Unimplemented,
            reason: ErrorReason::MethodNotAllowed,
            field: String::new(),
            message: format!(
                "{} is not marked free of side effects, so it takes POST, not GET",
                clip(rpc, QUOTE_CHARS)
            ),
        }),
        _ => Err(ApiError {
            code: Code::Unimplemented,
            reason: ErrorReason::MethodNotAllowed,
            field: String::new(),
            message: format!(
                "Connect calls take POST or GET, not {}",
                clip(request.method().as_str(), QUOTE_CHARS)
            ),
        }),
    }
}

/// The message of a Connect GET: `encoding` (json or proto), `message`
/// (percent-encoded, or base64url with `base64=1`), `compression`
/// (identity only) and `connect` (v1 only).
fn read_query(query: &str, limit: usize) -> Result<(Encoding, Bytes), ApiError> {
    let (mut encoding, mut message, mut base64) = (None, None, false);
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match &*key {
            "encoding" => {
                encoding = Some(match &*value {
                    "json" => Encoding::Json,
                    "proto" => Encoding::Proto,
                    other => {
                        return Err(unsupported(format!(
                            "encoding {:?}; Connect GET takes encoding=json or encoding=proto",
                            clip(other, QUOTE_CHARS)
                        )));
                    }
                });
            }
            "message" => message = Some(value.into_owned()),
            "base64" => base64 = value == "1",
            "compression" => {
                check_identity(HeaderValue::from_str(&value).ok().as_ref(), "compression")?
            }
            "connect" if value != "v1" => {
                return Err(unsupported(format!(
                    "connect={:?}; this server speaks connect=v1",
                    clip(&value, QUOTE_CHARS)
                )));
            }
            _ => {}
        }
    }
    let encoding = encoding.ok_or_else(|| ApiError::missing("encoding"))?;
    let message = message.unwrap_or_default();
    if message.len() > limit.saturating_mul(4).div_ceil(3) {
        return Err(ApiError::too_large(limit));
    }
    let bytes = if base64 {
        let trimmed = message.trim_end_matches('=');
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(trimmed)
            .map_err(|e| {
                ApiError::invalid(
                    ErrorReason::MalformedRequest,
                    "message",
                    format!("the message is not base64url: {e}"),
                )
            })?
    } else {
        message.into_bytes()
    };
    if bytes.len() > limit {
        return Err(ApiError::too_large(limit));
    }
    Ok((encoding, Bytes::from(bytes)))
}

/// Refuses a `Connect-Protocol-Version` other than 1.
fn check_protocol_version(headers: &HeaderMap) -> Result<(), ApiError> {
    match headers.get("connect-protocol-version") {
        None => Ok(()),
        Some(version) if version == "1" => Ok(()),
        Some(version) => Err(unsupported(format!(
            "Connect-Protocol-Version {:?}; this server speaks version 1",
            clip(version.to_str().unwrap_or("(not text)"), QUOTE_CHARS)
        ))),
    }
}

/// Refuses a compression other than identity (`what` names the header or
/// parameter).
fn check_identity(value: Option<&HeaderValue>, what: &str) -> Result<(), ApiError> {
    match value {
        None => Ok(()),
        Some(value) if value == "identity" || value.is_empty() => Ok(()),
        Some(value) => Err(ApiError {
            code: Code::Unimplemented,
            ..unsupported(format!(
                "{what} {:?}; this server takes uncompressed requests (identity)",
                clip(value.to_str().unwrap_or("(not text)"), QUOTE_CHARS)
            ))
        }),
    }
}

/// A request in a form this server does not take.
fn unsupported(message: String) -> ApiError {
    ApiError::invalid(ErrorReason::UnsupportedMediaType, "", message)
}

/// A Connect error body.
#[derive(Serialize)]
struct ConnectError {
    /// The code, in Connect's lower snake case (`invalid_argument`).
    code: String,
    /// What is wrong: the reason, the field and the message, as over gRPC.
    message: String,
    /// The status details, as over gRPC.
    details: Vec<ErrorDetail>,
}

/// One detail of a Connect error.
#[derive(Serialize)]
struct ErrorDetail {
    /// The detail's full message name (`google.rpc.ErrorInfo`).
    #[serde(rename = "type")]
    type_name: String,
    /// Its protobuf bytes, base64 without padding.
    value: String,
}

/// A refusal as a Connect error answer: the same code, message and details
/// as the gRPC status, with Connect's HTTP status for the code.
#[must_use]
pub fn error_response(error: &ApiError) -> Response {
    let body = serde_json::to_vec(&connect_error(error)).unwrap_or_default();
    refusal_json(http_status(error), body, error.code)
}

/// A refusal as Connect writes it.
fn connect_error(error: &ApiError) -> ConnectError {
    let status = tonic::Status::from(error.clone());
    let details = tonic_types::pb::Status::decode(status.details())
        .map(|status| status.details)
        .unwrap_or_default()
        .into_iter()
        .map(|any| ErrorDetail {
            type_name: any
                .type_url
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_owned(),
            value: base64::engine::general_purpose::STANDARD_NO_PAD.encode(any.value),
        })
        .collect();
    ConnectError {
        code: super::error::grpc_code_name(error.code).to_ascii_lowercase(),
        message: status.message().to_owned(),
        details,
    }
}

/// The HTTP status Connect assigns to an error's code (415 for a media type
/// this server does not take).
fn http_status(error: &ApiError) -> StatusCode {
    if error.reason == ErrorReason::UnsupportedMediaType && error.code == Code::InvalidArgument {
        return StatusCode::UNSUPPORTED_MEDIA_TYPE;
    }
    match error.code {
        Code::Cancelled => StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST),
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => {
            StatusCode::BAD_REQUEST
        }
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::Ok | Code::Unknown | Code::Internal | Code::DataLoss => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_timeouts_are_digits_only_and_bounded() {
        let mut headers = HeaderMap::new();
        for (value, expected) in [
            ("250", Some(Duration::from_millis(250))),
            ("0", Some(Duration::ZERO)),
            ("9999999999", Some(Duration::from_millis(9_999_999_999))),
            ("12345678901", None),
            ("-5", None),
            ("1.5", None),
            ("", None),
        ] {
            headers.insert("connect-timeout-ms", HeaderValue::from_static(value));
            assert_eq!(connect_timeout(&headers), expected, "{value:?}");
        }
    }

    #[test]
    fn only_non_grpc_requests_at_the_engine_paths_are_connect_calls() {
        let mut headers = HeaderMap::new();
        let play = "/pips.v1.DominoEngineService/Play";
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        assert!(is_connect(&Method::POST, play, &headers));
        assert!(!is_connect(&Method::POST, "/v1/Play", &headers));
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/grpc"),
        );
        assert!(!is_connect(&Method::POST, play, &headers));
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/grpc-web+proto"),
        );
        assert!(!is_connect(&Method::POST, play, &headers));
        assert!(is_connect(&Method::GET, play, &HeaderMap::new()));
    }

    #[test]
    fn every_rpc_free_of_side_effects_may_be_got() {
        let mut allowed = GET_ALLOWED.clone();
        allowed.sort();
        // Every engine RPC, and the tables' that change nothing.
        let mut expected: Vec<String> = super::super::http_api::RPC_NAMES
            .iter()
            .chain(&["OpenSeat", "Record"])
            .map(|name| (*name).to_owned())
            .collect();
        expected.sort();
        assert_eq!(allowed, expected);
    }

    #[test]
    fn a_get_message_is_read_plain_or_base64url() {
        let (encoding, body) =
            read_query("encoding=json&message=%7B%22seat%22%3A1%7D", 100).expect("plain");
        assert_eq!(
            (encoding, &body[..]),
            (Encoding::Json, &b"{\"seat\":1}"[..])
        );
        let (encoding, body) =
            read_query("connect=v1&encoding=proto&base64=1&message=CAE", 100).expect("base64");
        assert_eq!((encoding, &body[..]), (Encoding::Proto, &[8u8, 1][..]));
        let refused = read_query("message=e30", 100).expect_err("no encoding");
        assert_eq!(refused.reason, ErrorReason::MissingField);
        let refused = read_query("encoding=xml&message=x", 100).expect_err("xml");
        assert_eq!(refused.reason, ErrorReason::UnsupportedMediaType);
        let refused = read_query("encoding=json&message=aaaaaaaaaa", 4).expect_err("too long");
        assert_eq!(refused.reason, ErrorReason::RequestTooLarge);
        let refused =
            read_query("encoding=json&compression=gzip&message=e30", 100).expect_err("gzip");
        assert_eq!(refused.code, Code::Unimplemented);
    }
}
