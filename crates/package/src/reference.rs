//! What a package reference names: `oci://registry/repo:tag`, `oci://registry/repo@sha256:…`
//! (an OCI manifest digest), `https://host/x.wasm#sha256=…` (the module's own digest), or a
//! local `.wasm` file. Parsing only; fetching is `registry.rs` / `https.rs`.
//!
//! Plain HTTP is only for loopback hosts (`localhost`, `127.0.0.0/8`, `::1`) unless the user
//! says `--insecure`: [`is_loopback_host`] is the one test.

use hookhost::store::Digest;
use std::path::PathBuf;

/// A parsed package reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageRef {
    /// An artifact in an OCI registry.
    Oci(OciRef),
    /// A `.wasm` over HTTP(S) with the module's digest in the fragment.
    Url {
        /// The URL without its fragment.
        url: String,
        /// The module's digest (`#sha256=...`).
        digest: Digest,
    },
    /// A local file.
    File(PathBuf),
}

/// `registry/repository[:tag][@sha256:...]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OciRef {
    /// `host[:port]`.
    pub registry: String,
    /// `path/to/repo`.
    pub repository: String,
    /// The tag, if any.
    pub tag: Option<String>,
    /// The manifest digest, if any.
    pub digest: Option<Digest>,
}

impl OciRef {
    /// `oci://registry/repository:tag` (no digest): what `hooks.json` records as `ref` so
    /// that `update` can move it.
    pub fn tagged(&self) -> String {
        match &self.tag {
            Some(t) => format!("oci://{}/{}:{t}", self.registry, self.repository),
            None => format!("oci://{}/{}", self.registry, self.repository),
        }
    }

    /// The host without the port.
    pub fn host(&self) -> &str {
        host_of(&self.registry)
    }
}

impl std::fmt::Display for OciRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "oci://{}/{}", self.registry, self.repository)?;
        if let Some(t) = &self.tag {
            write!(f, ":{t}")?;
        }
        if let Some(d) = &self.digest {
            write!(f, "@{d}")?;
        }
        Ok(())
    }
}

/// Why a reference cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RefError(pub String);

/// `host` of `host:port` (IPv6 literals in brackets kept whole).
pub fn host_of(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority
            .split_once(']')
            .map_or(authority, |(h, _)| &h[1..]);
    }
    authority.split(':').next().unwrap_or(authority)
}

/// Whether `host` is this machine (plain HTTP allowed without `--insecure`).
pub fn is_loopback_host(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl std::str::FromStr for PackageRef {
    type Err = RefError;
    fn from_str(text: &str) -> Result<PackageRef, RefError> {
        if let Some(rest) = text.strip_prefix("oci://") {
            return parse_oci(rest).map(PackageRef::Oci);
        }
        if text.starts_with("https://") || text.starts_with("http://") {
            let Some((url, fragment)) = text.split_once('#') else {
                return Err(RefError(format!(
                    "{text}: a URL needs the module's digest: append #sha256=<64 hex digits> (`hookhost inspect FILE` prints it)"
                )));
            };
            let Some(hex) = fragment.strip_prefix("sha256=") else {
                return Err(RefError(format!(
                    "{text}: the fragment must be #sha256=<64 hex digits>"
                )));
            };
            let digest = Digest::parse(hex).map_err(|e| RefError(format!("{text}: {e}")))?;
            return Ok(PackageRef::Url {
                url: url.to_string(),
                digest,
            });
        }
        if text.contains("://") {
            return Err(RefError(format!(
                "{text}: unknown scheme; use oci://registry/repo:tag, https://host/x.wasm#sha256=..., or a local .wasm file"
            )));
        }
        Ok(PackageRef::File(PathBuf::from(text)))
    }
}

/// A valid reference, shown in every error about one.
pub const OCI_EXAMPLE: &str = "oci://registry.example.com/team/guard:1.0";

/// The longest repository name accepted (what registries and clients commonly enforce).
const REPOSITORY_MAX: usize = 255;

fn parse_oci(rest: &str) -> Result<OciRef, RefError> {
    let bad = |why: &str| {
        RefError(format!(
            "oci://{rest}: {why}; write oci://registry/repository:tag or oci://registry/repository@sha256:<64 hex digits>, e.g. {OCI_EXAMPLE}"
        ))
    };
    let (registry, path) = rest
        .split_once('/')
        .ok_or_else(|| bad("no repository after the registry"))?;
    check_registry(registry).map_err(|why| bad(&why))?;
    let (name, digest) = match path.split_once('@') {
        Some((n, d)) => (n, Some(Digest::parse(d).map_err(|e| bad(&e.to_string()))?)),
        None => (path, None),
    };
    let (repository, tag) = match name.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, Some(t.to_string())),
        _ => (name, None),
    };
    check_repository(repository).map_err(|why| bad(&why))?;
    if let Some(t) = &tag
        && !tag_ok(t)
    {
        return Err(bad(&format!(
            "the tag {t:?} is not a tag: up to 128 letters, digits, `_`, `.` and `-`, not starting with `.` or `-`"
        )));
    }
    if tag.is_none() && digest.is_none() {
        return Err(bad("no tag and no digest"));
    }
    Ok(OciRef {
        registry: registry.to_string(),
        repository: repository.to_string(),
        tag,
        digest,
    })
}

