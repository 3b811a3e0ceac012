//! The limits every call runs under, in order: its body must arrive whole
//! within the body timeout and the size limit (before it holds anything
//! shared; a body still arriving takes a waiting place, from its
//! connection's share first), then it takes one of the server's
//! concurrency slots or is shed at once, then the handler runs under the
//! request timeout (or the client's shorter `grpc-timeout` or
//! `Connect-Timeout-Ms`, counted from the call's arrival). A large answer
//! of an engine RPC then holds its bytes against its connection's share
//! and the server's budget until it has been written, so that answers
//! nobody reads cannot pile up. Refusals are answered in the caller's
//! protocol with the same reasons as every other refusal.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use bytes::BytesMut;
use http_body_util::BodyExt;
use tokio::sync::Semaphore;
use tonic::Code;
use tracing::Instrument;

use crate::metrics::{CallLabels, METRICS, ReasonLabels};
use crate::proto::ErrorReason;
use crate::service::ApiError;
use crate::service::connect::connect_timeout;
use crate::service::error::{RefusedWith, grpc_code_name};
use crate::service::grpc_codec::grpc_timeout;
use crate::service::http_api::{Protocol, SERVICES, refusal};
use crate::service::pool::CallDeadline;

use super::answer_body::{AnswerBody, Keeping};
use super::answers::{
    ANSWER_UNIT, AnswerBudget, ConnectionAnswers, Full, STREAM_RESERVE, WATCH_RESERVE,
};
use super::connection::{ConnectionShare, Streaming};

/// The limits, shared by every connection.
#[derive(Debug)]
pub struct Limits {
    /// The largest request message, in bytes: a body's limit on the wire
    /// is this, plus room for gRPC framing and gRPC-Web's base64.
    pub max_request_bytes: usize,
    /// How long a request body may take to arrive.
    pub body_timeout: Duration,
    /// One permit per call whose body is still arriving when it is
    /// admitted (a body that came with its headers takes none).
    pub waiting: Arc<Semaphore>,
    /// How long a handler may take.
    pub request_timeout: Duration,
    /// How long a streamed review may go on (`StreamReviewMatch`), in
    /// place of `request_timeout`.
    pub max_review: Duration,
    /// One permit per call that may run at once.
    pub slots: Arc<Semaphore>,
    /// Every answer byte not yet written, server-wide, and the
    /// connections holding them.
    pub answers: Arc<AnswerBudget>,
}

impl Limits {
    /// The most bytes a request body may have on the wire for `protocol`:
    /// the message limit exactly for JSON and Connect; with room for a
    /// frame's header for gRPC, and for base64 for gRPC-Web.
    fn body_limit(&self, protocol: &Protocol) -> usize {
        let framed = self.max_request_bytes.saturating_add(5);
        match protocol {
            Protocol::Http | Protocol::Connect => self.max_request_bytes,
            Protocol::Grpc => framed,
            Protocol::GrpcWeb(_) => framed.div_ceil(3).saturating_mul(4).saturating_add(1024),
        }
    }
}

/// Calls whose request is a stream the handler reads as it goes (gRPC
/// reflection): their body is not buffered first.
fn streams_its_request(path: &str) -> bool {
    path.starts_with("/grpc.reflection.")
}

/// What a call whose answer is a stream made as it goes holds of the
/// answer budget for its life, instead of its bytes (none: its answer is
/// read whole and holds its bytes): gRPC reflection's descriptors; a
/// health watch's or a table watch's updates, each made only when the
/// last has been taken.
fn stream_reserve(path: &str) -> Option<usize> {
    if streams_its_request(path) {
        Some(STREAM_RESERVE)
    } else if matches!(
        path,
        "/grpc.health.v1.Health/Watch" | "/v1/Watch" | "/pips.v1.TableService/Watch"
    ) {
        Some(WATCH_RESERVE)
    } else if reviews_as_a_stream(path) {
        // A review's steps are made as fast as the search goes, not as
        // they are read: about a long match's review (the record bounds
        // them).
        Some(STREAM_RESERVE)
    } else {
        None
    }
}

