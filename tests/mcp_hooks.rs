//! MCP-tool hooks (`"mcp": {"server", "tool", "input"}`) against a real MCP server: the
//! stdio server of tests/fixtures/mcp/server.py (standard-library Python), started by the
//! hook, spoken to with the official SDK.

mod common;

use common::{Project, pre_tool};
use hookhost::{Decision, Event, Outcome, Payload, Runner, TrustPolicy, TrustStore};
use serde_json::{Value, json};
use std::path::PathBuf;

/// The test server's script.
fn server_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/mcp/server.py")
}

/// A definition of the test server, as Claude Code's `.mcp.json` writes one.
fn server(extra_args: &[&str]) -> Value {
    let python = common::needs::python3();
    let mut args = vec![server_script().display().to_string()];
    args.extend(extra_args.iter().map(ToString::to_string));
    json!({"command": python.display().to_string(), "args": args, "env": {"MARK": "from-definition"}})
}

/// A project whose hooks.json defines the server `guard` and runs `hook` on PreToolUse.
fn project(hook: Value, server_args: &[&str]) -> Project {
    Project::new(json!({
        "mcpServers": {"guard": server(server_args)},
        "hooks": {"PreToolUse": [hook]}
    }))
}

fn mcp(tool: &str, input: Value) -> Value {
    json!({"mcp": {"server": "guard", "tool": tool, "input": input}, "timeout": 20000})
}

#[tokio::test]
async fn a_tool_that_answers_block_blocks_with_its_reason() {
    let p = project(
        mcp(
            "answer",
            json!({"text": "{\"decision\": \"block\", \"reason\": \"no rm here\"}"}),
        ),
        &[],
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "rm -rf /"})))
        .await;
    assert_eq!(
        (r.decision, r.reason.as_deref()),
        (Decision::Block, Some("no rm here"))
    );
    let h = &r.hooks[0];
    assert_eq!((h.kind.as_str(), h.outcome), ("mcp", Outcome::Block));
    // The server's stderr is the hook's.
    assert!(
        h.stderr.contains("test server: call answer"),
        "{}",
        h.stderr
    );
}

#[tokio::test]
async fn a_tool_that_answers_pass_passes_and_input_is_filled_from_the_payload() {
    let p = project(
        mcp(
            "echo",
            json!({"cmd": "${toolArgs.command}", "said": "ran ${toolArgs.command}", "n": 1}),
        ),
        &[],
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls -la"})))
        .await;
    assert_eq!(r.decision, Decision::Pass, "{:?}", r.hooks[0]);
    let h = &r.hooks[0];
    // Its answer is read like a command's stdout: JSON with no field hookhost reads warns.
    assert_eq!(h.outcome, Outcome::Warn, "{:?}", h.message);
    // The tool saw the filled arguments; its text is the hook's stdout.
    let echoed: Value = serde_json::from_str(&h.stdout).unwrap();
    assert_eq!(
        echoed,
        json!({"cmd": "ls -la", "said": "ran ls -la", "n": 1})
    );
}

#[tokio::test]
async fn a_tool_that_answers_an_empty_object_passes() {
    let p = project(mcp("answer", json!({"text": "{}"})), &[]);
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Pass, Outcome::Pass),
        "{:?}",
        r.hooks[0].message
    );
}

#[tokio::test]
async fn is_error_is_a_hook_error_subject_to_on_error() {
    let warn = project(mcp("fail", json!({"text": "scanner down"})), &[]);
    let r = warn
        .runner()
        .fire(pre_tool(&warn.path(), "bash", json!({})))
        .await;
    let h = &r.hooks[0];
    assert_eq!((r.decision, h.outcome), (Decision::Pass, Outcome::Warn));
    let message = h.message.as_deref().unwrap_or_default();
    assert!(
        message.contains("isError") && message.contains("scanner down"),
        "{message}"
    );

    let mut hook = mcp("fail", json!({"text": "scanner down"}));
    hook["onError"] = json!("block");
    let block = project(hook, &[]);
    let r = block
        .runner()
        .fire(pre_tool(&block.path(), "bash", json!({})))
        .await;
    assert_eq!(
        (r.decision, r.hooks[0].outcome),
        (Decision::Block, Outcome::Block)
    );
    assert!(
        r.reason
            .as_deref()
            .unwrap_or_default()
            .contains("scanner down"),
        "{:?}",
        r.reason
    );
}

