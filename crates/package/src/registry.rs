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

use super::manifest::Manifest;
use super::reference::{OciRef, is_loopback_host};
use super::section::{self, BinaryKind};
use futures_util::StreamExt;
use hookhost::store::{Digest, PACKAGE_LIMIT};
use oci_client::client::{ClientConfig, ClientProtocol, Config, ImageLayer};
use oci_client::manifest::{OciImageManifest, OciManifest};
use oci_client::secrets::RegistryAuth;
use oci_client::{Client, Reference};
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

/// Credentials for one registry (never printed: `Debug` shows only the user name and the
/// registry). Used for no other registry: a client handed credentials for another one
/// talks anonymously.
#[derive(Clone, Default)]
pub struct Credentials {
    basic: Option<(String, String)>,
    /// The registry (`host[:port]`) they are for.
    registry: String,
    /// Where they came from (a file or a variable), for messages.
    source: String,
    /// A token service origin elsewhere that may receive them (`HOOKHOST_REGISTRY_REALM`).
    realm: Option<String>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.basic {
            Some((user, _)) => write!(f, "Credentials({user}:*** for {})", self.registry),
            None => f.write_str("Credentials(anonymous)"),
        }
    }
}

impl Credentials {
    /// No credentials.
    pub fn anonymous() -> Credentials {
        Credentials::default()
    }

    /// `user`/`password` for `registry` only; `source` says where they came from.
    pub fn basic(registry: &str, user: String, password: String, source: String) -> Credentials {
        Credentials {
            basic: Some((user, password)),
            registry: registry.to_string(),
            source,
            realm: None,
        }
    }

    /// Lets the token service at `origin` (a URL) receive them too.
    pub fn with_realm(mut self, origin: Option<String>) -> Credentials {
        self.realm = origin;
        self
    }

    /// Whether there are none.
    pub fn is_anonymous(&self) -> bool {
        self.basic.is_none()
    }

    /// Where they came from (empty when anonymous).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The user and password, for `r`'s registry only.
    fn basic_for(&self, r: &OciRef) -> Option<(&str, &str)> {
        match &self.basic {
            Some((u, p)) if super::credentials::same_registry(&self.registry, &r.registry) => {
                Some((u.as_str(), p.as_str()))
            }
            _ => None,
        }
    }
}

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
/// The most of an error answer that is read (and shown, cut short).
const ERROR_BODY_LIMIT: u64 = 4 << 10;

const MANIFEST_ACCEPT: &str = "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json";

/// How requests to the registry are authorized.
#[derive(Clone)]
enum Auth {
    Anonymous,
    /// HTTP basic, to the registry's own origin only.
    Basic(String, String),
    /// A bearer token from the registry's token service.
    Bearer(String),
}

/// A connection to one repository of one registry, authorized for one operation.
struct Session<'a> {
    r: &'a OciRef,
    http: reqwest::Client,
    /// `scheme://registry`.
    base: String,
    auth: Auth,
}

fn http_client(insecure: bool) -> Result<reqwest::Client, String> {
    let policy = reqwest::redirect::Policy::custom(move |attempt| {
        let plain_ok = insecure
            || attempt
                .url()
                .host_str()
                .is_some_and(|h| is_loopback_host(h.trim_start_matches('[').trim_end_matches(']')));
        if attempt.previous().len() >= 5 {
            attempt.error("more than 5 redirects")
        } else if attempt.url().scheme() != "https" && !plain_ok {
            let url = attempt.url().to_string();
            attempt.error(format!("a redirect to plain HTTP ({url}) refused"))
        } else {
            // reqwest drops `Authorization` when a redirect leaves the origin.
            attempt.follow()
        }
    });
    reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(10))
        .read_timeout(std::time::Duration::from_secs(60))
        .redirect(policy)
        .build()
        .map_err(|e| e.to_string())
}

/// `scheme://host[:port]` of a URL, the default port made explicit.
fn origin_of(url: &reqwest::Url) -> (String, String, Option<u16>) {
    (
        url.scheme().to_string(),
        url.host_str().unwrap_or_default().to_ascii_lowercase(),
        url.port_or_known_default(),
    )
}