/// Whether the call is `StreamReviewMatch`, whose time is the server's
/// review bound (`--max-review-ms`), not the request timeout.
fn reviews_as_a_stream(path: &str) -> bool {
    matches!(
        path,
        "/v1/StreamReviewMatch" | "/pips.v1.DominoEngineService/StreamReviewMatch"
    )
}

/// Runs `request` under the limits, and counts it (`pips_calls`, its
/// latency, calls in flight).
pub async fn guard(State(limits): State<Arc<Limits>>, request: Request, next: Next) -> Response {
    let span = tracing::info_span!("rpc", path = %request.uri().path());
    let started = Instant::now();
    let rpc = rpc_label(request.uri().path());
    let protocol = Protocol::of(request.method(), request.uri().path(), request.headers());
    let in_flight = InFlight::new();
    let response = limited(&limits, &protocol, request, next)
        .instrument(span)
        .await;
    drop(in_flight);
    METRICS.record_call(
        CallLabels {
            rpc,
            protocol: protocol_label(&protocol),
            code: grpc_code_name(answer_code(&response)),
        },
        started.elapsed(),
    );
    response
}

/// Runs `request` under the limits.
async fn limited(
    limits: &Limits,
    protocol: &Protocol,
    mut request: Request,
    next: Next,
) -> Response {
    let arrived = Instant::now();
    let client = grpc_timeout(request.headers()).or_else(|| connect_timeout(request.headers()));
    let share = request.extensions().get::<ConnectionShare>().cloned();
    let mine = share.as_ref().map(|share| Arc::clone(&share.answers));
    let mine = mine.as_ref();
    let stream_reserve = stream_reserve(request.uri().path());
    if !streams_its_request(request.uri().path()) {
        request = match buffered(request, limits, protocol, share.as_ref()).await {
            Ok(request) => request,
            Err(error) => return refused(limits, mine, protocol, &error),
        };
    }
    let Ok(slot) = Arc::clone(&limits.slots).try_acquire_owned() else {
        let error = ApiError::overloaded("the server is at its concurrency limit; retry later");
        return refused(limits, mine, protocol, &error);
    };
    // The client's deadline runs from the call's arrival; the server's
    // timeout from the handler's start.
    let budget = if reviews_as_a_stream(request.uri().path()) {
        limits.max_review
    } else {
        limits.request_timeout
    };
    let mut deadline = Instant::now() + budget;
    if let Some(client) = client.and_then(|client| arrived.checked_add(client)) {
        deadline = deadline.min(client);
    }
    request.extensions_mut().insert(CallDeadline(deadline));
    let answer = tokio::time::timeout_at(deadline.into(), async {
        if let Some(reserve) = stream_reserve {
            let held = limits
                .answers
                .hold(mine, reserve)
                .await
                .map_err(|full| budget_spent(full, reserve))?;
            let mut response = next.run(request).await;
            // Its connection is busy while the stream goes on.
            response.extensions_mut().insert(Streaming);
            Ok(response.map(|body| Body::new(Keeping { body, _kept: held })))
        } else {
            let response = next.run(request).await;
            hold_answer(response, limits, mine).await
        }
    })
    .await;
    drop(slot);
    match answer {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => refused(limits, mine, protocol, &error),
        Err(_) => refused(limits, mine, protocol, &timed_out()),
    }
}

