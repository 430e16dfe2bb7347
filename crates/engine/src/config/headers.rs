//! The `$NAME` / `${NAME}` references in an HTTP hook's header values: the one parser.
//!
//! Config (phase 2) uses it to check at load time that every name is in the hook's
//! `allowedEnv`; the HTTP spawner uses it to expand the values when the hook runs. It reads
//! no environment itself: the caller supplies the lookup. It lives with the config because
//! it defines what a header value in `hooks.json` means, and so the config needs nothing
//! from the spawner.

/// Why a header value cannot be expanded. It names the variable, never a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// `${` without its `}`.
    #[error("a header value has `${{` without a closing `}}`")]
    Unclosed,
    /// A variable the hook's `allowedEnv` does not list.
    #[error(
        "a header references ${name}, which is not listed in the hook's `allowedEnv`; add \"allowedEnv\": [\"{name}\"] to pass it"
    )]
    NotAllowed {
        /// The variable.
        name: String,
    },
    /// An allowed variable that is not set.
    #[error("a header references ${name}, but that environment variable is not set")]
    Unset {
        /// The variable.
        name: String,
    },
}

/// Expands `$NAME` and `${NAME}` in `value` with `lookup`, for names in `allowed` only; a `$`
/// not followed by a name stays as is. The error names the variable, never a value.
/// `lookup` supplies values (the config check passes a lookup that finds every name, so only
/// the `allowedEnv` rule is checked at load time).
pub fn expand_with(
    value: &str,
    allowed: &[String],
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<String, HeaderError> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (name, tail) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (&braced[..end], &braced[end + 1..]),
                None => return Err(HeaderError::Unclosed),
            }
        } else if after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        } else {
            ("", after)
        };
        if name.is_empty() {
            out.push('$');
        } else if !allowed.iter().any(|a| a == name) {
            return Err(HeaderError::NotAllowed {
                name: name.to_string(),
            });
        } else {
            match lookup(name) {
                Some(v) => out.push_str(&v),
                None => {
                    return Err(HeaderError::Unset {
                        name: name.to_string(),
                    });
                }
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    Ok(out)
}
