//! The HTTP/JSON face of the engine, on the same port as gRPC:
//!
//! - `POST /v1/<RpcName>` takes and returns the canonical proto3 JSON of the
//!   same messages as the gRPC RPC (an empty body is the empty message).
//!   Unknown JSON fields are refused, naming the field.
//! - `GET /openapi.json`: the OpenAPI document of those routes, generated
//!   from the proto descriptors ([`super::openapi`]).
//! - `GET /`: the playground, one static page that uses only the routes
//!   above, `GET /favicon.svg` (also at `/favicon.ico`), its icon, and
//!   `GET /rules.md`, the rule book (`docs/rules.md`) its rules cards show.
//!
//! Every refusal is an HTTP status with a `pips.v1.HttpError` JSON body
//! carrying the same machine-readable reason as over gRPC.

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tonic::Code;

use super::engine::{Engine, list_variants};
use super::error::{ApiError, QUOTE_CHARS, clip};
use super::json::parse_json;
use super::openapi;
use super::pool::Call;
use super::streams::{Opened, STREAM_RPC_NAMES};
use super::web;
use crate::proto::{self, ErrorReason};
use crate::tables::Tables;

/// The RPCs of `TableService`, as they appear in `/v1/<RpcName>` (RPC
/// names are unique across the services).
pub const TABLE_RPC_NAMES: [&str; 6] = [
    "CreateTable",
    "OpenSeat",
    "Act",
    "Watch",
    "Rematch",
    "Record",
];

/// The services served on every protocol, by their full name, with their
/// RPCs.
pub const SERVICES: [(&str, &[&str]); 2] = [
    ("pips.v1.DominoEngineService", &RPC_NAMES),
    ("pips.v1.TableService", &TABLE_RPC_NAMES),
];

/// Whether `rpc` names an RPC of a served service.
#[must_use]
pub fn is_rpc(rpc: &str) -> bool {
    SERVICES.iter().any(|(_, rpcs)| rpcs.contains(&rpc))
}

/// The RPCs of `DominoEngineService`, as they appear in `/v1/<RpcName>`.
pub const RPC_NAMES: [&str; 9] = [
    "ListVariants",
    "NewGame",
    "Play",
    "Replay",
    "LegalMoves",
    "View",
    "SuggestMove",
    "ReviewMatch",
    "StreamReviewMatch",
];

/// The rule book, `docs/rules.md`, served at `/rules.md`: a section per
/// preset (`## <id>`), which the playground shows as each game's rules
/// card, so that the page and the docs cannot tell different rules.
const RULE_BOOK: &str = include_str!("../../docs/rules.md");

/// How a message is written: proto3 JSON (the JSON API, Connect's
/// `application/json`), protobuf (Connect's `application/proto`) or
/// protobuf in one gRPC frame (gRPC and gRPC-Web).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    /// Canonical proto3 JSON.
    Json,
    /// Protobuf's binary encoding.
    Proto,
    /// Protobuf's binary encoding in one uncompressed gRPC frame.
    Grpc,
}

/// What the JSON routes, the Connect protocol and gRPC share.
#[derive(Debug)]
pub struct Api {
    /// The engine.
    engine: Engine,
    /// The tables, where the server keeps them (`--tables-db`).
    tables: Option<Arc<Tables>>,
    /// The largest body accepted, in bytes (larger: 413).
    pub(super) max_request_bytes: usize,
    /// `/openapi.json`, rendered once at start.
    openapi: Bytes,
}

impl Api {
    /// The API of `engine` (and of `tables`, where the server keeps
    /// them), refusing bodies over `max_request_bytes`.
    #[must_use]
    pub fn new(engine: Engine, tables: Option<Arc<Tables>>, max_request_bytes: usize) -> Arc<Api> {
        let openapi = Bytes::from(openapi::document(tables.is_some()).to_string());
        Arc::new(Api {
            engine,
            tables,
            max_request_bytes,
            openapi,
        })
    }
}