/// `response` with its body read whole, its bytes held against the
/// connection's share and the server's answer budget until they have been
/// written (or the call dropped).
async fn hold_answer(
    response: Response,
    limits: &Limits,
    mine: Option<&Arc<ConnectionAnswers>>,
) -> Result<Response, ApiError> {
    let (parts, body) = response.into_parts();
    let collected = body
        .collect()
        .await
        .map_err(|error| ApiError::internal(format!("cannot write the answer: {error}")))?;
    let trailers = collected.trailers().cloned();
    let data = collected.to_bytes();
    let held = limits
        .answers
        .hold(mine, data.len())
        .await
        .map_err(|full| budget_spent(full, data.len()))?;
    let body = AnswerBody::new(data, trailers).holding(held);
    Ok(Response::from_parts(parts, Body::new(body)))
}

/// The refusal of an answer of `bytes` the budget has no room for.
fn budget_spent(full: Full, bytes: usize) -> ApiError {
    let (whose, left) = match full {
        Full::Connection { left } => ("this connection", left),
        Full::Server { left } => ("the server", left),
    };
    ApiError::overloaded(format!(
        "the answer is {bytes} bytes and {whose} has {left} KiB of answers left to hold until \
         they are read; read the answers in flight, or ask for less (fewer moves per Replay)"
    ))
}

/// Counts a call as in flight (`pips_calls_in_flight`) until dropped.
struct InFlight;

impl InFlight {
    fn new() -> InFlight {
        METRICS.in_flight.inc();
        InFlight
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        METRICS.in_flight.dec();
    }
}

/// The `rpc` label of a path: an RPC of the engine or the tables by name
/// (at `/v1/` or at its gRPC path), a health or reflection method, the
/// playground, the OpenAPI document, or `other`: a fixed set, whatever
/// paths clients make up.
fn rpc_label(path: &str) -> &'static str {
    let served = path
        .strip_prefix("/v1/")
        .or_else(|| crate::service::connect::rpc_of_path(path));
    if let Some(name) = served {
        return SERVICES
            .iter()
            .flat_map(|(_, rpcs)| rpcs.iter())
            .find(|known| **known == name)
            .copied()
            .unwrap_or("other");
    }
    match path {
        "/grpc.health.v1.Health/Check" => "grpc.health.v1.Health/Check",
        "/grpc.health.v1.Health/Watch" => "grpc.health.v1.Health/Watch",
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo" => {
            "grpc.reflection.v1.ServerReflection"
        }
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo" => {
            "grpc.reflection.v1alpha.ServerReflection"
        }
        "/" | "/favicon.svg" | "/favicon.ico" | "/rules.md" => "playground",
        "/openapi.json" => "openapi",
        _ => "other",
    }
}

/// The `protocol` label.
fn protocol_label(protocol: &Protocol) -> &'static str {
    match protocol {
        Protocol::Grpc => "grpc",
        Protocol::GrpcWeb(_) => "grpc_web",
        Protocol::Connect => "connect",
        Protocol::Http => "http",
    }
}

/// The gRPC code an answer carries: a refusal's own, a gRPC status header
/// (gRPC errors are trailers-only answers), else OK for a success (a gRPC
/// success's status comes in its trailers, after this point) and UNKNOWN
/// for any other HTTP error.
fn answer_code(response: &Response) -> Code {
    if let Some(RefusedWith(code)) = response.extensions().get::<RefusedWith>() {
        return *code;
    }
    if let Some(status) = response.headers().get("grpc-status") {
        return status
            .to_str()
            .ok()
            .and_then(|s| s.parse::<i32>().ok())
            .map_or(Code::Unknown, Code::from_i32);
    }
    if response.status().is_success() {
        Code::Ok
    } else {
        Code::Unknown
    }
}

/// A refusal, logged (and counted as shed when the server was at a
/// limit), its bytes held against the answer budget where it has room (a
/// refusal is a few hundred bytes: one made because the budget is spent
/// goes unheld).
fn refused(
    limits: &Limits,
    mine: Option<&Arc<ConnectionAnswers>>,
    protocol: &Protocol,
    error: &ApiError,
) -> Response {
    error.log();
    if error.reason == ErrorReason::Overloaded {
        METRICS
            .shed
            .get_or_create(&ReasonLabels {
                reason: error.reason.as_str_name(),
            })
            .inc();
    }
    let response = refusal(protocol, error);
    let Some(held) = limits.answers.try_hold(mine, ANSWER_UNIT) else {
        return response;
    };
    response.map(|body| Body::new(Keeping { body, _kept: held }))
}

