//! The client's address behind a proxy: a call that comes from a proxy
//! the operator trusts (`--trusted-proxies`, e.g. the nginx in front of
//! several servers) counts as coming from the address that proxy names in
//! `X-Forwarded-For`, so that the limits kept per client address (tables
//! created, watches held) hold per client and not for the proxy as a
//! whole. The header is read from the right: the first address that is
//! not itself a trusted proxy is the client (what a client writes in the
//! header itself, further left, is not believed). A call from anywhere
//! else keeps its connection's address, whatever it says.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::service::pool::Peer;

/// Where trusted proxies are: address ranges (`10.0.0.0/8`, `::1/128`, or
/// one address).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<(IpAddr, u8)>);

impl TrustedProxies {
    /// The ranges `text` lists (comma-separated; an address alone is a
    /// range of one).
    ///
    /// # Errors
    /// A range that is not an address with an optional prefix length no
    /// longer than the address.
    pub fn parse(text: &str) -> Result<TrustedProxies, String> {
        let mut ranges = Vec::new();
        for range in text.split(',').map(str::trim).filter(|r| !r.is_empty()) {
            let (address, length) = range.split_once('/').unwrap_or((range, ""));
            let address: IpAddr = address
                .parse()
                .map_err(|_| format!("not an address: {range:.60}"))?;
            let most = if address.is_ipv4() { 32 } else { 128 };
            let length = if length.is_empty() {
                most
            } else {
                length
                    .parse::<u8>()
                    .ok()
                    .filter(|length| *length <= most)
                    .ok_or_else(|| format!("not a prefix length: {range:.60}"))?
            };
            ranges.push((address.to_canonical(), length));
        }
        Ok(TrustedProxies(ranges))
    }

    /// Whether none is trusted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `address` is a trusted proxy's.
    #[must_use]
    pub fn trusts(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|(range, length)| match (range, address) {
            (IpAddr::V4(range), IpAddr::V4(address)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(*length)).unwrap_or(0);
                u32::from(*range) & mask == u32::from(address) & mask
            }
            (IpAddr::V6(range), IpAddr::V6(address)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(*length)).unwrap_or(0);
                u128::from(*range) & mask == u128::from(address) & mask
            }
            _ => false,
        })
    }

    /// The client of a call that came from `peer` with `forwarded` (the
    /// `X-Forwarded-For` headers' values, in order).
    #[must_use]
    pub fn client<'a>(&self, peer: IpAddr, forwarded: impl Iterator<Item = &'a str>) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let hops: Vec<&str> = forwarded.flat_map(|value| value.split(',')).collect();
        let mut client = peer;
        for hop in hops.iter().rev() {
            let Ok(address) = hop.trim().parse::<IpAddr>() else {
                // (A hop that is no address: the last one believed is the
                // client.)
                return client;
            };
            client = address.to_canonical();
            if !self.trusts(client) {
                return client;
            }
        }
        client
    }
}

/// Sets each call's [`Peer`] to its client behind the trusted proxies.
pub async fn forwarded(
    State(proxies): State<Arc<TrustedProxies>>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(Peer(peer)) = request.extensions().get::<Peer>().copied() {
        let headers = request.headers().get_all("x-forwarded-for");
        let client = proxies.client(peer, headers.iter().filter_map(|v| v.to_str().ok()));
        request.extensions_mut().insert(Peer(client));
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn ranges_are_read_and_matched() {
        let proxies = TrustedProxies::parse("10.0.0.0/8, 127.0.0.1,fd00::/8").expect("ranges");
        assert!(proxies.trusts(ip("10.1.2.3")));
        assert!(proxies.trusts(ip("127.0.0.1")));
        assert!(proxies.trusts(ip("::ffff:127.0.0.1")));
        assert!(!proxies.trusts(ip("127.0.0.2")));
        assert!(proxies.trusts(ip("fd12::1")));
        assert!(!proxies.trusts(ip("fe80::1")));
        assert!(
            TrustedProxies::parse("0.0.0.0/0")
                .expect("all")
                .trusts(ip("1.2.3.4"))
        );
        assert!(TrustedProxies::parse("").expect("none").is_empty());
        for bad in ["10.0.0.0/33", "nginx", "::/129", "1.2.3.4/x"] {
            assert!(TrustedProxies::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_client_is_the_first_untrusted_hop_from_the_right() {
        let proxies = TrustedProxies::parse("127.0.0.1,10.0.0.0/8").expect("ranges");
        let nginx = ip("127.0.0.1");
        // A client behind the proxy.
        assert_eq!(
            proxies.client(nginx, ["203.0.113.7"].into_iter()),
            ip("203.0.113.7")
        );
        // What the client wrote itself, to the left, is not believed.
        assert_eq!(
            proxies.client(nginx, ["1.1.1.1, 203.0.113.7, 10.0.0.5"].into_iter()),
            ip("203.0.113.7")
        );
        assert_eq!(
            proxies.client(nginx, ["1.1.1.1", "203.0.113.7"].into_iter()),
            ip("203.0.113.7")
        );
        // No header, or nonsense in it: the last address believed.
        assert_eq!(proxies.client(nginx, std::iter::empty()), nginx);
        assert_eq!(proxies.client(nginx, ["not an address"].into_iter()), nginx);
        assert_eq!(
            proxies.client(nginx, ["x, 10.0.0.5"].into_iter()),
            ip("10.0.0.5")
        );
        // A client that is no trusted proxy names nobody else.
        assert_eq!(
            proxies.client(ip("198.51.100.1"), ["203.0.113.7"].into_iter()),
            ip("198.51.100.1")
        );
    }
}