#[tokio::test]
async fn a_tool_that_never_answers_times_out_and_the_server_is_killed() {
    let mut hook = mcp("sleep", json!({}));
    hook["timeout"] = json!(1500);
    let p = project(hook, &["--marker", "started.txt"]);
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Timeout, "{:?}", r.hooks[0]);
    // It ran in the project directory with the definition's `env`.
    assert_eq!(
        p.read("started.txt"),
        format!("{}\nfrom-definition\n", p.path().display())
    );
    // No server process outlives the hook: none runs in this project's directory.
    #[cfg(target_os = "linux")]
    {
        let left = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| {
                let e = e.ok()?;
                let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
                let cwd = std::fs::read_link(e.path().join("cwd")).ok()?;
                (String::from_utf8_lossy(&cmd).contains("server.py") && cwd == p.path())
                    .then_some(())
            })
            .count();
        assert_eq!(left, 0, "a server of this test still runs");
    }
}

#[tokio::test]
async fn a_server_from_the_projects_mcp_json_is_found() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [mcp(
        "answer",
        json!({"text": "{\"decision\": \"block\", \"reason\": \"from .mcp.json\"}"})
    )]}}));
    p.write(
        ".mcp.json",
        &json!({"mcpServers": {"guard": server(&[])}}).to_string(),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.reason.as_deref(), Some("from .mcp.json"));
}

#[tokio::test]
async fn claudes_mcp_tool_hook_runs_on_a_server_of_the_mcp_json() {
    let p = Project::new(json!({}));
    p.write(
        ".mcp.json",
        &json!({"mcpServers": {"guard": server(&[])}}).to_string(),
    );
    let answer = json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "denied by ${tool_name}"
    }})
    .to_string();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
            "type": "mcp_tool",
            "server": "guard",
            "tool": "answer",
            "input": {"text": answer},
            "timeout": 20
        }]}]}})
        .to_string(),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "Bash", json!({"command": "ls"})))
        .await;
    assert_eq!(r.decision, Decision::Block, "{:?}", r.hooks);
    assert_eq!(r.reason.as_deref(), Some("denied by Bash"));
}

fn trusting_runner(p: &Project, policy: TrustPolicy) -> Runner {
    p.builder()
        .trust(policy, TrustStore::load(Some(p.home.path())).unwrap())
        .build()
        .unwrap()
}

#[tokio::test]
async fn an_untrusted_projects_server_is_not_started_until_trusted() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [mcp("answer", json!({"text": "{}"}))]}}));
    p.write(
        ".mcp.json",
        &json!({"mcpServers": {"guard": server(&["--marker", "started.txt"])}}).to_string(),
    );
    let r = trusting_runner(&p, TrustPolicy::Skip)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Skipped);
    assert!(!p.path().join("started.txt").exists(), "the server ran");
    let r = trusting_runner(&p, TrustPolicy::Block)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.decision, Decision::Block);
    assert!(!p.path().join("started.txt").exists(), "the server ran");

    // Trusted: it runs. The trust names .mcp.json among what is new.
    let mut store = TrustStore::load(Some(p.home.path())).unwrap();
    let set = hookhost::config::load(&p.paths()).unwrap();
    let assessment = store.assess(&p.paths(), &set);
    assert!(
        assessment
            .changes
            .iter()
            .any(|c| c.file == p.path().join(".mcp.json")),
        "{:?}",
        assessment.changes
    );
    store.trust(&assessment).unwrap();
    let r = trusting_runner(&p, TrustPolicy::Skip)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Pass, "{:?}", r.hooks[0]);
    assert!(p.path().join("started.txt").exists());

    // Changing the server's definition makes the hook untrusted again.
    std::fs::remove_file(p.path().join("started.txt")).unwrap();
    p.write(
        ".mcp.json",
        &json!({"mcpServers": {"guard": server(&["--marker", "started.txt", "--evil"])}})
            .to_string(),
    );
    let r = trusting_runner(&p, TrustPolicy::Skip)
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await;
    assert_eq!(r.hooks[0].outcome, Outcome::Skipped);
    assert!(!p.path().join("started.txt").exists(), "the server ran");
}

#[test]
fn a_server_nobody_defines_is_a_config_error_naming_hook_server_and_where() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"mcp": {"server": "nope", "tool": "t"}}
    ]}}));
    let err = hookhost::config::load(&p.paths()).unwrap_err().to_string();
    assert!(err.contains("PreToolUse[0]"), "{err}");
    assert!(err.contains("MCP server `nope` is not defined"), "{err}");
    assert!(
        err.contains(".mcp.json") && err.contains("mcpServers"),
        "{err}"
    );
}

#[tokio::test]
async fn a_users_hook_never_starts_a_projects_server() {
    let p = Project::new(json!({}));
    p.write(
        ".mcp.json",
        &json!({"mcpServers": {"guard": server(&[])}}).to_string(),
    );
    p.write_global(json!({"hooks": {"PreToolUse": [mcp("answer", json!({}))]}}));
    let err = hookhost::config::load(&p.paths()).unwrap_err().to_string();
    assert!(
        err.contains("never starts a server a project defines"),
        "{err}"
    );
}

