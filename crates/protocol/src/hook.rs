//! Who a hook is, as every report names it: where it comes from ([`Scope`]), what kind of
//! handler it has ([`HookKind`]) and its identity ([`HookId`], shown as `PreToolUse[0]`), and
//! the default timeout every dialect starts from; and the words of a hook's options that
//! `list --json` shows ([`OnError`], [`FsAccess`]).
//!
//! A configured hook itself (its handler, limits, matcher) is the engine's `config` module:
//! nothing here reads a config file.

use crate::event::Event;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;
use std::borrow::Cow;

/// Default hook timeout (DESIGN §3).
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// Where a hook comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Scope {
    /// The machine-wide managed file (`/etc/coding-agent/hooks.json`): written by an
    /// administrator, always trusted, runs before every other hook, and no project or user
    /// file can disable, shadow or reorder it.
    #[schemars(description = "The managed file.")]
    Managed,
    /// The project's `.coding-agent/hooks.json` (subject to trust).
    #[schemars(description = "The project's files.")]
    Project,
    /// The user's `~/.coding-agent/hooks.json` (always trusted).
    #[schemars(description = "The user's files.")]
    Global,
    /// Registered in-process by the embedding program.
    #[serde(rename = "in-process")]
    #[schemars(description = "Registered in-process.")]
    InProcess,
}

impl Scope {
    /// The rank hooks run in (0 first): managed, the user's, the project's, in-process.
    pub fn rank(self) -> u8 {
        match self {
            Scope::Managed => 0,
            Scope::Global => 1,
            Scope::Project => 2,
            Scope::InProcess => 3,
        }
    }
}

/// A hook's identity: where it comes from, its event, and its position in that source's list
/// for the event. `Copy`, hashable, compared without allocating; shown (and serialised) as
/// `PreToolUse[0]`, or `PreToolUse[fn 0]` for an in-process hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HookId {
    /// Where the hook comes from.
    pub scope: Scope,
    /// Its event.
    pub event: Event,
    /// Its position in its source's list for the event (0-based).
    pub index: usize,
    /// Which file of its scope it comes from: 0 for hookhost's own, 1 and up for other
    /// agents' files in load order (two files of one scope may both have a `PreToolUse[0]`).
    pub source: u8,
}

impl std::fmt::Display for HookId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Through `pad`, so widths and alignment (`{:<18}`) apply as for a string.
        f.pad(&match self.scope {
            Scope::InProcess => format!("{}[fn {}]", self.event, self.index),
            _ => format!("{}[{}]", self.event, self.index),
        })
    }
}

impl Serialize for HookId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Serialised as its text: `Event[index]`, or `Event[fn index]`.
impl JsonSchema for HookId {
    fn schema_name() -> Cow<'static, str> {
        "HookId".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A hook as `Event[index]` (its event and position in its file), or `Event[fn index]` for\nan in-process hook.",
            "pattern": r"^[A-Za-z]+\[(fn )?[0-9]+\]$",
            "type": "string",
        })
    }
}

impl PartialEq<str> for HookId {
    fn eq(&self, other: &str) -> bool {
        // `Event[index]` without formatting: compare the parts.
        let Some((event, rest)) = other.split_once('[') else {
            return false;
        };
        let index = match (self.scope, rest.strip_suffix(']')) {
            (Scope::InProcess, Some(r)) => r.strip_prefix("fn "),
            (_, r) => r,
        };
        self.event.as_str() == event && index.and_then(|i| i.parse().ok()) == Some(self.index)
    }
}

