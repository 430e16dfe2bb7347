//! Which addresses an HTTP hook may reach when it is held to public ones, as Claude Code holds
//! its HTTP hooks: not private networks (RFC 1918, IPv6 unique-local), carrier-grade NAT,
//! link-local (the cloud metadata endpoints `169.254.169.254` and `fd00:ec2::254` among them),
//! multicast, broadcast or reserved ranges, nor an IPv4 address of those wrapped in IPv6;
//! loopback stays reachable (a local policy server).
//!
//! Every HTTP hook is held to them except those of the user's own and the managed native
//! files (`config/resolve.rs`): a project's hooks, and every hook from Claude Code's settings
//! (as Claude Code does), must not aim the user's machine at the LAN or a cloud's metadata
//! service. The names are resolved once, by [`PublicOnly`], and the connection goes only to
//! the addresses that passed, so a name that answers a public address to a check and a
//! private one to the connection (DNS rebinding) gets nowhere. A URL with an address in it
//! is checked by [`refused`] before the request.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Why `ip` may not be reached by a hook held to public addresses; `None`: it may.
pub fn refused(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b) {
        _ if ip.is_loopback() => return None,
        (10, _) | (172, 16..=31) | (192, 168) => "a private network address",
        (100, 64..=127) => "a carrier-grade NAT address",
        (169, 254) => "a link-local address (cloud metadata services live there)",
        (0, _) => "an unspecified address",
        (192, 0) if c == 0 => "an IETF protocol address",
        (198, 18..=19) => "a benchmarking network address",
        (224..=239, _) => "a multicast address",
        (240..=255, _) => "a reserved or broadcast address",
        _ => return None,
    })
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if ip.is_loopback() {
        return None;
    }
    // An IPv4 address inside an IPv6 one (mapped, NAT64, 6to4) is judged as that address.
    if let Some(v4) = embedded_v4(ip) {
        return refused_v4(v4);
    }
    let first = ip.segments()[0];
    Some(match first {
        _ if ip.is_unspecified() => "an unspecified address",
        0xfc00..=0xfdff => "a unique-local (private) address (cloud metadata services live there)",
        0xfe80..=0xfebf => "a link-local address",
        0xfec0..=0xfeff => "a site-local address",
        0xff00..=0xffff => "a multicast address",
        _ => return None,
    })
}

/// The IPv4 address an IPv6 one carries: `::ffff:a.b.c.d`, `::a.b.c.d`, NAT64's
/// `64:ff9b::a.b.c.d`, 6to4's `2002:aabb:ccdd::`.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    let s = ip.segments();
    let low = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    match s {
        [0, 0, 0, 0, 0, 0, hi, lo] if hi != 0 => Some(low(hi, lo)),
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        [0x2002, hi, lo, ..] => Some(low(hi, lo)),
        _ => None,
    }
}

/// The addresses of `addrs` a hook held to public addresses may reach; `Err` names the first
/// refused one when none is left.
pub fn keep_public(host: &str, addrs: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, String> {
    let first_refused = addrs
        .iter()
        .find_map(|a| refused(a.ip()).map(|why| (a.ip(), why)));
    let kept: Vec<SocketAddr> = addrs
        .into_iter()
        .filter(|a| refused(a.ip()).is_none())
        .collect();
    match (kept.is_empty(), first_refused) {
        (false, _) => Ok(kept),
        (true, Some((ip, why))) => Err(format!(
            "{host} resolves to {ip}, {why}; this HTTP hook may reach public addresses and loopback only (as Claude Code's HTTP hooks); move the hook into your own ~/.coding-agent/hooks.json to reach a private address"
        )),
        (true, None) => Err(format!("{host} resolves to no address")),
    }
}

/// A resolver that answers only public (and loopback) addresses.
#[derive(Debug, Clone, Copy, Default)]
pub struct PublicOnly;

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let kept = keep_public(&host, addrs)?;
            Ok(Box::new(kept.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn private_link_local_and_metadata_addresses_are_refused() {
        for bad in [
            "10.0.0.1",
            "172.16.5.4",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "100.100.100.200",
            "169.254.169.254",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "fd00:ec2::254",
            "fc00::1",
            "fe80::1",
            "::",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:c0a8:0101::1",
            "ff02::1",
        ] {
            assert!(refused(ip(bad)).is_some(), "{bad} should be refused");
        }
        for good in [
            "127.0.0.1",
            "127.8.9.1",
            "::1",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "192.0.2.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert_eq!(refused(ip(good)), None, "{good} should be reachable");
        }
    }

    #[test]
    fn only_the_public_addresses_of_a_name_are_kept() {
        let a = |s: &str| SocketAddr::new(ip(s), 0);
        assert_eq!(
            keep_public("x", vec![a("10.0.0.1"), a("1.1.1.1")]),
            Ok(vec![a("1.1.1.1")])
        );
        let e = keep_public("meta.internal", vec![a("169.254.169.254")]).unwrap_err();
        assert!(
            e.contains("meta.internal resolves to 169.254.169.254, a link-local"),
            "{e}"
        );
        assert!(keep_public("x", vec![]).is_err());
    }
}