#[tokio::test]
async fn a_post_tool_use_hook_passes_the_payload_as_arguments() {
    let p = Project::new(json!({
        "mcpServers": {"guard": server(&[])},
        "hooks": {"PostToolUse": [mcp("echo", json!({"all": "$ARGUMENTS"}))]}
    }));
    let r = p
        .runner()
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    let h = &r.hooks[0];
    assert_eq!(h.outcome, Outcome::Warn, "{:?}", h.message);
    let echoed: Value = serde_json::from_str(&h.stdout).unwrap();
    let all: Value = serde_json::from_str(echoed["all"].as_str().unwrap()).unwrap();
    assert_eq!(all["event"], "PostToolUse");
}

#[tokio::test]
async fn codexs_mcp_tool_hook_runs_on_a_server_of_its_config_toml() {
    let p = Project::new(json!({}));
    let def = server(&[]);
    let args: Vec<String> = def["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| format!("{a}"))
        .collect();
    p.write(
        ".codex/config.toml",
        &format!(
            "[mcp_servers.guard]\ncommand = {}\nargs = [{}]\n",
            def["command"],
            args.join(", ")
        ),
    );
    p.write(
        ".codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
            "type": "mcp_tool",
            "server": "guard",
            "tool": "answer",
            "input": {"text": "{\"decision\": \"block\", \"reason\": \"codex says ${tool_input.command}\"}"},
            "timeout": 20
        }]}]}})
        .to_string(),
    );
    let r = p
        .runner()
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(r.decision, Decision::Block, "{:?}", r.hooks);
    assert_eq!(r.reason.as_deref(), Some("codex says ls"));
}

/// The test server serving streamable HTTP; killed when dropped.
struct HttpServer(std::process::Child, u16);

impl HttpServer {
    fn start() -> Self {
        use std::io::BufRead;
        let mut child = std::process::Command::new(common::needs::python3())
            .arg(server_script())
            .arg("--http")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().unwrap();
        HttpServer(child, port)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn a_streamable_http_server_answers_with_the_definitions_headers() {
    let server = HttpServer::start();
    let url = format!("http://127.0.0.1:{}/mcp", server.1);
    let p = Project::new(json!({
        "mcpServers": {"remote": {"type": "http", "url": url, "headers": {"X-Test": "from-headers"}}},
        "hooks": {
            "PreToolUse": [{"mcp": {"server": "remote", "tool": "answer",
                "input": {"text": "{\"decision\": \"block\", \"reason\": \"remote says no to ${toolArgs.command}\"}"}},
                "timeout": 20000}],
            "PostToolUse": [{"mcp": {"server": "remote", "tool": "header"}, "timeout": 20000}]
        }
    }));
    let runner = p.runner();
    let r = runner
        .fire(pre_tool(&p.path(), "bash", json!({"command": "ls"})))
        .await;
    assert_eq!(
        r.reason.as_deref(),
        Some("remote says no to ls"),
        "{:?}",
        r.hooks
    );
    let r = runner
        .fire(Payload::neutral(Event::PostToolUse, &p.path(), "s"))
        .await;
    assert_eq!(r.hooks[0].stdout, "from-headers", "{:?}", r.hooks[0]);
}

#[test]
fn a_server_of_claude_json_is_the_users_and_its_project_entry_wins() {
    let p =
        Project::new(json!({"hooks": {"PreToolUse": [{"mcp": {"server": "guard", "tool": "t"}}]}}));
    let claude_json = json!({
        "mcpServers": {"guard": {"command": "user-wide"}},
        "projects": {p.path().display().to_string(): {"mcpServers": {"guard": {"command": "this-project"}}}}
    });
    std::fs::write(p.home.path().join(".claude.json"), claude_json.to_string()).unwrap();
    let set = hookhost::config::load(&p.paths()).unwrap();
    let hook = set.all().next().unwrap();
    let hookhost::config::Handler::Mcp { server, .. } = &hook.handler else {
        panic!("not an MCP hook: {:?}", hook.handler)
    };
    assert_eq!(server.scope, hookhost::config::Scope::Global);
    assert_eq!(server.defined_in, p.home.path().join(".claude.json"));
    assert_eq!(
        server.command_line().as_deref(),
        Some("this-project"),
        "the project's entry of ~/.claude.json wins"
    );
}

#[test]
fn a_claude_mcp_tool_hook_without_a_tool_is_an_error_naming_it() {
    let p = Project::new(json!({}));
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "mcp_tool", "server": "guard"}
        ]}]}})
        .to_string(),
    );
    let err = hookhost::config::load(&p.paths()).unwrap_err().to_string();
    assert!(err.contains(".claude/settings.json"), "{err}");
    assert!(err.contains("PreToolUse[0].hooks[0]"), "{err}");
    assert!(err.contains("`mcp` needs a non-empty `tool`"), "{err}");
}
