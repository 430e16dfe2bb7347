//! Publishing a packed hook to an OCI registry and fetching one back, through `oci-client`.
//!
//! The artifact follows the wasm OCI artifact layout: an image manifest whose config has
//! media type `application/vnd.wasm.config.v0+json` and whose one layer is the module
//! (`application/wasm`); the hook's manifest is also in the image manifest's annotations
//! (`dev.hookhost.manifest`, plus the `org.opencontainers.image.*` title, version,
//! description, authors and licenses).
//!
//! A registry is hostile until its bytes are checked: an image index, a foreign artifact,
//! more or other layers are refused; a manifest is read up to [`MANIFEST_LIMIT`] (its
//! `Content-Length` checked first, then the stream cut off), a token answer up to
//! [`TOKEN_LIMIT`], an error body up to 4 KiB; a layer declared larger than
//! [`PACKAGE_LIMIT`] is refused before it is downloaded, and a download is cut off past the
//! limit whatever the registry declared; the module's bytes must hash to the layer digest;
//! a manifest's digest is the SHA-256 of the bytes read (never a header's say), and one
//! pulled by digest must have that digest. Plain HTTP is used for loopback registries only,
//! unless the caller says `insecure`; a redirect to plain HTTP elsewhere is refused.
//!
//! Pulls (`add`, `update`, `fetch`) speak the distribution API here, not through
//! `oci-client`, which reads bodies whole and sends basic credentials to whatever token
//! realm a registry names. Credentials ([`Credentials`]) are bound to one registry and used
//! only for it: as HTTP basic auth on its own origin, or sent to its token service only when
//! that service is on the registry's own origin (or the one origin the user named in
//! `HOOKHOST_REGISTRY_REALM`); a realm elsewhere is asked for an anonymous token. A push
//! gets its token the same way and hands `oci-client` only that bearer token. Credentials
//! and tokens are never logged.

mod session;
mod token;

use super::manifest::Manifest;
use super::reference::{OciRef, is_loopback_host};
use super::section::{self, BinaryKind};
use hookhost::store::{Digest, PACKAGE_LIMIT};
use oci_client::client::{ClientConfig, ClientProtocol, Config, ImageLayer};
use oci_client::manifest::{OciImageManifest, OciManifest};
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference};
use session::{Auth, Session};
use std::collections::BTreeMap;

/// The config media type of a wasm artifact.
pub const WASM_CONFIG_MEDIA_TYPE: &str = "application/vnd.wasm.config.v0+json";
/// The layer media type of a wasm module or component.
pub const WASM_LAYER_MEDIA_TYPE: &str = "application/wasm";
/// The annotation that carries the hook's manifest.
pub const MANIFEST_ANNOTATION: &str = "dev.hookhost.manifest";

/// What went wrong talking to a registry.
#[derive(Debug, thiserror::Error)]
#[error("{reference}: {message}")]
pub struct RegistryError {
    /// The reference, as given.
    pub reference: String,
    /// What went wrong and what to do.
    pub message: String,
}

pub use crate::credentials::Credentials;

/// A package pulled from a registry.
#[derive(Debug, Clone)]
pub struct Pulled {
    /// The module's bytes, checked against `digest`.
    pub bytes: Vec<u8>,
    /// The module's digest (the layer's): what `hooks.json` pins.
    pub digest: Digest,
    /// The image manifest's digest (what `oci://...@sha256:` names).
    pub manifest_digest: String,
}

/// HTTPS, except plain HTTP for a loopback registry or when the user said `insecure`.
fn protocol(r: &OciRef, insecure: bool) -> ClientProtocol {
    if insecure || is_loopback_host(r.host()) {
        ClientProtocol::HttpsExcept(vec![r.registry.clone()])
    } else {
        ClientProtocol::Https
    }
}

fn client(r: &OciRef, insecure: bool) -> Client {
    Client::new(ClientConfig {
        protocol: protocol(r, insecure),
        platform_resolver: None,
        connect_timeout: Some(std::time::Duration::from_secs(10)),
        read_timeout: Some(std::time::Duration::from_secs(60)),
        ..ClientConfig::default()
    })
}

fn oci_reference(r: &OciRef) -> Reference {
    match (&r.tag, &r.digest) {
        (_, Some(d)) => {
            Reference::with_digest(r.registry.clone(), r.repository.clone(), d.to_string())
        }
        (Some(t), None) => Reference::with_tag(r.registry.clone(), r.repository.clone(), t.clone()),
        (None, None) => {
            Reference::with_tag(r.registry.clone(), r.repository.clone(), "latest".into())
        }
    }
}

