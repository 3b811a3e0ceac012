//! Who a client is, for the tables' fair shares: its address, and the
//! network and block around it. One host commonly holds a whole IPv6 /64,
//! one site a /48 (or an IPv4 /24), one provider a /32 (or an IPv4 /16);
//! every share of the tables is kept at each of the three widths, wider
//! at each step out, so that many addresses of one network count as one
//! client at the wider widths.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The widths a client counts at, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// Its address (IPv4 whole; IPv6 its /64).
    Address,
    /// Its network: IPv4 /24, IPv6 /48.
    Network,
    /// Its provider's block: IPv4 /16, IPv6 /32.
    Block,
}

impl Width {
    /// Every width, narrowest first.
    pub const ALL: [Width; 3] = [Width::Address, Width::Network, Width::Block];

    /// How many times an address's share a group of this width has.
    #[must_use]
    pub fn times(self) -> u64 {
        match self {
            Width::Address => 1,
            Width::Network => 10,
            Width::Block => 100,
        }
    }

    /// Its prefix length for an IPv4 and an IPv6 address.
    fn prefixes(self) -> (u8, u8) {
        match self {
            Width::Address => (32, 64),
            Width::Network => (24, 48),
            Width::Block => (16, 32),
        }
    }

    /// As a refusal names it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Width::Address => "address",
            Width::Network => "network (IPv4 /24, IPv6 /48)",
            Width::Block => "block of addresses (IPv4 /16, IPv6 /32)",
        }
    }

    /// Its index in [`Width::ALL`] and in a client's [`Networks`].
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Width::Address => 0,
            Width::Network => 1,
            Width::Block => 2,
        }
    }
}

/// A client at each width: the prefixes its address falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Networks([(IpAddr, u8); 3]);

/// `address` with all but its first `length` bits cleared.
fn masked(address: IpAddr, (v4, v6): (u8, u8)) -> (IpAddr, u8) {
    match address {
        IpAddr::V4(address) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(v4)).unwrap_or(0);
            (IpAddr::V4(Ipv4Addr::from(u32::from(address) & mask)), v4)
        }
        IpAddr::V6(address) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(v6)).unwrap_or(0);
            (IpAddr::V6(Ipv6Addr::from(u128::from(address) & mask)), v6)
        }
    }
}

impl Networks {
    /// The client at `peer` (an IPv4-mapped IPv6 address as IPv4; no
    /// address, for a call from within the process: the unspecified one).
    #[must_use]
    pub fn of(peer: Option<IpAddr>) -> Networks {
        let address = peer.map_or(IpAddr::from([0, 0, 0, 0]), |peer| peer.to_canonical());
        Networks(Width::ALL.map(|width| masked(address, width.prefixes())))
    }

    /// Its prefix at `width`.
    #[must_use]
    pub fn at(&self, width: Width) -> IpAddr {
        self.0[width.index()].0
    }

    /// Its prefix at `width` as text, as a table keeps it (`203.0.113.7`,
    /// `203.0.113.0/24`, `2001:db8::/64`).
    #[must_use]
    pub fn key(&self, width: Width) -> String {
        let (prefix, length) = self.0[width.index()];
        match (prefix, length) {
            (IpAddr::V4(_), 32) => prefix.to_string(),
            _ => format!("{prefix}/{length}"),
        }
    }

    /// Its keys at every width, narrowest first.
    #[must_use]
    pub fn keys(&self) -> [String; 3] {
        Width::ALL.map(|width| self.key(width))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().expect("an address"))
    }

    #[test]
    fn a_client_counts_by_its_address_network_and_block() {
        assert_eq!(
            Networks::of(ip("203.0.113.7")).keys(),
            ["203.0.113.7", "203.0.113.0/24", "203.0.0.0/16"]
        );
        assert_eq!(
            Networks::of(ip("::ffff:203.0.113.7")),
            Networks::of(ip("203.0.113.7"))
        );
        assert_eq!(
            Networks::of(ip("2001:db8:aa:bb:1:2:3:4")).keys(),
            ["2001:db8:aa:bb::/64", "2001:db8:aa::/48", "2001:db8::/32"]
        );
        // Two hosts of one /64 are one address.
        assert_eq!(
            Networks::of(ip("2001:db8::1")),
            Networks::of(ip("2001:db8::ffff:2"))
        );
        assert_eq!(Networks::of(None).key(Width::Address), "0.0.0.0");
        assert_eq!(
            Networks::of(ip("10.1.2.3")).at(Width::Block),
            IpAddr::from([10, 1, 0, 0])
        );
    }
}
