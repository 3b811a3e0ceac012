//! TLS on the server's one port (rustls): the certificate chain and key
//! from PEM files, ALPN offering `h2` and `http/1.1`, so that gRPC,
//! gRPC-Web and HTTP/JSON all work over it.

use std::sync::Arc;

use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The TLS settings for the PEM certificate chain `cert` and private key
/// `key`.
///
/// # Errors
/// When either does not parse or the key does not match the certificate.
pub fn config(cert: &[u8], key: &[u8]) -> Result<Arc<ServerConfig>, String> {
    let chain = CertificateDer::pem_slice_iter(cert)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("the certificate file is not PEM certificates: {e}"))?;
    if chain.is_empty() {
        return Err("the certificate file holds no certificate".to_owned());
    }
    let key = PrivateKeyDer::from_pem_slice(key)
        .map_err(|e| format!("the key file holds no PEM private key: {e}"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS versions: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| format!("the key does not fit the certificate: {e}"))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}
