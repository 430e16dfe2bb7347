//! [`Matcher`]: a `match` regex on the tool name, always matched against the whole name.
//!
//! The one place that anchors a user's pattern (`^(?:…)$`, DESIGN §3), for config hooks and
//! for in-process hooks registered with `Runner::register` alike, so `"bash"` never matches
//! `"bash2"` whichever way a hook was declared. It keeps the text as written, for `list` and
//! error messages. Where a `match` is allowed is decided elsewhere (config phase 2).

use super::rule::{CORE_TOOLS, names_of_core};
use super::types::HookSet;
use crate::Dialect;
use hookhost_protocol::ConfigError;
use regex::Regex;
use serde::{Serialize, Serializer};
use std::fmt;

/// A compiled whole-name regex on the tool name, with its source text.
#[derive(Debug, Clone)]
pub struct Matcher {
    source: String,
    regex: Regex,
}

impl Matcher {
    /// Compiles `source` anchored to the whole tool name: `bash|shell` matches `bash` and
    /// `shell`, not `bash2` nor `myshell`.
    pub fn new(source: &str) -> Result<Matcher, regex::Error> {
        Ok(Matcher {
            regex: Regex::new(&format!("^(?:{source})$"))?,
            source: source.to_string(),
        })
    }

    /// Whether `tool` matches, as a whole.
    pub fn is_match(&self, tool: &str) -> bool {
        self.regex.is_match(tool)
    }

    /// The pattern as written, without the anchoring.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The anchored regex.
    pub fn regex(&self) -> &Regex {
        &self.regex
    }

    /// The anchored regex, for callers that store a [`Regex`].
    pub fn into_regex(self) -> Regex {
        self.regex
    }
}

/// Two matchers are equal when written the same.
impl PartialEq for Matcher {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for Matcher {}

impl fmt::Display for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Serialised as written.
impl Serialize for Matcher {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}

/// What `check` notes about native hooks whose `match` names another agent's tool and not
/// the core's (`"Bash"`, `"Edit|MultiEdit|Write"`): hookhost reads it as the core tool it
/// stands for. One note per pattern, at its first hook.
pub fn alias_notes(set: &HookSet) -> Vec<ConfigError> {
    let mut seen: Vec<&str> = Vec::new();
    let mut notes = Vec::new();
    for hook in set.all().filter(|h| h.dialect == Dialect::Native) {
        let Some(m) = &hook.matcher else { continue };
        if seen.contains(&m.as_str()) {
            continue;
        }
        let read: Vec<String> = CORE_TOOLS
            .iter()
            .filter(|core| !m.is_match(core))
            .filter_map(|core| {
                let alias = names_of_core(core).into_iter().find(|n| m.is_match(n))?;
                Some(format!("`{alias}` as the core's `{core}`"))
            })
            .collect();
        if read.is_empty() {
            continue;
        }
        seen.push(m.as_str());
        notes.push(ConfigError {
            file: hook.file.clone(),
            hook: Some(hook.label()),
            message: format!(
                "`match` {:?} names another agent's tool; read through the alias map: {} (write the core's name to say so)",
                m.as_str(),
                read.join(", ")
            ),
        });
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_whole_name_only() {
        let m = Matcher::new("bash|shell").unwrap();
        assert!(m.is_match("bash") && m.is_match("shell"));
        assert!(!m.is_match("bash2") && !m.is_match("myshell") && !m.is_match(""));
        assert_eq!(m.as_str(), "bash|shell");
        assert_eq!(m.regex().as_str(), "^(?:bash|shell)$");
    }

    #[test]
    fn an_alternation_cannot_escape_the_anchors() {
        // Without the group, `^a|b$` would match any name starting with `a`.
        let m = Matcher::new("a|b").unwrap();
        assert!(!m.is_match("abc"));
    }

    #[test]
    fn an_invalid_pattern_is_an_error() {
        assert!(Matcher::new("ba(sh").is_err());
    }
}
