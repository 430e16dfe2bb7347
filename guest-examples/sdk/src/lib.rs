//! # hookhost-guest: hooks in Rust, compiled to WebAssembly
//!
//! A hook reads one JSON payload on stdin and answers with its exit code (and optionally JSON
//! on stdout). This crate does both for you:
//!
//! ```no_run
//! use hookhost_guest::{Event, Hook};
//!
//! fn main() {
//!     let hook = Hook::read();
//!     if hook.event() == Event::PreToolUse && hook.tool_name() == Some("bash") {
//!         if hook.arg_str("command").unwrap_or("").contains("rm -rf /") {
//!             hookhost_guest::block("destructive command");
//!         }
//!     }
//!     hookhost_guest::pass();
//! }
//! ```
//!
//! Build with `cargo build --release --target wasm32-wasip1` and point a hook's `command` at
//! the `.wasm` file. Every answer function ends the program with the right exit code.
//!
//! ## Fails closed
//!
//! A guard must never pass what it could not read. [`Hook::read`] therefore ends the hook
//! with **exit 2** (block on PreToolUse; a warning on every other event, nothing on stdout)
//! and a reason on stderr when the payload cannot be read: stdin fails, it is not UTF-8 or
//! not JSON, it is not a JSON object, or it is beyond what the guest can safely hold —
//! nested more than [`MAX_DEPTH`] levels, larger than [`MAX_PAYLOAD_BYTES`], or with more
//! than [`MAX_VALUES`] values. Those limits are checked by one iterative scan *before*
//! parsing, so a hostile payload can neither overflow the guest's stack (a trap is a crash,
//! and a crash only warns: the tool call would go through) nor, under the default 128 MiB
//! memory cap, run it out of memory (the limits need less than half of it). The
//! answer functions never panic either: a failed write to stdout or stderr is ignored, the
//! exit code still goes out.

/// Outgoing HTTP through `wasi:http` (WASI preview 2 components only), with host-injected
/// secrets.
#[cfg(all(target_os = "wasi", target_env = "p2"))]
pub mod http;

use serde_json::{json, Value};
use std::io::{Read, Write};

pub use serde_json;

/// The lifecycle events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    PreCompact,
    Stop,
    SubagentStop,
    SessionEnd,
    /// An event this SDK version does not know.
    Other,
}

impl Event {
    pub fn parse(name: &str) -> Event {
        match name {
            "SessionStart" => Event::SessionStart,
            "UserPromptSubmit" => Event::UserPromptSubmit,
            "PreToolUse" => Event::PreToolUse,
            "PostToolUse" => Event::PostToolUse,
            "PreCompact" => Event::PreCompact,
            "Stop" => Event::Stop,
            "SubagentStop" => Event::SubagentStop,
            "SessionEnd" => Event::SessionEnd,
            _ => Event::Other,
        }
    }
}

/// The payload of the event that fired this hook.
#[derive(Debug, Clone)]
pub struct Hook {
    payload: Value,
}

static NULL: Value = Value::Null;

/// Payloads nested deeper than this (objects and arrays, the payload object itself counting
/// as 1) are refused; [`Hook::read`] blocks. Well below serde_json's own recursion limit
/// (128), so your code can walk or re-serialise any payload it gets without running out of
/// stack.
pub const MAX_DEPTH: usize = 100;

/// Payloads larger than this are refused; [`Hook::read`] blocks. Reading stops right after
/// this many bytes, so a huge payload cannot exhaust the guest's memory (hitting the memory
/// cap traps, and a trap only warns).
pub const MAX_PAYLOAD_BYTES: usize = 16 << 20;

/// Payloads with more values (array elements and object members) than this are refused;
/// [`Hook::read`] blocks. A small value such as `0,` takes 2 bytes of JSON but 16 or more
/// in memory, so size alone does not bound the memory a payload needs.
pub const MAX_VALUES: usize = 1 << 18;

impl Hook {
    /// Reads the payload from stdin, or **blocks**: when it cannot be read (stdin fails, not
    /// UTF-8, not JSON, not a JSON object, beyond [`MAX_DEPTH`], [`MAX_PAYLOAD_BYTES`] or
    /// [`MAX_VALUES`]), the hook ends with exit 2 and
    /// `hookhost-guest: cannot read the payload (...); blocking to fail closed` on stderr,
    /// and nothing on stdout. Exit 2 blocks a PreToolUse call and is a warning on every other
    /// event (on Stop, exit 2 with empty stdout does not force), so a guard built on this
    /// never lets through a call it could not inspect.
    pub fn read() -> Hook {
        Hook::try_read().unwrap_or_else(|why| {
            block(&format!(
                "hookhost-guest: cannot read the payload ({why}); blocking to fail closed"
            ))
        })
    }

