//! What a package reference names: `oci://registry/repo:tag`, `oci://registry/repo@sha256:…`
//! (an OCI manifest digest), `https://host/x.wasm#sha256=…` (the module's own digest), or a
//! local `.wasm` file. Parsing only; fetching is `registry.rs` / `https.rs`.
//!
//! Plain HTTP is only for loopback hosts (`localhost`, `127.0.0.0/8`, `::1`) unless the user
//! says `--insecure`: [`is_loopback_host`] is the one test.

use super::store::Digest;
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

fn parse_oci(rest: &str) -> Result<OciRef, RefError> {
    let bad = |why: &str| {
        RefError(format!(
            "oci://{rest}: {why}; write oci://registry/repo:tag or oci://registry/repo@sha256:<hex>"
        ))
    };
    let (name, digest) = match rest.split_once('@') {
        Some((n, d)) => (n, Some(Digest::parse(d).map_err(|e| bad(&e.to_string()))?)),
        None => (rest, None),
    };
    let (registry, path) = name
        .split_once('/')
        .ok_or_else(|| bad("no repository after the registry"))?;
    if registry.is_empty() || registry.contains(|c: char| c.is_whitespace() || c == '#' || c == '?')
    {
        return Err(bad("no registry host"));
    }
    let (repository, tag) = match path.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, Some(t.to_string())),
        _ => (path, None),
    };
    let repo_ok = !repository.is_empty()
        && repository.split('/').all(|part| {
            !part.is_empty()
                && part.chars().all(|c| {
                    c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-')
                })
        });
    if !repo_ok {
        return Err(bad(
            "the repository must be lowercase letters, digits, `.`, `_`, `-` and `/`",
        ));
    }
    if let Some(t) = &tag {
        let ok = !t.is_empty()
            && t.len() <= 128
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
        if !ok {
            return Err(bad("a tag is up to 128 letters, digits, `.`, `_` or `-`"));
        }
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
}
