//! Fetching a `.wasm` from an `https://…#sha256=…` URL: bounded ([`PACKAGE_LIMIT`], checked
//! against `Content-Length` before reading and while reading), checked against the digest in
//! the fragment, HTTPS only unless the host is loopback or the caller says `insecure`, and
//! no redirects to another scheme (reqwest's policy keeps https).

use super::reference::{host_of, is_loopback_host};
use futures_util::StreamExt;
use hookhost::store::{Digest, PACKAGE_LIMIT};

/// Downloads `url` and checks its bytes against `digest`.
pub async fn fetch(url: &str, digest: &Digest, insecure: bool) -> Result<Vec<u8>, String> {
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("{url}: not a URL: {e}"))?;
    let host = parsed.host_str().unwrap_or_default();
    if parsed.scheme() == "http" && !insecure && !is_loopback_host(host_of(host)) {
        return Err(format!(
            "{url}: plain HTTP is only used for this machine; use https:// (or --insecure, which lets anyone on the way swap the bytes before the digest check refuses them)"
        ));
    }
    let client = reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(10))
        .timeout(std::time::Duration::from_secs(300))
        .redirect(reqwest::redirect::Policy::limited(5))
        .build()
        .map_err(|e| format!("{url}: {e}"))?;
    let resp = client
        .get(parsed)
        .send()
        .await
        .map_err(|e| format!("{url}: cannot download: {e}"))?;
    if !resp.status().is_success() {
        return Err(format!("{url}: the server answered {}", resp.status()));
    }
    if resp.url().scheme() != "https"
        && !insecure
        && !is_loopback_host(resp.url().host_str().unwrap_or_default())
    {
        return Err(format!(
            "{url}: redirected to plain HTTP ({}); refused",
            resp.url()
        ));
    }
    let too_big = || {
        format!(
            "{url}: larger than the {} MiB limit for hook packages; refused",
            PACKAGE_LIMIT >> 20
        )
    };
    if resp.content_length().is_some_and(|n| n > PACKAGE_LIMIT) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| format!("{url}: download failed: {e}"))?;
        if (bytes.len() + chunk.len()) as u64 > PACKAGE_LIMIT {
            return Err(too_big());
        }
        bytes.extend_from_slice(&chunk);
    }
    let actual = Digest::of(&bytes);
    if actual != *digest {
        return Err(format!(
            "{url}: its bytes hash to {actual}, not the {digest} the reference pins; refused"
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn plain_http_elsewhere_is_refused_before_connecting() {
        let d = Digest::of(b"x");
        // .invalid never resolves: an error about HTTP, not about the network, proves no
        // connection was attempted.
        let e = fetch("http://hooks.invalid/g.wasm", &d, false)
            .await
            .unwrap_err();
        assert!(e.contains("plain HTTP"), "{e}");
    }
}