impl PartialEq<&str> for HookId {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

/// The kind of handler, as shown by `list` and `run --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(description = "The kind of handler.")]
#[non_exhaustive]
pub enum HookKind {
    /// A command run as a local process: the shell form (`sh -c`, or the `shell` named) or
    /// the exec form (`args`: the program started without a shell).
    #[schemars(
        description = "A command: `sh -c` (or the `shell` named), or the exec form (`args`, no shell)."
    )]
    Shell,
    /// A WebAssembly module or component, run in the wasm sandbox.
    #[schemars(description = "A WebAssembly module or component.")]
    Wasm,
    /// An HTTP endpoint the payload is POSTed to.
    #[schemars(description = "An HTTP endpoint.")]
    Http,
    /// An in-process Rust function (the engine's `FnHook`).
    #[schemars(description = "An in-process function.")]
    Fn,
    /// A tool of an MCP server, called with the hook's `input`.
    #[schemars(description = "A tool of an MCP server.")]
    Mcp,
    /// A prompt asked of the user's model, whose `{"ok", "reason"}` answer is the decision.
    #[schemars(description = "A prompt asked of the user's model.")]
    Prompt,
    /// A prompt asked of the user's model, which may read files of the project first.
    #[schemars(description = "A model with read-only tools inside the project.")]
    Agent,
}

impl HookKind {
    /// `shell`, `wasm`, `http`, `fn`, `mcp`, `prompt` or `agent`.
    pub fn as_str(self) -> &'static str {
        match self {
            HookKind::Shell => "shell",
            HookKind::Wasm => "wasm",
            HookKind::Http => "http",
            HookKind::Fn => "fn",
            HookKind::Mcp => "mcp",
            HookKind::Prompt => "prompt",
            HookKind::Agent => "agent",
        }
    }

    /// Whether a hook of this kind asks a model (`prompt`, `agent`).
    pub fn asks_model(self) -> bool {
        matches!(self, HookKind::Prompt | HookKind::Agent)
    }
}

/// On a crash or an unexpected exit code of a blocking hook: warn (default) or fail closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnError {
    /// Log a warning and go on (the default).
    #[default]
    Warn,
    /// Fail closed: block the tool call (PreToolUse).
    Block,
}

/// Filesystem access of a wasm hook, or a sandboxed command hook, to the project directory.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    serde::Deserialize,
    Default,
    JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FsAccess {
    /// No project directory at all (ordered: none < read < write).
    None,
    /// The project directory, read-only (the default).
    #[default]
    Read,
    /// The project directory, readable and writable.
    Write,
}

/// A network destination a hook may reach (`"net": ["api.example.com:443"]`): a host name or
/// address and a TCP port. A wasm hook reaches exactly these; a sandboxed command hook
/// reaches these ports on any host (the kernel filters connections by port, not by name:
/// docs/sandbox.md).
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize, JsonSchema,
)]
pub struct NetTarget {
    /// The host name or address, as written (an IPv6 address without its brackets).
    pub host: String,
    /// The TCP port.
    pub port: u16,
}

impl NetTarget {
    /// Reads `host:port` (`[::1]:8080` for an IPv6 address): `None` when it is not one.
    pub fn parse(text: &str) -> Option<Self> {
        let (host, port) = text.rsplit_once(':')?;
        let host = match host.strip_prefix('[') {
            Some(inner) => inner.strip_suffix(']')?,
            None if host.contains(':') => return None,
            None => host,
        };
        let valid = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '_'));
        let port: u16 = port.parse().ok().filter(|p| *p != 0)?;
        valid.then(|| NetTarget {
            host: host.to_ascii_lowercase(),
            port,
        })
    }
}

impl std::fmt::Display for NetTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod net_target_tests {
    use super::NetTarget;

    #[test]
    fn host_and_port_are_read_and_shown_back() {
        let t = NetTarget::parse("API.example.com:443").unwrap();
        assert_eq!((t.host.as_str(), t.port), ("api.example.com", 443));
        assert_eq!(t.to_string(), "api.example.com:443");
        let v6 = NetTarget::parse("[::1]:8080").unwrap();
        assert_eq!((v6.host.as_str(), v6.port), ("::1", 8080));
        assert_eq!(v6.to_string(), "[::1]:8080");
        for bad in [
            "example.com",
            "example.com:0",
            ":80",
            "a b:80",
            "::1:80",
            "x:99999",
            "h/p:1",
        ] {
            assert_eq!(NetTarget::parse(bad), None, "{bad}");
        }
    }
}