fn explain(r: &OciRef, e: impl std::fmt::Display) -> RegistryError {
    let text = e.to_string();
    let hint = if text.contains("401") || text.contains("nauthorized") {
        credentials_hint(r)
    } else if text.contains("onnect") || text.contains("error sending request") {
        "; is the registry up and the address right? (plain HTTP is used only for loopback registries, or with --insecure)".into()
    } else {
        String::new()
    };
    RegistryError {
        reference: r.to_string(),
        message: format!("{text}{hint}"),
    }
}

/// The `org.opencontainers.image.*` and `dev.hookhost.manifest` annotations of `manifest`.
pub fn annotations(manifest: &Manifest) -> BTreeMap<String, String> {
    let mut a = BTreeMap::new();
    a.insert(
        "org.opencontainers.image.title".into(),
        manifest.name.clone(),
    );
    a.insert(
        "org.opencontainers.image.version".into(),
        manifest.version.clone(),
    );
    for (key, v) in [
        (
            "org.opencontainers.image.description",
            &manifest.description,
        ),
        ("org.opencontainers.image.authors", &manifest.author),
        ("org.opencontainers.image.licenses", &manifest.license),
    ] {
        if let Some(v) = v {
            a.insert(key.into(), v.clone());
        }
    }
    a.insert(
        MANIFEST_ANNOTATION.into(),
        String::from_utf8_lossy(&manifest.to_json()).into_owned(),
    );
    a
}

/// The most a manifest may be: 4 MiB, the limit the OCI distribution spec recommends
/// registries accept (a wasm artifact's is under 2 KiB).
pub const MANIFEST_LIMIT: u64 = 4 << 20;
/// The most a token service's answer may be.
pub const TOKEN_LIMIT: u64 = 1 << 20;
fn credentials_hint(r: &OciRef) -> String {
    format!(
        "; if the registry wants credentials: `docker login {reg}` (docker's config.json), or {host}={reg} with {user} / {pass}",
        reg = r.registry,
        host = super::credentials::HOST_ENV,
        user = super::credentials::USERNAME_ENV,
        pass = super::credentials::PASSWORD_ENV,
    )
}

/// Pushes a packed module to `r` (a tag). Returns the module's digest and the pushed image
/// manifest's URL.
pub async fn push(
    r: &OciRef,
    wasm: &[u8],
    manifest: &Manifest,
    creds: &Credentials,
    insecure: bool,
) -> Result<(Digest, String), RegistryError> {
    if wasm.len() as u64 > PACKAGE_LIMIT {
        return Err(RegistryError {
            reference: r.to_string(),
            message: format!(
                "the module is {} bytes, over the {} MiB package limit",
                wasm.len(),
                PACKAGE_LIMIT >> 20
            ),
        });
    }
    let digest = Digest::of(wasm);
    let os = match section::kind(wasm) {
        Ok(BinaryKind::Component) => "wasip2",
        _ => "wasip1",
    };
    let config = serde_json::json!({
        "architecture": "wasm",
        "os": os,
        "layerDigests": [digest.to_string()],
    });
    let config = Config::new(
        serde_json::to_vec(&config).unwrap_or_default(),
        WASM_CONFIG_MEDIA_TYPE.into(),
        None,
    );
    let layers = [ImageLayer::new(
        wasm.to_vec(),
        WASM_LAYER_MEDIA_TYPE.into(),
        None,
    )];
    let image = OciImageManifest::build(&layers, &config, Some(annotations(manifest)));
    let reference = oci_reference(r);
    // The token is got here, by the rules above; oci-client only ever sees it (or basic
    // credentials for the registry itself), never a realm to send credentials to.
    let session = Session::open(r, creds, insecure, "pull,push").await?;
    let auth = match session.auth {
        Auth::Anonymous => RegistryAuth::Anonymous,
        Auth::Basic(u, p) => RegistryAuth::Basic(u, p),
        Auth::Bearer(t) => RegistryAuth::Bearer(t),
    };
    let pushed = client(r, insecure)
        .push(&reference, &layers, config, &auth, Some(image))
        .await
        .map_err(|e| explain(r, e))?;
    Ok((digest, pushed.manifest_url))
}