/// The routes of the HTTP/JSON API, the OpenAPI document and the
/// playground. Requests that match no route are left to the caller's
/// fallback (see [`not_found`]).
pub fn router(api: Arc<Api>) -> Router {
    Router::new()
        .route("/v1/{rpc}", post(call_rpc))
        .route("/openapi.json", get(serve_openapi))
        .route("/rules.md", get(serve_rule_book))
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(api)
        .merge(web::router())
}

/// `GET /rules.md`: the rule book, as Markdown.
async fn serve_rule_book() -> Response {
    static_file("text/markdown; charset=utf-8", "max-age=3600", RULE_BOOK)
}

/// A file built into the binary, with its type and how long a browser may
/// keep it; browsers are told to take the type as given, never to guess
/// another (the rule book is Markdown, not a page to render).
fn static_file(content_type: &'static str, cache: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body,
    )
        .into_response()
}

/// `POST /v1/<RpcName>`.
async fn call_rpc(State(api): State<Arc<Api>>, request: Request) -> Response {
    let rpc = request
        .uri()
        .path()
        .strip_prefix("/v1/")
        .unwrap_or_default()
        .to_owned();
    let call = Call::of(request.extensions());
    let body = read_body(request.into_body(), api.max_request_bytes).await;
    if STREAM_RPC_NAMES.contains(&rpc.as_str()) {
        return match body {
            Ok(body) => match api.open_stream(&rpc, Encoding::Json, body, call).await {
                Ok(opened) => opened.events(),
                Err(error) => {
                    error.log();
                    error_response(&error)
                }
            },
            Err(error) => error_response(&error),
        };
    }
    let result = match body {
        Ok(body) => api.run(rpc, Encoding::Json, body, call).await,
        Err(error) => Err(error),
    };
    match result {
        Ok(json) => json_response(StatusCode::OK, json),
        Err(error) => {
            error.log();
            error_response(&error)
        }
    }
}

/// The refusal of a stream called as a unary RPC (over Connect with a
/// unary content type).
fn a_stream(rpc: &str) -> ApiError {
    ApiError {
        code: Code::Unimplemented,
        reason: ErrorReason::UnsupportedMediaType,
        field: String::new(),
        message: format!(
            "{rpc} is a stream: over Connect it takes application/connect+json \
             or application/connect+proto; it is served over gRPC and gRPC-Web, \
             and as server-sent events at POST /v1/{rpc}"
        ),
    }
}

/// Requests of at most this many bytes are parsed, run and their answers
/// rendered on the calling task: every state a match reaches fits (the
/// largest, Mexican Train's at two seats, about 15 KB as JSON), and each
/// costs what a few moves cost. Larger ones (a state padded with what no
/// match holds, a body of junk) are parsed, run and rendered on the
/// engine's work pool, off the threads that carry every connection.
pub const INLINE_BODY_BYTES: usize = 32 * 1024;

/// A `Replay` body of at most this many bytes holds a short record (a few
/// hundred moves, about 16 bytes each in protobuf, 64 in JSON) and is
/// served on the calling task; a longer record costs as much as its
/// answer, a few hundred bytes a move, and is served on the work pool.
const INLINE_REPLAY_MOVES: usize = 256;

/// The largest body of `rpc` in `encoding` served on the calling task.
fn inline_bytes(rpc: &str, encoding: Encoding) -> usize {
    match (rpc, encoding) {
        ("Replay", Encoding::Json) => INLINE_REPLAY_MOVES * 64,
        ("Replay", Encoding::Proto | Encoding::Grpc) => INLINE_REPLAY_MOVES * 16,
        _ => INLINE_BODY_BYTES,
    }
}

