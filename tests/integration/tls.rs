//! TLS on the one port: with a certificate the test makes, HTTP/2 (ALPN
//! h2, as gRPC uses it) and HTTP/1.1 both answer over TLS, and a plaintext
//! client on the TLS port is turned away without harm to the server.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use pips::server::Config;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsConnector;

/// A client that trusts `cert` alone and offers `alpn`.
fn connector(cert: &CertificateDer<'static>, alpn: &[u8]) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.clone()).expect("a root");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![alpn.to_vec()];
    TlsConnector::from(Arc::new(config))
}

#[tokio::test]
async fn every_protocol_on_the_port_speaks_tls() {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("a cert");
    let cert_pem = made.cert.pem();
    let key_pem = made.signing_key.serialize_pem();
    let tls = pips::server::tls::config(cert_pem.as_bytes(), key_pem.as_bytes()).expect("tls");
    assert!(pips::server::tls::config(b"no pem", key_pem.as_bytes()).is_err());

    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = Config {
        tls: Some(tls),
        ..Config::default()
    };
    let server = tokio::spawn(pips::server::run(listener, config, async {
        let _ = stopped.await;
    }));
    let cert = made.cert.der().clone();
    let name = ServerName::try_from("localhost").expect("a name");

    // A plaintext client is turned away.
    let mut plain = TcpStream::connect(addr).await.expect("connect");
    plain
        .write_all(b"POST /v1/ListVariants HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n")
        .await
        .expect("write");
    drop(plain);

    for alpn in [&b"h2"[..], &b"http/1.1"[..]] {
        let tcp = TcpStream::connect(addr).await.expect("connect");
        let stream = connector(&cert, alpn)
            .connect(name.clone(), tcp)
            .await
            .expect("a TLS handshake");
        assert_eq!(stream.get_ref().1.alpn_protocol(), Some(alpn), "ALPN");
        let io = TokioIo::new(stream);
        let request = http::Request::post("https://localhost/v1/ListVariants")
            .body(Full::new(Bytes::new()))
            .expect("request");
        let answer = if alpn == b"h2" {
            let (mut sender, connection) =
                hyper::client::conn::http2::handshake(TokioExecutor::new(), io)
                    .await
                    .expect("h2");
            tokio::spawn(connection);
            // A gRPC call too (an empty ListVariantsRequest, framed).
            let grpc =
                http::Request::post("https://localhost/pips.v1.DominoEngineService/ListVariants")
                    .header("content-type", "application/grpc")
                    .header("te", "trailers")
                    .body(Full::new(Bytes::from_static(&[0, 0, 0, 0, 0])))
                    .expect("request");
            let answer = sender.send_request(grpc).await.expect("a gRPC answer");
            assert_eq!(answer.status(), http::StatusCode::OK);
            let body = answer.into_body().collect().await.expect("body");
            let status = body.trailers().and_then(|t| t.get("grpc-status")).cloned();
            assert_eq!(status.as_ref().map(|s| s.as_bytes()), Some(&b"0"[..]));
            assert!(body.to_bytes().len() > 100, "the variants");
            sender.send_request(request).await.expect("an answer")
        } else {
            let (mut sender, connection) = hyper::client::conn::http1::handshake(io)
                .await
                .expect("http/1.1");
            tokio::spawn(connection);
            sender.send_request(request).await.expect("an answer")
        };
        assert_eq!(answer.status(), http::StatusCode::OK, "{alpn:?}");
        let body = answer.into_body().collect().await.expect("body").to_bytes();
        let json: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert!(json["variants"].as_array().is_some_and(|v| !v.is_empty()));
    }
    let _ = stop.send(());
    server.await.expect("task").expect("a clean stop");
}