/// `host[:port]`: DNS labels or an IPv4 address, or an IPv6 literal in brackets, and a port
/// of 1 to 65535. Nothing else: no user name, no path, no percent-encoding.
fn check_registry(registry: &str) -> Result<(), String> {
    if registry.is_empty() {
        return Err("no registry host".into());
    }
    if registry.contains('@') {
        return Err(
            "a registry is host[:port]; credentials never go in a reference (`docker login`, or HOOKHOST_REGISTRY_HOST with HOOKHOST_REGISTRY_USERNAME/PASSWORD)"
                .into(),
        );
    }
    let (host, port) = if let Some(inner) = registry.strip_prefix('[') {
        let (ip, after) = inner
            .split_once(']')
            .ok_or_else(|| format!("the registry {registry:?} opens `[` without closing it"))?;
        if ip.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(format!(
                "the registry {registry:?} is not an IPv6 address in brackets"
            ));
        }
        match after {
            "" => (ip, None),
            a => match a.strip_prefix(':') {
                Some(p) => (ip, Some(p)),
                None => return Err(format!("the registry {registry:?} is not host[:port]")),
            },
        }
    } else {
        match registry.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (registry, None),
        }
    };
    if !registry.starts_with('[') {
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        };
        if host.len() > 253 || !host.split('.').all(label_ok) {
            return Err(format!(
                "the registry host {host:?} is not a host name: DNS labels of letters, digits and `-` joined by `.`"
            ));
        }
    }
    if let Some(p) = port {
        let ok = !p.is_empty()
            && p.len() <= 5
            && p.bytes().all(|b| b.is_ascii_digit())
            && p.parse::<u32>().is_ok_and(|n| (1..=65535).contains(&n));
        if !ok {
            return Err(format!(
                "the registry port {p:?} is not a port (1 to 65535)"
            ));
        }
    }
    Ok(())
}