/// `Bearer realm="...",service="..."` or `Basic realm="..."`: the scheme and parameters.
fn parse_challenge(header: &str) -> Option<(String, BTreeMap<String, String>)> {
    let header = header.trim();
    let (scheme, mut rest) = match header.split_once(char::is_whitespace) {
        Some((s, r)) => (s, r.trim_start()),
        None => (header, ""),
    };
    let mut params = BTreeMap::new();
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=')?;
        let key = key
            .trim()
            .trim_start_matches(',')
            .trim()
            .to_ascii_lowercase();
        let after = after.trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, c)) = chars.next() {
                            value.push(c);
                        }
                    }
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    c => value.push(c),
                }
            }
            (value, &quoted[end?..])
        } else {
            match after.split_once(',') {
                Some((v, n)) => (v.trim().to_string(), n),
                None => (after.trim().to_string(), ""),
            }
        };
        params.insert(key, value);
        rest = next.trim_start().trim_start_matches(',').trim_start();
    }
    Some((scheme.to_ascii_lowercase(), params))
}

/// Reads at most `limit` bytes of `resp`: refused at once when its `Content-Length` says
/// more, cut off when the stream goes past it.
async fn read_capped(
    resp: reqwest::Response,
    limit: u64,
    too_big: impl Fn() -> String,
) -> Result<Vec<u8>, String> {
    if resp.content_length().is_some_and(|n| n > limit) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| format!("the download failed: {e}"))?;
        if (bytes.len() + chunk.len()) as u64 > limit {
            return Err(too_big());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// What a failed answer said, short and on one line.
async fn failure(resp: reqwest::Response) -> String {
    let status = resp.status();
    let body = read_capped(resp, ERROR_BODY_LIMIT, String::new)
        .await
        .unwrap_or_default();
    let text: String = String::from_utf8_lossy(&body)
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    if text.trim().is_empty() {
        format!("the registry answered {status}")
    } else {
        format!("the registry answered {status}: {}", text.trim())
    }
}

fn send_error(e: reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

impl<'a> Session<'a> {
    /// Connects to `r`'s registry and authorizes `actions` (`pull`, or `pull,push`) on its
    /// repository with `creds` (when they are for this registry).
    async fn open(
        r: &'a OciRef,
        creds: &Credentials,
        insecure: bool,
        actions: &str,
    ) -> Result<Session<'a>, RegistryError> {
        let fail = |message: String| RegistryError {
            reference: r.to_string(),
            message,
        };
        let scheme = if insecure || is_loopback_host(r.host()) {
            "http"
        } else {
            "https"
        };
        let base = format!("{scheme}://{}", r.registry);
        let http = http_client(insecure).map_err(fail)?;
        let mut s = Session {
            r,
            http,
            base,
            auth: Auth::Anonymous,
        };
        let basic = creds.basic_for(r);
        let resp = s
            .http
            .get(format!("{}/v2/", s.base))
            .send()
            .await
            .map_err(|e| explain(r, send_error(e)))?;
        if resp.status() != reqwest::StatusCode::UNAUTHORIZED {
            return Ok(s);
        }
        let challenges: Vec<String> = resp
            .headers()
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect();
        let parsed: Vec<_> = challenges
            .iter()
            .filter_map(|c| parse_challenge(c))
            .collect();
        if let Some((_, params)) = parsed.iter().find(|(scheme, _)| scheme == "bearer") {
            let token = s.token(params, basic, creds, actions).await?;
            s.auth = Auth::Bearer(token);
        } else if let Some((u, p)) = basic {
            // Basic: the credentials go to the registry's own origin, nowhere else.
            s.auth = Auth::Basic(u.to_string(), p.to_string());
        }
        Ok(s)
    }

    /// A bearer token from the realm the registry named: with the credentials only when the
    /// realm is on the registry's own origin (or the one the user allowed).
    async fn token(
        &self,
        params: &BTreeMap<String, String>,
        basic: Option<(&str, &str)>,
        creds: &Credentials,
        actions: &str,
    ) -> Result<String, RegistryError> {
        let r = self.r;
        let fail = |message: String| RegistryError {
            reference: r.to_string(),
            message,
        };
        let realm_text = params.get("realm").ok_or_else(|| {
            fail(
                "the registry asked for a bearer token without saying where to get one (no realm)"
                    .into(),
            )
        })?;
        let mut realm = reqwest::Url::parse(realm_text).map_err(|_| {
            fail(format!(
                "the registry's token realm {realm_text:?} is not a URL"
            ))
        })?;
        let realm_host = realm.host_str().unwrap_or_default().to_string();
        let plain_ok = is_loopback_host(realm_host.trim_start_matches('[').trim_end_matches(']'))
            || (self.base.starts_with("http://") && !is_loopback_host(r.host()));
        if realm.scheme() != "https" && !(realm.scheme() == "http" && plain_ok) {
            return Err(fail(format!(
                "the registry's token realm {realm} is not HTTPS; refused"
            )));
        }
        let registry_url = reqwest::Url::parse(&self.base).map_err(|e| fail(e.to_string()))?;
        let allowed = creds
            .realm
            .as_deref()
            .and_then(|o| reqwest::Url::parse(o).ok())
            .is_some_and(|o| origin_of(&o) == origin_of(&realm));
        let same_origin = origin_of(&registry_url) == origin_of(&realm) || allowed;
        {
            let mut q = realm.query_pairs_mut();
            q.append_pair("scope", &format!("repository:{}:{actions}", r.repository));
            if let Some(service) = params.get("service") {
                q.append_pair("service", service);
            }
        }
        let mut req = self.http.get(realm.clone());
        let withheld = basic.is_some() && !same_origin;
        if let (Some((u, p)), true) = (basic, same_origin) {
            req = req.basic_auth(u, Some(p));
        }
        let resp = req.send().await.map_err(|e| explain(r, send_error(e)))?;
        if !resp.status().is_success() {
            let why = failure(resp).await;
            let mut message = format!("the token service {} refused: {why}", realm_origin(&realm));
            if withheld {
                message.push_str(&format!(
                    "; your credentials for {} ({}) were not sent to it: it is another origin than the registry. If it is your registry's own token service, allow it with {}={}",
                    creds.registry,
                    creds.source,
                    super::credentials::REALM_ENV,
                    realm_origin(&realm)
                ));
            } else {
                message.push_str(&credentials_hint(r));
            }
            return Err(fail(message));
        }
        let body = read_capped(resp, TOKEN_LIMIT, || {
            format!(
                "the token service's answer is over {} KiB; refused",
                TOKEN_LIMIT >> 10
            )
        })
        .await
        .map_err(fail)?;
        let doc: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|_| fail("the token service's answer is not JSON".into()))?;
        doc.get("token")
            .or_else(|| doc.get("access_token"))
            .and_then(serde_json::Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .ok_or_else(|| fail("the token service's answer has no token".into()))
    }

    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        let url = format!("{}/v2/{}/{path}", self.base, self.r.repository);
        let req = self.http.get(url);
        match &self.auth {
            Auth::Anonymous => req,
            Auth::Basic(u, p) => req.basic_auth(u, Some(p)),
            Auth::Bearer(t) => req.bearer_auth(t),
        }
    }

    /// The manifest `reference` names (a tag or a digest) and the SHA-256 of its bytes.
    async fn manifest(&self, reference: &str) -> Result<(Vec<u8>, String), RegistryError> {
        let r = self.r;
        let fail = |message: String| RegistryError {
            reference: r.to_string(),
            message,
        };
        let resp = self
            .get(&format!("manifests/{reference}"))
            .header(reqwest::header::ACCEPT, MANIFEST_ACCEPT)
            .send()
            .await
            .map_err(|e| explain(r, send_error(e)))?;
        if !resp.status().is_success() {
            return Err(explain(r, failure(resp).await));
        }
        let body = read_capped(resp, MANIFEST_LIMIT, || {
            format!(
                "its manifest is over the {} MiB limit for manifests; refused without reading it",
                MANIFEST_LIMIT >> 20
            )
        })
        .await
        .map_err(fail)?;
        let digest = format!("sha256:{}", hookhost::files::sha256_hex(&body));
        Ok((body, digest))
    }

    /// The blob `digest`, at most `limit` bytes, checked against the digest.
    async fn blob(&self, digest: &Digest, limit: u64) -> Result<Vec<u8>, RegistryError> {
        let r = self.r;
        let fail = |message: String| RegistryError {
            reference: r.to_string(),
            message,
        };
        let resp = self
            .get(&format!("blobs/{digest}"))
            .send()
            .await
            .map_err(|e| explain(r, send_error(e)))?;
        if !resp.status().is_success() {
            return Err(explain(r, failure(resp).await));
        }
        let bytes = read_capped(resp, limit, || {
            format!(
                "the registry sent more than the {limit} bytes declared for {digest} (the limit for hook packages is {} MiB); refused",
                PACKAGE_LIMIT >> 20
            )
        })
        .await
        .map_err(fail)?;
        let actual = Digest::of(&bytes);
        if actual != *digest {
            return Err(fail(format!(
                "the module's bytes hash to {actual}, not its digest {digest}; refused"
            )));
        }
        Ok(bytes)
    }
}

fn realm_origin(url: &reqwest::Url) -> String {
    let (scheme, host, port) = origin_of(url);
    match port {
        Some(p) => format!("{scheme}://{host}:{p}"),
        None => format!("{scheme}://{host}"),
    }
}

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