/// Resolves `r` and downloads its module, checked (see the module docs).
pub async fn pull(
    r: &OciRef,
    creds: &Credentials,
    insecure: bool,
) -> Result<Pulled, RegistryError> {
    let bad = |message: String| RegistryError {
        reference: r.to_string(),
        message,
    };
    let session = Session::open(r, creds, insecure, "pull").await?;
    let reference = match (&r.digest, &r.tag) {
        (Some(d), _) => d.to_string(),
        (None, Some(t)) => t.clone(),
        (None, None) => "latest".into(),
    };
    let (body, manifest_digest) = session.manifest(&reference).await?;
    if let Some(want) = &r.digest
        && manifest_digest != want.to_string()
    {
        return Err(bad(format!(
            "the registry answered with manifest {manifest_digest}, not the one asked for"
        )));
    }
    let manifest: OciManifest = serde_json::from_slice(&body)
        .map_err(|e| bad(format!("its manifest is not an OCI image manifest: {e}")))?;
    let OciManifest::Image(image) = manifest else {
        return Err(bad(
            "an image index, not a wasm artifact; publish the hook with `hookhost publish`".into(),
        ));
    };
    if image.schema_version != 2 {
        return Err(bad(format!(
            "its manifest has schemaVersion {}, not 2",
            image.schema_version
        )));
    }
    if image.config.media_type != WASM_CONFIG_MEDIA_TYPE {
        return Err(bad(format!(
            "not a wasm artifact (config media type {:?}, expected {WASM_CONFIG_MEDIA_TYPE})",
            image.config.media_type
        )));
    }
    let [layer] = image.layers.as_slice() else {
        return Err(bad(format!(
            "a wasm artifact has one layer; this one has {}",
            image.layers.len()
        )));
    };
    if layer.media_type != WASM_LAYER_MEDIA_TYPE {
        return Err(bad(format!(
            "its layer is {:?}, not {WASM_LAYER_MEDIA_TYPE}",
            layer.media_type
        )));
    }
    let size = u64::try_from(layer.size).unwrap_or(u64::MAX);
    if size > PACKAGE_LIMIT {
        return Err(bad(format!(
            "its module is {size} bytes, over the {} MiB limit for hook packages; refused without downloading it",
            PACKAGE_LIMIT >> 20
        )));
    }
    let digest = Digest::parse(&layer.digest).map_err(|e| bad(format!("layer digest: {e}")))?;
    let bytes = session.blob(&digest, size).await?;
    Ok(Pulled {
        bytes,
        digest,
        manifest_digest,
    })
}

/// Downloads the blob `digest` of `r`'s repository (what `hookhost fetch` restores: the
/// pinned module, wherever the tag has moved since), checked and bounded.
pub async fn pull_blob(
    r: &OciRef,
    digest: &Digest,
    creds: &Credentials,
    insecure: bool,
) -> Result<Vec<u8>, RegistryError> {
    let session = Session::open(r, creds, insecure, "pull").await?;
    session.blob(digest, PACKAGE_LIMIT).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PackageRef;

    fn oci(text: &str) -> OciRef {
        match text.parse::<PackageRef>().unwrap() {
            PackageRef::Oci(o) => o,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn plain_http_only_for_loopback_or_when_asked() {
        let local = oci("oci://127.0.0.1:5000/a/b:1");
        assert_eq!(
            protocol(&local, false),
            ClientProtocol::HttpsExcept(vec!["127.0.0.1:5000".into()])
        );
        assert_eq!(
            protocol(&oci("oci://localhost:5000/a/b:1"), false),
            ClientProtocol::HttpsExcept(vec!["localhost:5000".into()])
        );
        let remote = oci("oci://registry.example.com/a/b:1");
        assert_eq!(protocol(&remote, false), ClientProtocol::Https);
        // A host that merely starts like loopback is not.
        assert_eq!(
            protocol(&oci("oci://127.0.0.1.example.com/a/b:1"), false),
            ClientProtocol::Https
        );
        assert_eq!(
            protocol(&remote, true),
            ClientProtocol::HttpsExcept(vec!["registry.example.com".into()])
        );
    }

    #[test]
    fn credentials_never_show_the_password() {
        let c = Credentials::basic("ghcr.io", "me".into(), "hunter2".into(), "test".into());
        assert_eq!(format!("{c:?}"), "Credentials(me:*** for ghcr.io)");
    }
}