impl Api {
    /// Runs the RPC named `rpc` on `body` written in `encoding`, for `call`;
    /// the answer in the same encoding. A large body (over
    /// [`INLINE_BODY_BYTES`]; a `Replay` of over a few hundred moves) is
    /// parsed, run and rendered on the engine's work pool; a search
    /// (`SuggestMove` at `expert`) runs there too.
    ///
    /// # Errors
    /// A malformed body, an unknown RPC, the RPC's own refusal, or the
    /// pool's (`ERROR_REASON_OVERLOADED`).
    pub async fn run(
        self: &Arc<Self>,
        rpc: String,
        encoding: Encoding,
        body: Bytes,
        call: Call,
    ) -> Result<Vec<u8>, ApiError> {
        let large = body.len() > inline_bytes(&rpc, encoding);
        if rpc == "SuggestMove" {
            let request = self.decode_async(encoding, body, large, call).await?;
            let answer = self.engine.suggest_move(&request, call).await?;
            return encode_answer(encoding, &answer);
        }
        if rpc == "StreamReviewMatch" {
            return Err(a_stream(&rpc));
        }
        if rpc == "ReviewMatch" {
            let request = self.decode_async(encoding, body, large, call).await?;
            let answer = self.engine.review_match(&request, call).await?;
            return encode_answer(encoding, &answer);
        }
        if TABLE_RPC_NAMES.contains(&rpc.as_str()) {
            return self.run_table(&rpc, encoding, body, large, call).await;
        }
        if large {
            let api = Arc::clone(self);
            return self
                .engine
                .pool()
                .run(call.connection, call.deadline, move || {
                    api.dispatch(&rpc, encoding, &body)
                })
                .await;
        }
        self.dispatch(&rpc, encoding, &body)
    }

    /// A request of an RPC that runs asynchronously, parsed (on the work
    /// pool when `large`).
    async fn decode_async<Req>(
        &self,
        encoding: Encoding,
        body: Bytes,
        large: bool,
        call: Call,
    ) -> Result<Req, ApiError>
    where
        Req: DeserializeOwned + prost::Message + Default + Send + 'static,
    {
        if !large {
            return decode_request(encoding, &body);
        }
        self.engine
            .pool()
            .run(call.connection, call.deadline, move || {
                decode_request(encoding, &body)
            })
            .await
    }

    /// The tables, or the refusal of a server that keeps none.
    fn tables(&self) -> Result<&Arc<Tables>, ApiError> {
        self.tables.as_ref().ok_or_else(|| ApiError {
            code: Code::Unimplemented,
            reason: ErrorReason::UnknownRoute,
            field: String::new(),
            message: "this server keeps no tables (it was started with --tables-db none): \
                      start it with --tables-db naming a SQLite file or a PostgreSQL database"
                .to_owned(),
        })
    }

    /// The streaming RPC named `rpc` ([`STREAM_RPC_NAMES`]) on `body`
    /// written in `encoding`: its stream, for the caller's transport to
    /// carry.
    ///
    /// # Errors
    /// A malformed body, an RPC that is no stream, or the RPC's refusal
    /// (`Watch`: a server without tables, the watch's own;
    /// `StreamReviewMatch`: the record's, the work pool's).
    pub async fn open_stream(
        self: &Arc<Self>,
        rpc: &str,
        encoding: Encoding,
        body: Bytes,
        call: Call,
    ) -> Result<Opened, ApiError> {
        let large = body.len() > INLINE_BODY_BYTES;
        match rpc {
            "Watch" => {
                let tables = self.tables()?;
                let request = self.decode_async(encoding, body, large, call).await?;
                let watch: super::streams::Watch =
                    Box::pin(tables.watch(&request, call.peer).await?);
                Ok(Opened::Watch(super::streams::watch_messages(watch)))
            }
            "StreamReviewMatch" => {
                let request: proto::StreamReviewMatchRequest =
                    self.decode_async(encoding, body, large, call).await?;
                let review = self.engine.review_for_stream(&request.into(), call)?;
                let (steps, job, refuse) = review.start();
                let api = Arc::clone(self);
                tokio::spawn(async move {
                    let ran = api
                        .engine
                        .pool()
                        .run(call.connection, call.deadline, job)
                        .await;
                    if let Err(error) = ran {
                        refuse(error);
                    }
                });
                Ok(Opened::Review(steps))
            }
            _ => Err(unknown_route(&format!("/v1/{rpc}"))),
        }
    }