    /// Reads the payload from stdin like [`Hook::read`], but hands the reason back instead of
    /// blocking. For hooks that must not block and still want to record the failure (an
    /// audit logger); a guard uses [`Hook::read`].
    pub fn try_read() -> Result<Hook, String> {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_PAYLOAD_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("stdin cannot be read: {e}"))?;
        if bytes.len() > MAX_PAYLOAD_BYTES {
            return Err(format!("it is larger than {MAX_PAYLOAD_BYTES} bytes"));
        }
        let text = String::from_utf8(bytes)
            .map_err(|e| format!("it is not UTF-8: {}", e.utf8_error()))?;
        Hook::from_json(&text)
    }

    /// A hook from payload text (for tests of your hook logic), with the checks of
    /// [`Hook::read`].
    pub fn from_json(text: &str) -> Result<Hook, String> {
        if text.len() > MAX_PAYLOAD_BYTES {
            return Err(format!("it is larger than {MAX_PAYLOAD_BYTES} bytes"));
        }
        check_shape(text.as_bytes())?;
        let payload: Value =
            serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"))?;
        if !payload.is_object() {
            return Err("it is not a JSON object".into());
        }
        Ok(Hook { payload })
    }

    pub fn event(&self) -> Event {
        Event::parse(self.str("event").unwrap_or(""))
    }

    /// The whole payload.
    pub fn payload(&self) -> &Value {
        &self.payload
    }

    /// A top-level string field.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.payload.get(key).and_then(Value::as_str)
    }

    pub fn cwd(&self) -> &str {
        self.str("cwd").unwrap_or("")
    }

    pub fn session_id(&self) -> &str {
        self.str("sessionId").unwrap_or("")
    }

    /// PreToolUse / PostToolUse: the tool's name.
    pub fn tool_name(&self) -> Option<&str> {
        self.str("toolName")
    }

    /// PreToolUse / PostToolUse: the tool's arguments (`null` elsewhere).
    pub fn tool_args(&self) -> &Value {
        self.payload.get("toolArgs").unwrap_or(&NULL)
    }

    /// One string argument of the tool call, e.g. `arg_str("command")` for bash.
    pub fn arg_str(&self, key: &str) -> Option<&str> {
        self.tool_args().get(key).and_then(Value::as_str)
    }

    /// PostToolUse: the tool's result.
    pub fn tool_result(&self) -> &Value {
        self.payload.get("toolResult").unwrap_or(&NULL)
    }

    /// UserPromptSubmit: the prompt.
    pub fn prompt(&self) -> Option<&str> {
        self.str("prompt")
    }

    /// Stop / SubagentStop: whether the agent is already continuing because of a hook.
    pub fn stop_hook_active(&self) -> bool {
        self.payload.get("stopHookActive").and_then(Value::as_bool).unwrap_or(false)
    }

    pub fn is_subagent(&self) -> bool {
        self.payload.get("isSubagent").and_then(Value::as_bool).unwrap_or(false)
    }
}

/// Ends the hook with `code`, flushing stdout/stderr first.
///
/// On `wasm32-wasip2` this calls `wasi:cli/exit.exit-with-code`, because Rust's std there
/// reports every non-zero exit as 1 (and 2 is what blocks).
pub fn exit(code: i32) -> ! {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[cfg(all(target_os = "wasi", target_env = "p2"))]
    if code != 0 {
        wasip2::cli::exit::exit_with_code(u8::try_from(code).unwrap_or(1));
    }
    std::process::exit(code)
}

/// Let the event go on (exit 0).
pub fn pass() -> ! {
    exit(0)
}

/// PreToolUse: block the tool call; `reason` goes to the model (stderr, exit 2).
pub fn block(reason: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "{reason}");
    exit(2)
}

/// Stop / SubagentStop: keep the agent working; `message` becomes a user message
/// (stdout, exit 2).
pub fn force(message: &str) -> ! {
    let _ = writeln!(std::io::stdout(), "{message}");
    exit(2)
}

/// PreToolUse: run the tool with these arguments instead (`updatedInput`, exit 0).
pub fn update_input(args: Value) -> ! {
    respond(json!({ "updatedInput": args }))
}

/// UserPromptSubmit / SessionStart / PostToolUse: add text to the model's context.
pub fn add_context(text: &str) -> ! {
    respond(json!({ "additionalContext": text }))
}

/// Any JSON answer of the protocol (`decision`, `reason`, `updatedInput`,
/// `additionalContext`, `systemMessage`), exit 0.
pub fn respond(answer: Value) -> ! {
    let _ = writeln!(std::io::stdout(), "{answer}");
    exit(0)
}

/// The hook itself failed (exit 1: a warning in the host, or a block with `onError: block`).
pub fn fail(message: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "{message}");
    exit(1)
}

/// The limits of [`Hook::read`] that parsing would hit too late (a stack overflow or the
/// memory cap, both traps), checked first by one pass over the bytes that needs no stack and
/// no memory. It only counts; serde_json still validates everything.
fn check_shape(json: &[u8]) -> Result<(), String> {
    let (mut depth, mut values) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in json {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                values += 1;
                if depth > MAX_DEPTH {
                    return Err(format!("it is nested more than {MAX_DEPTH} levels deep"));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' => values += 1,
            _ => {}
        }
        if values > MAX_VALUES {
            return Err(format!("it has more than {MAX_VALUES} values"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!(
            r#"{{"event":"PreToolUse","toolArgs":{{"command":"rm -rf /","x":{}{}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        )
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        for bad in ["", "not json", "[1]", "\"s\"", "{\"a\":", "{\"a\":1e999}"] {
            assert!(Hook::from_json(bad).is_err(), "{bad:?}");
        }
        let deep = Hook::from_json(&nested(10_000)).unwrap_err();
        assert!(deep.contains("nested more than 100"), "{deep}");
        assert!(Hook::from_json(&nested(127)).is_err());
        assert!(Hook::from_json(&nested(MAX_DEPTH - 2)).is_ok());
        let wide = format!("{{\"a\":[{}0]}}", "0,".repeat(MAX_VALUES));
        assert!(Hook::from_json(&wide).unwrap_err().contains("values"));
    }

    #[test]
    fn brackets_and_escapes_inside_strings_do_not_count() {
        let text = format!(
            r#"{{"toolArgs":{{"command":"rm -rf \u002f {}\"\\"}}}}"#,
            "[{".repeat(1000)
        );
        let hook = Hook::from_json(&text).unwrap();
        assert!(hook.arg_str("command").unwrap().starts_with("rm -rf / [{"));
    }
}
