//! The standard OpenTelemetry variables, read once: where spans go, how long an export may
//! take, whether tracing is off. A value hookhost cannot use is a [`ConfigError`] naming the
//! variable and saying how to fix it; the caller warns and exports nothing.

use std::time::Duration;

/// `OTEL_EXPORTER_OTLP_ENDPOINT`: the collector's OTLP/HTTP base URL (`/v1/traces` is added).
pub const ENDPOINT: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`: the full traces URL, used as is; wins over the base.
pub const TRACES_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
/// `OTEL_SDK_DISABLED=true`: no spans.
pub const SDK_DISABLED: &str = "OTEL_SDK_DISABLED";
/// `OTEL_TRACES_EXPORTER=none`: no spans.
pub const TRACES_EXPORTER: &str = "OTEL_TRACES_EXPORTER";
/// `OTEL_EXPORTER_OTLP_TIMEOUT` (milliseconds, default 10000).
pub const TIMEOUT: &str = "OTEL_EXPORTER_OTLP_TIMEOUT";
/// `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`: wins over `OTEL_EXPORTER_OTLP_TIMEOUT`.
pub const TRACES_TIMEOUT: &str = "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT";
/// `OTEL_EXPORTER_OTLP_PROTOCOL`: only `http/protobuf` is sent.
pub const PROTOCOL: &str = "OTEL_EXPORTER_OTLP_PROTOCOL";
/// `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`: wins over `OTEL_EXPORTER_OTLP_PROTOCOL`.
pub const TRACES_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL";

/// The headers variables the OTLP exporter reads itself (not through [`from_env`]).
pub const HEADER_VARS: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
];

/// The spec's default export timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a process waits at exit for its spans to leave.
pub const FLUSH_CAP: Duration = Duration::from_secs(2);

/// What the variables ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The URL spans are POSTed to.
    pub traces_url: String,
    /// One export's timeout.
    pub timeout: Duration,
}

impl Config {
    /// How long a process waits at exit for its spans: the timeout, at most [`FLUSH_CAP`].
    pub fn flush_bound(&self) -> Duration {
        self.timeout.min(FLUSH_CAP)
    }
}

/// A variable hookhost cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{var}={value:?} {why}; {fix}")]
pub struct ConfigError {
    /// The variable.
    pub var: &'static str,
    /// Its value.
    pub value: String,
    /// What is wrong with it.
    pub why: String,
    /// How to fix it.
    pub fix: String,
}

/// The config the variables ask for: `Ok(None)` when no endpoint is set (the common case:
/// two lookups and nothing else), tracing is disabled, or the exporter is `none`.
pub fn from_env() -> Result<Option<Config>, ConfigError> {
    // Through `host_env`: a variable a project's settings set is not obeyed (an endpoint:
    // no spans; the others: their defaults).
    let var = |k: &str| {
        crate::host_env::var(k, "the default (no spans without an endpoint of yours)")
            .filter(|v| !v.trim().is_empty())
    };
    let traces = var(TRACES_ENDPOINT);
    let base = var(ENDPOINT);
    if traces.is_none() && base.is_none() {
        return Ok(None);
    }
    // The exporter reads the headers itself: headers a project chose (its own vendor key,
    // so that the user's spans land in its account) mean no spans at all.
    for h in HEADER_VARS {
        if std::env::var_os(h).is_some_and(|v| !v.is_empty())
            && crate::host_env::var_os(h, "no spans at all").is_none()
        {
            return Ok(None);
        }
    }
    resolve(&|k| var(k), traces, base)
}

/// [`from_env`] over any source of variables (the tests').
pub fn resolve(
    var: &dyn Fn(&str) -> Option<String>,
    traces: Option<String>,
    base: Option<String>,
) -> Result<Option<Config>, ConfigError> {
    if var(SDK_DISABLED).is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
        return Ok(None);
    }
    if let Some(e) = var(TRACES_EXPORTER) {
        match e.trim().to_ascii_lowercase().as_str() {
            "none" => return Ok(None),
            "otlp" => {}
            _ => {
                return Err(ConfigError {
                    var: TRACES_EXPORTER,
                    value: e,
                    why: "is not an exporter hookhost has".into(),
                    fix: "set it to `otlp` (or `none` for no spans), or unset it".into(),
                });
            }
        }
    }
    for p in [TRACES_PROTOCOL, PROTOCOL] {
        if let Some(v) = var(p) {
            if v.trim() != "http/protobuf" {
                return Err(ConfigError {
                    var: p,
                    value: v,
                    why: "is not a protocol hookhost sends (it sends OTLP over HTTP with protobuf)".into(),
                    fix: "set it to `http/protobuf` and point the endpoint at the collector's HTTP port (4318), or unset it".into(),
                });
            }
            break;
        }
    }
    let traces_url = match (traces, base) {
        (Some(t), _) => checked_url(TRACES_ENDPOINT, &t)?,
        (None, Some(b)) => {
            let b = checked_url(ENDPOINT, &b)?;
            format!("{}/v1/traces", b.trim_end_matches('/'))
        }
        (None, None) => return Ok(None),
    };
    let timeout = match [TRACES_TIMEOUT, TIMEOUT]
        .into_iter()
        .find_map(|k| var(k).map(|v| (k, v)))
    {
        None => DEFAULT_TIMEOUT,
        Some((k, v)) => match v.trim().parse::<u64>() {
            Ok(ms) => Duration::from_millis(ms),
            Err(_) => {
                return Err(ConfigError {
                    var: k,
                    value: v,
                    why: "is not a number of milliseconds".into(),
                    fix: "set it to e.g. `10000` (the default), or unset it".into(),
                });
            }
        },
    };
    Ok(Some(Config {
        traces_url,
        timeout,
    }))
}

fn checked_url(var: &'static str, value: &str) -> Result<String, ConfigError> {
    let bad = |why: String| ConfigError {
        var,
        value: value.to_string(),
        why,
        fix: if var == ENDPOINT {
            "set it to the collector's OTLP/HTTP base URL, e.g. `http://localhost:4318` (hookhost adds /v1/traces), or unset it".into()
        } else {
            "set it to the full traces URL, e.g. `http://localhost:4318/v1/traces`, or unset it"
                .into()
        },
    };
    let url = reqwest::Url::parse(value.trim()).map_err(|e| bad(format!("is not a URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad(format!(
            "has scheme `{}`, not http or https",
            url.scheme()
        )));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("has no host".into()));
    }
    Ok(value.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn resolve_with(vars: &[(&str, &str)]) -> Result<Option<Config>, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        let var = |k: &str| map.get(k).cloned();
        resolve(&var, var(TRACES_ENDPOINT), var(ENDPOINT))
    }

    #[test]
    fn the_base_endpoint_gets_the_traces_path_and_the_traces_one_is_used_as_is() {
        let c = resolve_with(&[(ENDPOINT, "http://127.0.0.1:4318/")])
            .unwrap()
            .unwrap();
        assert_eq!(c.traces_url, "http://127.0.0.1:4318/v1/traces");
        assert_eq!(c.timeout, DEFAULT_TIMEOUT);
        assert_eq!(c.flush_bound(), FLUSH_CAP);
        let c = resolve_with(&[
            (ENDPOINT, "http://a:4318"),
            (TRACES_ENDPOINT, "http://b:9/custom"),
            (TIMEOUT, "500"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(c.traces_url, "http://b:9/custom");
        assert_eq!(c.flush_bound(), Duration::from_millis(500));
    }

    #[test]
    fn disabled_means_nothing_and_bad_values_name_their_variable() {
        assert_eq!(
            resolve_with(&[(ENDPOINT, "http://a"), (SDK_DISABLED, "TRUE")]),
            Ok(None)
        );
        assert_eq!(
            resolve_with(&[(ENDPOINT, "http://a"), (TRACES_EXPORTER, "none")]),
            Ok(None)
        );
        let e = resolve_with(&[(ENDPOINT, "localhost:4318")]).unwrap_err();
        assert_eq!(e.var, ENDPOINT);
        assert!(e.to_string().contains("http://localhost:4318"), "{e}");
        let e = resolve_with(&[(TRACES_ENDPOINT, "not a url")]).unwrap_err();
        assert_eq!(e.var, TRACES_ENDPOINT);
        let e = resolve_with(&[(ENDPOINT, "http://a"), (PROTOCOL, "grpc")]).unwrap_err();
        assert_eq!(e.var, PROTOCOL);
        let e = resolve_with(&[(ENDPOINT, "http://a"), (TIMEOUT, "2s")]).unwrap_err();
        assert_eq!(e.var, TIMEOUT);
    }
}