    /// Runs the `TableService` RPC named `rpc`.
    async fn run_table(
        &self,
        rpc: &str,
        encoding: Encoding,
        body: Bytes,
        large: bool,
        call: Call,
    ) -> Result<Vec<u8>, ApiError> {
        let tables = self.tables()?;
        match rpc {
            "CreateTable" => {
                let request = self.decode_async(encoding, body, large, call).await?;
                encode_answer(encoding, &tables.create(&request, call.peer).await?)
            }
            "OpenSeat" => {
                let request = self.decode_async(encoding, body, large, call).await?;
                encode_answer(encoding, &tables.open_seat(&request).await?)
            }
            "Act" => {
                let request = self.decode_async(encoding, body, large, call).await?;
                encode_answer(encoding, &tables.act(&request).await?)
            }
            "Rematch" => {
                let request = self.decode_async(encoding, body, large, call).await?;
                encode_answer(encoding, &tables.rematch(&request).await?)
            }
            "Record" => {
                let request = self.decode_async(encoding, body, large, call).await?;
                encode_answer(encoding, &tables.record(&request).await?)
            }
            "Watch" => Err(a_stream("Watch")),
            _ => Err(unknown_route(&format!("/v1/{rpc}"))),
        }
    }

    /// Runs the RPC named `rpc` on `body` on the calling thread; the
    /// answer's bytes.
    fn dispatch(&self, rpc: &str, encoding: Encoding, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        let engine = &self.engine;
        let on = encoding;
        match rpc {
            "ListVariants" => answer(
                on,
                body,
                |_: proto::ListVariantsRequest| Ok(list_variants()),
            ),
            "NewGame" => answer(on, body, |request| engine.new_game(&request)),
            "Play" => answer(on, body, |request| engine.play(&request)),
            "Replay" => answer(on, body, |request| engine.replay(&request)),
            "LegalMoves" => answer(on, body, |request| engine.legal_moves(&request)),
            "View" => answer(on, body, |request| engine.view(&request)),
            _ => Err(unknown_route(&format!("/v1/{rpc}"))),
        }
    }
}

/// Parses the request in `encoding`, runs `handler` and renders its answer
/// in the same encoding.
fn answer<Req, Resp>(
    encoding: Encoding,
    body: &[u8],
    handler: impl FnOnce(Req) -> Result<Resp, ApiError>,
) -> Result<Vec<u8>, ApiError>
where
    Req: DeserializeOwned + prost::Message + Default,
    Resp: Serialize + prost::Message,
{
    encode_answer(encoding, &handler(decode_request(encoding, body)?)?)
}

/// Parses a request written in `encoding`.
fn decode_request<Req>(encoding: Encoding, body: &[u8]) -> Result<Req, ApiError>
where
    Req: DeserializeOwned + prost::Message + Default,
{
    let message = match encoding {
        Encoding::Json => return parse_json(body),
        Encoding::Proto => body,
        Encoding::Grpc => super::grpc_unary::unframe(body)?,
    };
    Req::decode(message).map_err(|e| {
        ApiError::invalid(
            ErrorReason::MalformedRequest,
            "",
            format!("the message is not valid protobuf: {e}"),
        )
    })
}

/// Renders an answer in `encoding`.
fn encode_answer<Resp>(encoding: Encoding, answer: &Resp) -> Result<Vec<u8>, ApiError>
where
    Resp: Serialize + prost::Message,
{
    match encoding {
        Encoding::Json => serde_json::to_vec(answer)
            .map_err(|e| ApiError::internal(format!("cannot render the answer: {e}"))),
        Encoding::Proto => Ok(answer.encode_to_vec()),
        Encoding::Grpc => Ok(super::grpc_unary::frame(answer)),
    }
}

/// Reads a body of at most `limit` bytes.
pub(super) async fn read_body(body: Body, limit: usize) -> Result<Bytes, ApiError> {
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
            Err(ApiError::too_large(limit))
        }
        Err(error) => Err(ApiError::invalid(
            ErrorReason::MalformedJson,
            "",
            format!("cannot read the body: {error}"),
        )),
    }
}

/// `GET /openapi.json`.
async fn serve_openapi(State(api): State<Arc<Api>>) -> Response {
    json_response(StatusCode::OK, api.openapi.clone())
}

