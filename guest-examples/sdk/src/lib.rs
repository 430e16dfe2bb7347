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

impl Hook {
    /// Reads the payload from stdin. A payload that is not JSON ends the hook with exit 1 (a
    /// warning in the host), which never happens when hookhost runs it.
    pub fn read() -> Hook {
        let mut text = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            fail(&format!("cannot read the payload from stdin: {e}"));
        }
        Hook::from_json(&text).unwrap_or_else(|e| fail(&e))
    }

    /// A hook from payload text (for tests of your hook logic).
    pub fn from_json(text: &str) -> Result<Hook, String> {
        let payload: Value =
            serde_json::from_str(text).map_err(|e| format!("the payload is not JSON: {e}"))?;
        if !payload.is_object() {
            return Err("the payload is not a JSON object".into());
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
    eprintln!("{reason}");
    exit(2)
}

/// Stop / SubagentStop: keep the agent working; `message` becomes a user message
/// (stdout, exit 2).
pub fn force(message: &str) -> ! {
    println!("{message}");
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
    println!("{answer}");
    exit(0)
}

/// The hook itself failed (exit 1: a warning in the host, or a block with `onError: block`).
pub fn fail(message: &str) -> ! {
    eprintln!("{message}");
    exit(1)
}