/// The OCI distribution grammar for repository names:
/// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*`, at most 255
/// characters.
fn check_repository(repository: &str) -> Result<(), String> {
    if repository.is_empty() {
        return Err("no repository after the registry".into());
    }
    if repository.len() > REPOSITORY_MAX {
        return Err(format!(
            "the repository is {} characters, over the {REPOSITORY_MAX} registries accept",
            repository.len()
        ));
    }
    if repository.contains('%') {
        return Err(
            "percent-encoded characters (`%2e`, `%2f`, ...) are not part of a repository name"
                .into(),
        );
    }
    for part in repository.split('/') {
        match part {
            "" => {
                return Err(
                    "the repository has an empty path component (`//`, or a `/` at its start or end)"
                        .into(),
                );
            }
            "." | ".." => {
                return Err(format!(
                    "`{part}` is not a repository path component: a repository is lowercase names joined by `/`, never a relative path"
                ));
            }
            _ if !component_ok(part) => {
                return Err(format!(
                    "the repository component {part:?} is not an OCI name: lowercase letters and digits, separated inside by one `.`, one or two `_`, or `-`s, never starting or ending with one"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// One `/`-separated component: `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`.
fn component_ok(part: &str) -> bool {
    let b = part.as_bytes();
    let alnum = |x: u8| x.is_ascii_lowercase() || x.is_ascii_digit();
    let mut i = 0;
    loop {
        let start = i;
        while i < b.len() && alnum(b[i]) {
            i += 1;
        }
        if i == start {
            return false;
        }
        if i == b.len() {
            return true;
        }
        let sep_start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &part[sep_start..i];
        let ok = matches!(sep, "." | "_" | "__") || sep.bytes().all(|x| x == b'-');
        if !ok {
            return false;
        }
    }
}

/// The OCI distribution grammar for tags: `[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}`.
fn tag_ok(tag: &str) -> bool {
    let b = tag.as_bytes();
    !b.is_empty()
        && b.len() <= 128
        && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_parse() {
        let hex = "ab".repeat(32);
        let r: PackageRef = "oci://127.0.0.1:5000/hooks/guard:0.1.0".parse().unwrap();
        let PackageRef::Oci(o) = r else { panic!() };
        assert_eq!(
            (o.registry.as_str(), o.repository.as_str(), o.tag.as_deref()),
            ("127.0.0.1:5000", "hooks/guard", Some("0.1.0"))
        );
        assert!(is_loopback_host(o.host()));
        let r: PackageRef = format!("oci://ghcr.io/a/b@sha256:{hex}").parse().unwrap();
        let PackageRef::Oci(o) = r else { panic!() };
        assert_eq!(
            (o.tag, o.digest.map(|d| d.hex().to_string())),
            (None, Some(hex.clone()))
        );
        assert!(!is_loopback_host("ghcr.io"));
        let r: PackageRef = format!("https://x.dev/g.wasm#sha256={hex}")
            .parse()
            .unwrap();
        assert!(matches!(r, PackageRef::Url { .. }));
        assert!(matches!(
            "guard.wasm".parse::<PackageRef>().unwrap(),
            PackageRef::File(_)
        ));
        for bad in [
            "oci://ghcr.io",
            "oci://ghcr.io/Upper:1",
            "oci://ghcr.io/a",
            "https://x/g.wasm",
            "ftp://x/y",
        ] {
            assert!(bad.parse::<PackageRef>().is_err(), "{bad}");
        }
        assert_eq!(host_of("[::1]:5000"), "::1");
        assert!(is_loopback_host(host_of("[::1]:5000")));
    }

    #[test]
    fn repository_names_follow_the_oci_grammar() {
        for good in [
            "oci://ghcr.io/a/b:1",
            "oci://ghcr.io/a-b/c.d/e_f/g__h/i---j:v1.0_rc-2",
            "oci://127.0.0.1:5000/hooks/guard:_x",
            "oci://[::1]:5000/hooks/guard:1",
            "oci://localhost/hooks/guard:1",
            "oci://Registry.Example.COM/x:1",
        ] {
            assert!(good.parse::<PackageRef>().is_ok(), "{good}");
        }
        for (bad, says) in [
            ("oci://h/../../etc:1.0", "`..`"),
            ("oci://h/a/./b:1", "`.`"),
            ("oci://h/a/%2e%2e/b:1", "percent"),
            ("oci://h/a%2fb:1", "percent"),
            ("oci://h/a//b:1", "empty path component"),
            ("oci://h//a:1", "empty path component"),
            ("oci://h/a/:1", "empty path component"),
            ("oci://h/a./b:1", "not an OCI name"),
            ("oci://h/a..b:1", "not an OCI name"),
            ("oci://h/a___b:1", "not an OCI name"),
            ("oci://h/a._b:1", "not an OCI name"),
            ("oci://h/-a:1", "not an OCI name"),
            ("oci://h/A:1", "not an OCI name"),
            ("oci://h/a:.1", "not a tag"),
            ("oci://h/a:-1", "not a tag"),
            ("oci://h/a:1?x", "not a tag"),
            ("oci://h/a:1#x", "not a tag"),
            ("oci://h/a:", "not a tag"),
            ("oci://me@h/a:1", "credentials"),
            ("oci://h:/a:1", "port"),
            ("oci://h:0/a:1", "port"),
            ("oci://h:99999/a:1", "port"),
            ("oci://h:5x/a:1", "port"),
            ("oci://../a:1", "host name"),
            ("oci://-h/a:1", "host name"),
            ("oci://h_x/a:1", "host name"),
            ("oci://[::1/a:1", "`[`"),
            ("oci://[nope]/a:1", "IPv6"),
        ] {
            let e = bad.parse::<PackageRef>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
            assert!(e.contains(OCI_EXAMPLE), "{bad}: no example in {e}");
        }
        let long = format!("oci://h/{}:1", "a".repeat(256));
        assert!(
            long.parse::<PackageRef>()
                .unwrap_err()
                .to_string()
                .contains("255")
        );
        let tag = format!("oci://h/a:{}", "t".repeat(129));
        assert!(tag.parse::<PackageRef>().is_err());
    }
}
