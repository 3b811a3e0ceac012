//! The real server on `127.0.0.1:0` for one test, and the plain HTTP/1.1
//! client the JSON and gRPC-Web tests talk to it with.

#![allow(dead_code)]

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use pips::proto::domino_engine_service_client::DominoEngineServiceClient;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// A server running for one test; `stop` shuts it down and checks that it
/// ran cleanly.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), pips::server::ServerError>>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        TestServer::start_with(pips::server::Config::default()).await
    }

    pub async fn start_with(config: pips::server::Config) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(pips::server::run(listener, config, async {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A gRPC client on its own connection.
    pub async fn client(&self) -> DominoEngineServiceClient<Channel> {
        DominoEngineServiceClient::connect(format!("http://{}", self.addr))
            .await
            .expect("connect")
    }

    /// `http://127.0.0.1:port`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await
                .expect("server task")
                .expect("server ran cleanly");
        }
    }
}

/// An HTTP/1.1-only client (as curl or a browser's fetch would speak).
pub fn http1_client() -> Client<HttpConnector, Full<Bytes>> {
    Client::builder(TokioExecutor::new()).build_http()
}

/// An answer: status, headers and body.
pub struct Answer {
    pub status: http::StatusCode,
    pub headers: http::HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
}

/// Sends `request` over HTTP/1.1 and reads the whole answer.
pub async fn send(request: http::Request<Full<Bytes>>) -> Answer {
    let response = http1_client().request(request).await.expect("HTTP call");
    let (parts, body) = response.into_parts();
    let body = body.collect().await.expect("body").to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

/// `POST url` with a JSON body.
pub async fn post_json(url: &str, body: impl Into<Bytes>) -> Answer {
    let request = http::Request::post(url)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(Full::new(body.into()))
        .expect("request");
    send(request).await
}

/// `method url` with no body.
pub async fn call(method: http::Method, url: &str) -> Answer {
    let request = http::Request::builder()
        .method(method)
        .uri(url)
        .body(Full::new(Bytes::new()))
        .expect("request");
    send(request).await
}