/// A known route called with the wrong method.
async fn method_not_allowed(request: Request) -> Response {
    let path = request.uri().path();
    let rpc = path.strip_prefix("/v1/");
    if rpc.is_some_and(|rpc| !is_rpc(rpc)) {
        return error_response(&unknown_route(path));
    }
    let allowed = if rpc.is_some() { "POST" } else { "GET" };
    let error = ApiError {
        code: Code::Unimplemented,
        reason: ErrorReason::MethodNotAllowed,
        field: String::new(),
        message: format!(
            "{} takes {allowed}, not {}",
            clip(path, QUOTE_CHARS),
            clip(request.method().as_str(), QUOTE_CHARS)
        ),
    };
    let mut response = error_response(&error);
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allowed));
    response
}

/// The answer to a request that matches no route, in the caller's
/// protocol: gRPC UNIMPLEMENTED (as tonic answers, with the reason) for a
/// gRPC or gRPC-Web call, a JSON 404 for anything else.
pub async fn not_found(method: http::Method, headers: HeaderMap, uri: http::Uri) -> Response {
    let error = unknown_route(uri.path());
    error.log();
    refusal(&Protocol::of(&method, uri.path(), &headers), &error)
}

/// How a caller speaks, from its request's content type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Protocol {
    /// gRPC over HTTP/2.
    Grpc,
    /// gRPC-Web, with the content type it sent (binary or text).
    GrpcWeb(HeaderValue),
    /// Connect, at the engine's gRPC paths ([`super::connect`]).
    Connect,
    /// Anything else: the JSON API, a browser, curl.
    Http,
}

impl Protocol {
    /// The protocol of a request with this method, path and headers.
    #[must_use]
    pub fn of(method: &http::Method, path: &str, headers: &HeaderMap) -> Protocol {
        if super::connect::is_connect(method, path, headers) {
            return Protocol::Connect;
        }
        let Some(content_type) = headers.get(header::CONTENT_TYPE) else {
            return Protocol::Http;
        };
        let text = content_type.to_str().unwrap_or_default();
        if text.starts_with("application/grpc-web") {
            Protocol::GrpcWeb(content_type.clone())
        } else if text.starts_with("application/grpc") {
            Protocol::Grpc
        } else {
            Protocol::Http
        }
    }
}

/// A refusal made outside the RPC handlers (limits, unknown routes), in
/// the caller's protocol: a gRPC status with its `ErrorInfo` for gRPC
/// (trailers-only), the same with the caller's own content type for
/// gRPC-Web, a `pips.v1.HttpError` body otherwise.
#[must_use]
pub fn refusal(protocol: &Protocol, error: &ApiError) -> Response {
    let grpc = || tonic::Status::from(error.clone()).into_http::<Body>();
    match protocol {
        Protocol::Grpc => grpc().into_response(),
        Protocol::GrpcWeb(content_type) => {
            let mut response = grpc();
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, content_type.clone());
            response.into_response()
        }
        Protocol::Connect => super::connect::error_response(error),
        Protocol::Http => error_response(error),
    }
}

/// No route at `path`.
fn unknown_route(path: &str) -> ApiError {
    ApiError {
        code: Code::Unimplemented,
        reason: ErrorReason::UnknownRoute,
        field: String::new(),
        message: format!(
            "no route {}; the API is POST /v1/<RpcName> with RpcName one of {}, \
             described at /openapi.json (gRPC: pips.v1.DominoEngineService and \
             pips.v1.TableService)",
            clip(path, QUOTE_CHARS),
            SERVICES
                .iter()
                .flat_map(|(_, rpcs)| rpcs.iter().copied())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A refusal as an HTTP answer with a `pips.v1.HttpError` body.
#[must_use]
pub fn error_response(error: &ApiError) -> Response {
    let body = serde_json::to_vec(&error.http_body()).unwrap_or_default();
    refusal_json(error.http_status(), body, error.code)
}

/// A refusal's JSON answer (the JSON API's or Connect's), marked with its
/// gRPC code for the call metrics.
pub(super) fn refusal_json(status: StatusCode, body: Vec<u8>, code: Code) -> Response {
    let mut response = json_response(status, body);
    response
        .extensions_mut()
        .insert(super::error::RefusedWith(code));
    response
}

/// A JSON answer.
fn json_response(status: StatusCode, body: impl Into<Body>) -> Response {
    let mut response = Response::new(body.into());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
