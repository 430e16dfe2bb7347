//! Claude Code's limits on its files' HTTP hooks: `allowedHttpHookUrls` (the URLs an HTTP
//! hook may post to, `*` matching any run of characters; an empty list allows none) and
//! `httpHookAllowedEnvVars` (the variables any HTTP hook may put in its headers: each hook's
//! `allowedEnvVars` is cut down to them, and a header naming one cut off gets an empty
//! string, as Claude Code sends it). Unset, neither limits anything.
//!
//! Which file's setting counts follows the switches' rule (`switches.rs`): a file's limits
//! reach the Claude Code HTTP hooks of its rank and every lower one, never a higher one. So
//! a project's settings can only narrow what its own (project) hooks may do, and never
//! widen or touch what the user's or the managed settings allow: every setting that reaches a
//! hook applies (a URL must match each list, a variable be in each), where Claude Code
//! merges the lists of all its settings files.

use super::headers::expand_with;
use super::types::{DisabledHook, Handler, Hook, Scope};
use crate::Dialect;
use std::path::PathBuf;
use std::sync::Arc;

/// One file's HTTP-hook limits.
#[derive(Debug, Clone)]
pub(super) struct HttpPolicy {
    /// The file that sets them.
    pub file: PathBuf,
    /// Its rank.
    pub scope: Scope,
    /// `allowedHttpHookUrls`, when set.
    pub urls: Option<Vec<String>>,
    /// `httpHookAllowedEnvVars`, when set.
    pub env_vars: Option<Vec<String>>,
}

impl HttpPolicy {
    /// Whether these limits reach `hook`: a Claude Code HTTP hook of this file's rank or a
    /// lower one.
    fn reaches(&self, hook: &Hook) -> bool {
        hook.dialect == Dialect::Claude
            && matches!(hook.handler, Handler::Http { .. })
            && hook.scope.rank() >= self.scope.rank()
    }
}

/// Applies `policies` to `hooks`: a hook whose URL one of them leaves out does not run (it
/// is returned as turned off, naming the file); the others lose the header variables a
/// policy leaves out.
pub(super) fn apply(hooks: Vec<Hook>, policies: &[HttpPolicy]) -> (Vec<Hook>, Vec<DisabledHook>) {
    if policies.is_empty() {
        return (hooks, Vec::new());
    }
    let mut on = Vec::new();
    let mut off = Vec::new();
    for mut hook in hooks {
        let reaching: Vec<&HttpPolicy> = policies.iter().filter(|p| p.reaches(&hook)).collect();
        let Handler::Http {
            url,
            headers,
            allowed_env,
            ..
        } = &mut hook.handler
        else {
            on.push(hook);
            continue;
        };
        let refused = reaching.iter().find(|p| {
            p.urls
                .as_ref()
                .is_some_and(|list| !list.iter().any(|pattern| url_matches(pattern, url)))
        });
        if let Some(p) = refused {
            let why = format!(
                "its URL {url} is not in \"allowedHttpHookUrls\" ({})",
                p.urls.as_deref().unwrap_or_default().join(", ")
            );
            off.push(DisabledHook {
                hook: Arc::new(hook),
                by: p.file.clone(),
                why,
            });
            continue;
        }
        let cut: Vec<String> = allowed_env
            .iter()
            .filter(|name| {
                reaching
                    .iter()
                    .any(|p| p.env_vars.as_ref().is_some_and(|list| !list.contains(name)))
            })
            .cloned()
            .collect();
        if !cut.is_empty() {
            allowed_env.retain(|name| !cut.contains(name));
            for (_, value) in headers.iter_mut() {
                *value = blank_references(value, &cut);
            }
        }
        on.push(hook);
    }
    (on, off)
}

/// `value` with every reference to a variable of `names` (`$NAME`, `${NAME}`) replaced by
/// nothing, the rest as written (other references stay for the spawner to fill).
fn blank_references(value: &str, names: &[String]) -> String {
    // Every other name is kept as its own reference, written back as `${NAME}`.
    let keep = |name: &str| Some(format!("${{{name}}}"));
    let everyone: Vec<String> = references(value);
    expand_with(value, &everyone, |name| {
        if names.iter().any(|n| n == name) {
            Some(String::new())
        } else {
            keep(name)
        }
    })
    .unwrap_or_else(|_| value.to_string())
}

/// The variable names `value` references.
fn references(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = value;
    while let Some(i) = rest.find('$') {
        let after = &rest[i + 1..];
        let (name, tail) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (&braced[..end], &braced[end + 1..]),
                None => break,
            }
        } else if after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        } else {
            ("", after)
        };
        if !name.is_empty() {
            out.push(name.to_string());
        }
        rest = tail;
    }
    out
}

/// Whether `url` matches `pattern`, where `*` stands for any run of characters (none
/// included) and everything else for itself, across the whole URL.
pub(super) fn url_matches(pattern: &str, url: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    let Some(mut tail) = url.strip_prefix(first) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        // No `*`: the whole URL.
        return tail.is_empty();
    };
    for part in middle {
        match tail.find(part) {
            Some(i) => tail = &tail[i + part.len()..],
            None => return false,
        }
    }
    tail.len() >= last.len() && tail.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_matches_any_run_of_characters() {
        for (pattern, url, want) in [
            (
                "https://hooks.example.com/*",
                "https://hooks.example.com/a/b",
                true,
            ),
            (
                "https://hooks.example.com/*",
                "https://hooks.example.com/",
                true,
            ),
            (
                "https://hooks.example.com/*",
                "https://evil.example/https://hooks.example.com/",
                false,
            ),
            (
                "https://*.example.com/hook",
                "https://a.b.example.com/hook",
                true,
            ),
            (
                "https://*.example.com/hook",
                "https://a.example.com/hook2",
                false,
            ),
            ("https://x.example/hook", "https://x.example/hook", true),
            (
                "https://x.example/hook",
                "https://x.example/hook/extra",
                false,
            ),
            ("*", "http://anything", true),
            ("http://*:8080/*", "http://localhost:8080/h", true),
            ("a*a", "a", false),
        ] {
            assert_eq!(url_matches(pattern, url), want, "{pattern} ~ {url}");
        }
    }

    #[test]
    fn a_cut_variable_becomes_an_empty_string_in_headers() {
        let cut = vec!["SECRET".to_string()];
        assert_eq!(
            blank_references("Bearer $SECRET and ${KEEP}/$KEEP2", &cut),
            "Bearer  and ${KEEP}/${KEEP2}"
        );
        assert_eq!(blank_references("${SECRET}x", &cut), "x");
        assert_eq!(blank_references("cost: $5", &cut), "cost: $5");
    }
}