/// `request` with its whole body read, within the size limit and the body
/// timeout. A body already here (as a unary call's usually is) is taken at
/// once; a body still arriving first takes a waiting place (of its
/// connection's share, then of the server's), so that calls whose bodies
/// trickle in cannot pile up without bound nor one connection take every
/// place. A body declared larger than the limit is refused at once, and
/// one found larger as it is read when it passes the limit; the rest of
/// either is read and discarded for a bounded time ([`drain`]), so that
/// the client can read the refusal.
async fn buffered(
    request: Request,
    limits: &Limits,
    protocol: &Protocol,
    share: Option<&ConnectionShare>,
) -> Result<Request, ApiError> {
    let limit = limits.body_limit(protocol);
    let declared = request
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        drain(request.into_body());
        return Err(ApiError::too_large(limits.max_request_bytes));
    }
    let (parts, mut body) = request.into_parts();
    let read = {
        let mut reading = std::pin::pin!(read_within(&mut body, limit));
        let arrived = std::future::poll_fn(|cx| {
            std::task::Poll::Ready(match reading.as_mut().poll(cx) {
                std::task::Poll::Ready(result) => Some(result),
                std::task::Poll::Pending => None,
            })
        })
        .await;
        match arrived {
            Some(result) => Ok(result),
            None => {
                let _own_place = match share {
                    Some(share) => Some(Arc::clone(&share.waiting).try_acquire_owned().map_err(
                        |_| {
                            ApiError::overloaded(
                                "this connection has its share of calls waiting for their \
                                 bodies; finish sending those, or retry later",
                            )
                        },
                    )?),
                    None => None,
                };
                let Ok(_place) = Arc::clone(&limits.waiting).try_acquire_owned() else {
                    return Err(ApiError::overloaded(
                        "too many calls are waiting for their bodies; retry later",
                    ));
                };
                tokio::time::timeout(limits.body_timeout, reading).await
            }
        }
    };
    let bytes = match read {
        Err(_) => return Err(body_timed_out(limits.body_timeout)),
        Ok(Err(BodyFault::TooLarge)) => {
            drain(body);
            return Err(ApiError::too_large(limits.max_request_bytes));
        }
        Ok(Err(BodyFault::Broken(error))) => {
            return Err(ApiError::invalid(
                ErrorReason::MalformedRequest,
                "",
                format!("cannot read the request body: {error}"),
            ));
        }
        Ok(Ok(bytes)) => bytes,
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// Why a body could not be read whole.
enum BodyFault {
    /// It is larger than the limit.
    TooLarge,
    /// The connection failed while it arrived.
    Broken(axum::Error),
}

/// The data of `body`, read to its end, if it is at most `limit` bytes
/// (the body is left where reading stopped). A body that came in one
/// chunk is not copied.
async fn read_within(body: &mut Body, limit: usize) -> Result<Bytes, BodyFault> {
    let mut first: Option<Bytes> = None;
    let mut more: Option<BytesMut> = None;
    let mut length = 0usize;
    while let Some(frame) = body.frame().await {
        let Ok(data) = frame.map_err(BodyFault::Broken)?.into_data() else {
            continue;
        };
        length = length.saturating_add(data.len());
        if length > limit {
            return Err(BodyFault::TooLarge);
        }
        match (&mut first, &mut more) {
            (None, _) => first = Some(data),
            (Some(head), None) => {
                let mut joined = BytesMut::with_capacity(length);
                joined.extend_from_slice(head);
                joined.extend_from_slice(&data);
                more = Some(joined);
            }
            (Some(_), Some(joined)) => joined.extend_from_slice(&data),
        }
    }
    Ok(match more {
        Some(joined) => joined.freeze(),
        None => first.unwrap_or_default(),
    })
}

/// The most of a refused body that is still read, and the longest it is
/// read for, before its connection is closed.
const DRAIN_BYTES: usize = 16 * 1024 * 1024;
/// See [`DRAIN_BYTES`].
const DRAIN_TIME: Duration = Duration::from_secs(5);

/// Reads and discards the rest of a refused body in the background, for at
/// most [`DRAIN_TIME`] and [`DRAIN_BYTES`]: a client that sends its whole
/// body before it reads (Python's `http.client` and `requests`, Node's
/// `fetch`) then reads the refusal, where closing at once would have
/// broken its pipe (the lingering close of nginx and others).
fn drain(mut body: Body) {
    tokio::spawn(async move {
        let mut left = DRAIN_BYTES;
        let _ = tokio::time::timeout(DRAIN_TIME, async {
            while let Some(Ok(frame)) = body.frame().await {
                let read = frame.data_ref().map_or(0, Bytes::len);
                left = left.saturating_sub(read);
                if left == 0 {
                    break;
                }
            }
        })
        .await;
    });
}

/// The handler took too long.
fn timed_out() -> ApiError {
    ApiError {
        code: Code::DeadlineExceeded,
        reason: ErrorReason::TimedOut,
        field: String::new(),
        message: "the call took longer than its deadline".to_owned(),
    }
}

/// The body did not arrive in time.
fn body_timed_out(limit: Duration) -> ApiError {
    ApiError {
        code: Code::DeadlineExceeded,
        reason: ErrorReason::BodyTimeout,
        field: String::new(),
        message: format!(
            "the request body did not arrive whole within {} ms",
            limit.as_millis()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::routing::post;
    use tower::ServiceExt;

    /// A router whose one route waits `wait` before it answers, under
    /// `slots` concurrency slots, no place for a body still arriving and a
    /// 100 ms request timeout.
    fn guarded(slots: usize, wait: Duration) -> Router {
        let limits = Arc::new(Limits {
            max_request_bytes: 64,
            body_timeout: Duration::from_secs(5),
            waiting: Arc::new(Semaphore::new(0)),
            request_timeout: Duration::from_millis(100),
            max_review: Duration::from_millis(100),
            slots: Arc::new(Semaphore::new(slots)),
            answers: AnswerBudget::new(1024 * 1024),
        });
        Router::new()
            .route(
                "/call",
                post(move || async move {
                    tokio::time::sleep(wait).await;
                    "answered"
                }),
            )
            .layer(axum::middleware::from_fn_with_state(limits, guard))
    }

    /// Calls `/call` with `content_type` and `body` (and a `grpc-timeout`
    /// if given).
    async fn call(
        router: Router,
        content_type: &str,
        grpc_timeout: Option<&str>,
        body: &'static str,
    ) -> Response {
        let mut request = http::Request::post("/call").header("content-type", content_type);
        if let Some(timeout) = grpc_timeout {
            request = request.header("grpc-timeout", timeout);
        }
        let request = request.body(Body::from(body)).expect("request");
        router.oneshot(request).await.expect("infallible")
    }

    /// The `ErrorInfo` reason of a gRPC answer.
    fn grpc_reason(response: &Response) -> (Code, String) {
        let status = tonic::Status::from_header_map(response.headers()).expect("a status");
        let details = tonic_types::StatusExt::get_error_details(&status);
        let reason = details.error_info().map(|info| info.reason.clone());
        (status.code(), reason.unwrap_or_default())
    }

    #[tokio::test]
    async fn refusals_before_the_handler_speak_the_callers_protocol() {
        // No slot free: shed at once.
        let json = call(guarded(0, Duration::ZERO), "application/json", None, "{}").await;
        assert_eq!(json.status(), http::StatusCode::TOO_MANY_REQUESTS);
        let grpc = call(guarded(0, Duration::ZERO), "application/grpc", None, "").await;
        assert_eq!(
            grpc_reason(&grpc),
            (
                Code::ResourceExhausted,
                "ERROR_REASON_OVERLOADED".to_owned()
            )
        );
        let web = call(
            guarded(0, Duration::ZERO),
            "application/grpc-web-text",
            None,
            "",
        )
        .await;
        assert_eq!(
            web.headers().get("content-type").map(|v| v.as_bytes()),
            Some(&b"application/grpc-web-text"[..])
        );
        assert_eq!(
            grpc_reason(&web),
            (
                Code::ResourceExhausted,
                "ERROR_REASON_OVERLOADED".to_owned()
            )
        );
        // A handler slower than the request timeout.
        let slow = Duration::from_secs(5);
        let json = call(guarded(1, slow), "application/json", None, "{}").await;
        assert_eq!(json.status(), http::StatusCode::GATEWAY_TIMEOUT);
        let grpc = call(guarded(1, slow), "application/grpc", None, "").await;
        assert_eq!(
            grpc_reason(&grpc),
            (Code::DeadlineExceeded, "ERROR_REASON_TIMED_OUT".to_owned())
        );
        // A body over the limit.
        let big = "x".repeat(100).leak();
        let json = call(guarded(1, Duration::ZERO), "application/json", None, big).await;
        assert_eq!(json.status(), http::StatusCode::PAYLOAD_TOO_LARGE);
        // Within every limit: answered.
        let fine = call(guarded(1, Duration::ZERO), "application/json", None, "{}").await;
        assert_eq!(fine.status(), http::StatusCode::OK);
    }

    /// A body that never sends anything.
    struct Silent;

    impl hyper::body::Body for Silent {
        type Data = hyper::body::Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            self: std::pin::Pin<&mut Self>,
            _cx: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
            std::task::Poll::Pending
        }
    }

    #[tokio::test]
    async fn only_a_body_still_arriving_needs_a_waiting_place() {
        // No waiting place: a body that is here is served ...
        let here = call(guarded(1, Duration::ZERO), "application/json", None, "{}").await;
        assert_eq!(here.status(), http::StatusCode::OK);
        // ... a body still arriving is shed at once.
        let request = http::Request::post("/call")
            .header("content-type", "application/grpc")
            .body(Body::new(Silent))
            .expect("request");
        let waiting = guarded(1, Duration::ZERO)
            .oneshot(request)
            .await
            .expect("infallible");
        assert_eq!(
            grpc_reason(&waiting),
            (
                Code::ResourceExhausted,
                "ERROR_REASON_OVERLOADED".to_owned()
            )
        );
    }

    #[tokio::test]
    async fn a_clients_shorter_deadline_applies() {
        let wait = Duration::from_millis(50);
        let within = call(guarded(1, wait), "application/grpc", None, "").await;
        assert_eq!(within.status(), http::StatusCode::OK);
        let short = call(guarded(1, wait), "application/grpc", Some("5m"), "").await;
        assert_eq!(
            grpc_reason(&short),
            (Code::DeadlineExceeded, "ERROR_REASON_TIMED_OUT".to_owned())
        );
    }

    fn deadline(value: &str) -> Option<Duration> {
        let mut headers = http::HeaderMap::new();
        headers.insert("grpc-timeout", value.parse().expect("header"));
        grpc_timeout(&headers)
    }

    #[test]
    fn grpc_timeouts_are_read_in_every_unit() {
        assert_eq!(deadline("250m"), Some(Duration::from_millis(250)));
        assert_eq!(deadline("2S"), Some(Duration::from_secs(2)));
        assert_eq!(deadline("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(
            deadline("99999999n"),
            Some(Duration::from_nanos(99_999_999))
        );
        for bad in ["", "m", "123456789m", "5x", "-5m", "5 m"] {
            assert_eq!(deadline(bad), None, "{bad:?}");
        }
    }
}
