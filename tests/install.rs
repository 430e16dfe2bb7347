//! `hookhost install --for AGENT`: the real binary on real files in a temporary home. A fresh
//! install wires every event, a second changes nothing, the user's hooks and settings (and
//! their key order) stay, uninstall gives the original back, a file the agent could not read
//! is refused naming the file and line, and `doctor` sees the wiring.

mod common;

use common::Project;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Output;

fn install(p: &Project, args: &[&str]) -> Output {
    p.command().arg("install").args(args).output().unwrap()
}

fn ok(out: &Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
    text
}

fn file(p: &Project, rel: &str) -> PathBuf {
    p.home.path().join(rel)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The adapter commands of a claude-shaped file, by event.
fn wired(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (event, groups) in doc["hooks"].as_object().into_iter().flatten() {
        for g in groups.as_array().unwrap() {
            for h in g["hooks"].as_array().into_iter().flatten() {
                let c = h["command"].as_str().unwrap_or_default();
                if c.contains(" hook --for ") {
                    out.push((event.clone(), c.to_string()));
                }
            }
            for key in ["command", "bash"] {
                if let Some(c) = g[key].as_str().filter(|c| c.contains(" hook --for ")) {
                    out.push((event.clone(), c.to_string()));
                }
            }
        }
    }
    out
}

const CLAUDE_USER: &str = r#"{
  "theme": "dark",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "/home/me/guard.sh", "timeout": 5}]}
    ]
  },
  "permissions": {"allow": ["Bash(ls:*)"]},
  "alpha": 1
}
"#;

#[test]
fn install_is_idempotent_keeps_the_users_hooks_and_uninstall_restores() {
    let p = Project::new(json!({"hooks": {}}));
    let settings = file(&p, ".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, CLAUDE_USER).unwrap();

    let text = ok(&install(&p, &["--for", "claude"]));
    assert!(text.contains("added    PreToolUse"), "{text}");
    let after = read(&settings);
    let doc: Value = serde_json::from_str(&after).unwrap();
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_hookhost")).unwrap();
    // The static client beside it is what gets wired (the fast path, issue 43).
    let client = exe.with_file_name("hookhost-warm");
    let exe = if client.is_file() { client } else { exe };
    let events = wired(&doc);
    // Every event Claude Code fires but the two whose hooks replace its own work.
    assert_eq!(events.len(), 32, "{after}");
    assert!(
        events
            .iter()
            .all(|(_, c)| c.starts_with(&format!("{} hook --for claude", exe.display()))),
        "{events:?}"
    );
    // The user's guard is still first on PreToolUse, and the keys keep their order.
    assert_eq!(
        doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "/home/me/guard.sh"
    );
    assert_eq!(doc["hooks"]["PreToolUse"][1]["matcher"], "*");
    let keys: Vec<usize> = ["\"theme\"", "\"hooks\"", "\"permissions\"", "\"alpha\""]
        .iter()
        .map(|k| after.find(k).unwrap())
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{after}");
    // The original, once.
    let backup = file(&p, ".claude/settings.json.hookhost-backup");
    assert_eq!(read(&backup), CLAUDE_USER);

    // Twice: nothing changes, not even the bytes.
    let text = ok(&install(&p, &["--for", "claude"]));
    assert!(text.contains("nothing to change"), "{text}");
    assert_eq!(read(&settings), after);
    assert_eq!(read(&backup), CLAUDE_USER);

    // Uninstall: the user's file as it was (as JSON; the indentation is hookhost's).
    let text = ok(&install(&p, &["--for", "claude", "--uninstall"]));
    assert!(text.contains("removed  PreToolUse (1 entries)"), "{text}");
    let back: Value = serde_json::from_str(&read(&settings)).unwrap();
    let original: Value = serde_json::from_str(CLAUDE_USER).unwrap();
    assert_eq!(back, original);
}

#[test]
fn dry_run_writes_nothing_and_json_says_what_it_would() {
    let p = Project::new(json!({"hooks": {}}));
    let out = install(&p, &["--for", "gemini", "--dry-run", "--json"]);
    ok(&out);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["changed"], true);
    assert_eq!(report["dryRun"], true);
    assert!(!file(&p, ".gemini/settings.json").exists());
    let content: Value = serde_json::from_str(report["content"].as_str().unwrap()).unwrap();
    assert_eq!(content["hooks"]["BeforeTool"][0]["matcher"], ".*");
    assert_eq!(
        content["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"],
        60000
    );
    let events: Vec<&str> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert!(events.contains(&"AfterAgent") && !events.contains(&"BeforeModel"));
}

#[test]
fn a_file_the_agent_cannot_read_is_refused_naming_file_and_line() {
    let p = Project::new(json!({"hooks": {}}));
    let hooks = file(&p, ".codex/hooks.json");
    std::fs::create_dir_all(hooks.parent().unwrap()).unwrap();
    let broken = "{\n  \"hooks\": {\n    \"Stop\": [],\n  }\n}\n";
    std::fs::write(&hooks, broken).unwrap();
    let out = install(&p, &["--for", "codex"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&hooks.display().to_string()) && err.contains("line 4"),
        "{err}"
    );
    assert!(err.contains("nothing was changed"), "{err}");
    assert_eq!(read(&hooks), broken);
    assert!(!file(&p, ".codex/hooks.json.hookhost-backup").exists());

    // Gemini CLI allows comments; a rewrite would lose them: refused, and the dry run
    // still shows the entries.
    let settings = file(&p, ".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\n  // mine\n  \"a\": 1\n}\n").unwrap();
    let out = install(&p, &["--for", "gemini"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("comments (the first at line 2)"), "{err}");
    ok(&install(&p, &["--for", "gemini", "--dry-run"]));
    assert!(read(&settings).contains("// mine"));

    // A shape the agent would not read either: named by its place.
    std::fs::write(&hooks, r#"{"hooks": {"PreToolUse": {"matcher": "*"}}}"#).unwrap();
    let out = install(&p, &["--for", "codex"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("`hooks.PreToolUse` is an object, expected an array"),
        "{err}"
    );
}

#[test]
fn cursor_and_copilot_files_and_doctor_sees_every_wiring() {
    let p = Project::new(json!({"hooks": {}}));
    for agent in ["claude", "codex", "gemini", "cursor", "copilot"] {
        ok(&install(&p, &["--for", agent]));
    }
    let cursor: Value = serde_json::from_str(&read(&file(&p, ".cursor/hooks.json"))).unwrap();
    assert_eq!(cursor["version"], 1);
    assert_eq!(wired(&cursor).len(), 8, "{cursor:#}");
    assert!(cursor["hooks"]["preToolUse"][0]["command"].is_string());
    let copilot_file = file(&p, ".copilot/hooks/hookhost.json");
    let copilot: Value = serde_json::from_str(&read(&copilot_file)).unwrap();
    assert_eq!(copilot["hooks"]["preToolUse"][0]["timeoutSec"], 60);
    assert_eq!(wired(&copilot).len(), 8, "{copilot:#}");

    let out = p.cli(&["doctor", "--json"], &[]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for a in report["agents"].as_array().unwrap() {
        if !["claude", "codex", "gemini", "cursor", "copilot"]
            .contains(&a["agent"].as_str().unwrap())
        {
            continue;
        }
        let events = a["events"].as_array().unwrap();
        assert!(
            events
                .iter()
                .all(|e| e["wiredVia"].as_array().unwrap().len() == 1),
            "{a:#}"
        );
    }
    // Every agent with a row, the Claude-like ones (not wired here) included.
    assert_eq!(report["agents"].as_array().unwrap().len(), 14);

    // Copilot CLI's file is hookhost's own: uninstall removes it.
    ok(&install(&p, &["--for", "copilot", "--uninstall"]));
    assert!(!copilot_file.exists());
}

#[test]
fn doctor_names_a_wiring_whose_hookhost_is_gone() {
    let p = Project::new(json!({"hooks": {}}));
    let settings = file(&p, ".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "/gone/bin/hookhost hook --for claude"}]}]}})
        .to_string(),
    )
    .unwrap();
    let out = p.cli(&["doctor", "--json"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("/gone/bin/hookhost"), "{text}");
    assert!(text.contains("is not an executable file"), "{text}");
    // Install repoints it in place.
    let text = ok(&install(&p, &["--for", "claude"]));
    assert!(
        text.contains("updated  PreToolUse (was: /gone/bin/hookhost hook --for claude)"),
        "{text}"
    );
    let out = p.cli(&["doctor", "--json"], &[]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("/gone/bin"));
}

const QWEN_USER: &str = r#"{
  "model": {"name": "qwen3-coder"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "/home/me/guard.sh", "timeout": 5}]}
    ]
  },
  "telemetry": {"enabled": false}
}
"#;

/// The events of an agent in doctor's report, and how many wirings each has.
fn doctor_wirings(p: &Project, agent: &str) -> Vec<(String, usize)> {
    let out = p.cli(&["doctor", "--json"], &[]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == agent)
        .unwrap_or_else(|| panic!("no {agent} in {report:#}"))
        .clone();
    a["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let n = e["wiredVia"].as_array().unwrap().len();
            (e["event"].as_str().unwrap().to_string(), n)
        })
        .collect()
}

#[test]
fn qwen_code_is_wired_in_its_settings_idempotently_and_unwired() {
    let p = Project::new(json!({"hooks": {}}));
    let settings = file(&p, ".qwen/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, QWEN_USER).unwrap();
    assert!(doctor_wirings(&p, "qwen").iter().all(|(_, n)| *n == 0));

    let text = ok(&install(&p, &["--for", "qwen"]));
    assert!(text.contains("added    PreToolUse"), "{text}");
    let after = read(&settings);
    let doc: Value = serde_json::from_str(&after).unwrap();
    let events = wired(&doc);
    // The fourteen events Qwen Code fires (config/agents/claude_like.rs), in Claude Code's names.
    assert_eq!(events.len(), 14, "{after}");
    assert!(
        events.iter().any(|(e, _)| e == "PermissionRequest"),
        "{events:?}"
    );
    assert!(
        events.iter().all(|(_, c)| c.contains(" hook --for qwen")),
        "{events:?}"
    );
    // The user's guard first; ours matches every tool; 60 is seconds to Qwen Code (below 1000).
    let pre = &doc["hooks"]["PreToolUse"];
    assert_eq!(pre[0]["hooks"][0]["command"], "/home/me/guard.sh");
    assert_eq!(pre[1]["matcher"], "*");
    assert_eq!(pre[1]["hooks"][0]["timeout"], 60);
    assert!(doc["hooks"]["Stop"][0].get("matcher").is_none(), "{after}");
    assert_eq!(doc["model"]["name"], "qwen3-coder");
    // doctor: every event it fires wired once, in that file.
    let seen = doctor_wirings(&p, "qwen");
    assert_eq!(seen.len(), 14);
    assert!(seen.iter().all(|(_, n)| *n == 1), "{seen:?}");

    let text = ok(&install(&p, &["--for", "qwen"]));
    assert!(text.contains("nothing to change"), "{text}");
    assert_eq!(read(&settings), after);

    ok(&install(&p, &["--for", "qwen", "--uninstall"]));
    let back: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(QWEN_USER).unwrap());
}

#[test]
fn goose_gets_a_plugin_of_its_own_and_droid_its_settings_file() {
    let p = Project::new(json!({"hooks": {}}));
    // goose: hookhost's plugin under ~/.agents/plugins/, regex matchers.
    let out = install(&p, &["--for", "goose", "--json"]);
    ok(&out);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let plugin = file(&p, ".agents/plugins/hookhost/hooks/hooks.json");
    assert_eq!(Path::new(report["file"].as_str().unwrap()), plugin);
    let doc: Value = serde_json::from_str(&read(&plugin)).unwrap();
    assert_eq!(doc["hooks"]["PreToolUse"][0]["matcher"], ".*");
    assert_eq!(wired(&doc).len(), 7, "{doc:#}");
    let seen = doctor_wirings(&p, "goose");
    assert!(seen.iter().all(|(_, n)| *n == 1), "{seen:?}");
    ok(&install(&p, &["--for", "goose"]));
    assert_eq!(serde_json::from_str::<Value>(&read(&plugin)).unwrap(), doc);
    ok(&install(&p, &["--for", "goose", "--uninstall"]));
    assert!(!plugin.exists());
    assert!(doctor_wirings(&p, "goose").iter().all(|(_, n)| *n == 0));

    // Factory Droid (`droid exec` 0.215.0) runs settings.json's hooks, not a hooks.json
    // alone: install edits settings.json, keeping the user's hooks and keys.
    let settings = file(&p, ".factory/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let user = json!({"model": "x", "hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "/home/me/notify.sh"}]}]}});
    std::fs::write(&settings, user.to_string()).unwrap();
    ok(&install(&p, &["--for", "droid"]));
    assert!(!file(&p, ".factory/hooks.json").exists());
    let doc: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(wired(&doc).len(), 9, "{doc:#}");
    assert_eq!(
        doc["hooks"]["Stop"][0]["hooks"][0]["command"],
        "/home/me/notify.sh"
    );
    assert!(doctor_wirings(&p, "droid").iter().all(|(_, n)| *n == 1));
    ok(&install(&p, &["--for", "droid", "--uninstall"]));
    assert_eq!(
        serde_json::from_str::<Value>(&read(&settings)).unwrap(),
        user
    );
}

#[test]
fn opencode_gets_hookhosts_plugin_file_and_never_a_users_file() {
    let p = Project::new(json!({"hooks": {}}));
    let plugin = file(&p, ".config/opencode/plugins/hookhost.js");
    let shipped =
        read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/opencode/hookhost.js"));
    assert!(doctor_wirings(&p, "opencode").iter().all(|(_, n)| *n == 0));

    let text = ok(&install(&p, &["--for", "opencode"]));
    assert!(text.contains("added    tool.execute.before"), "{text}");
    assert_eq!(read(&plugin), shipped);
    let seen = doctor_wirings(&p, "opencode");
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert!(seen.iter().all(|(_, n)| *n == 1), "{seen:?}");
    assert!(ok(&install(&p, &["--for", "opencode"])).contains("nothing to change"));

    // An older copy of the plugin is replaced; doctor warned about it first.
    std::fs::write(
        &plugin,
        format!("{}\n// old\n", shipped.lines().next().unwrap()),
    )
    .unwrap();
    let out = p.cli(&["doctor"], &[]);
    let doctor = String::from_utf8_lossy(&out.stdout);
    assert!(
        doctor.contains("another version of hookhost's opencode plugin"),
        "{doctor}"
    );
    let text = ok(&install(&p, &["--for", "opencode"]));
    assert!(text.contains("updated  tool.execute.before"), "{text}");
    assert_eq!(read(&plugin), shipped);
    assert!(!file(&p, ".config/opencode/plugins/hookhost.js.hookhost-backup").exists());

    ok(&install(&p, &["--for", "opencode", "--uninstall"]));
    assert!(!plugin.exists());

    // A file of the user's by that name: neither install nor uninstall touches it.
    std::fs::write(&plugin, "export const Mine = async () => ({});\n").unwrap();
    for args in [
        &["--for", "opencode"][..],
        &["--for", "opencode", "--uninstall"],
    ] {
        let out = install(&p, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("not hookhost's plugin"), "{err}");
        assert!(err.contains("hookhost.js"), "{err}");
    }
    assert_eq!(read(&plugin), "export const Mine = async () => ({});\n");
    assert!(doctor_wirings(&p, "opencode").iter().all(|(_, n)| *n == 0));
}

#[test]
fn windsurf_gets_flat_entries_of_its_own() {
    let p = Project::new(json!({"hooks": {}}));
    // Windsurf: `{"hooks": {EVENT: [{"command": C}]}}`, every Cascade event hookhost handles.
    let ws = file(&p, ".codeium/windsurf/hooks.json");
    std::fs::create_dir_all(ws.parent().unwrap()).unwrap();
    let user = json!({"hooks": {"pre_run_command": [{"command": "/home/me/audit.sh", "show_output": true}]}});
    std::fs::write(&ws, user.to_string()).unwrap();
    ok(&install(&p, &["--for", "windsurf"]));
    let doc: Value = serde_json::from_str(&read(&ws)).unwrap();
    assert_eq!(wired(&doc).len(), 10, "{doc:#}");
    assert_eq!(
        doc["hooks"]["pre_run_command"][0]["command"],
        "/home/me/audit.sh"
    );
    assert!(
        doc["hooks"]["pre_run_command"][1].get("timeout").is_none(),
        "{doc:#}"
    );
    assert!(doc.get("version").is_none(), "{doc:#}");
    let seen = doctor_wirings(&p, "windsurf");
    assert_eq!(seen.len(), 10, "{seen:?}");
    assert!(seen.iter().all(|(_, n)| *n == 1), "{seen:?}");
    ok(&install(&p, &["--for", "windsurf", "--uninstall"]));
    assert_eq!(serde_json::from_str::<Value>(&read(&ws)).unwrap(), user);
}

#[test]
fn cline_gets_a_script_per_event_that_answers_as_cline() {
    let p = Project::new(json!({"hooks": {}}));
    // Cline: an executable per event in ~/Documents/Cline/Hooks, each `exec`ing the adapter;
    // the user's own PostToolUse hook stays (Cline runs one file per event), and is said.
    let dir = file(&p, "Documents/Cline/Hooks");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("PostToolUse"), "#!/bin/sh\n/home/me/audit.sh\n").unwrap();
    let text = ok(&install(&p, &["--for", "cline"]));
    assert!(text.contains("is your own PostToolUse hook"), "{text}");
    assert!(text.contains("added    TaskStart"), "{text}");
    let start = read(&dir.join("TaskStart"));
    assert!(start.starts_with("#!/bin/sh\n"), "{start}");
    assert!(start.contains(" hook --for cline"), "{start}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("TaskStart"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "{mode:o}");
    }
    assert_eq!(
        read(&dir.join("PostToolUse")),
        "#!/bin/sh\n/home/me/audit.sh\n"
    );
    let seen = doctor_wirings(&p, "cline");
    let wired_events: Vec<&str> = seen
        .iter()
        .filter(|(_, n)| *n == 1)
        .map(|(e, _)| e.as_str())
        .collect();
    assert_eq!(wired_events.len(), seen.len() - 1, "{seen:?}");
    assert!(!wired_events.contains(&"PostToolUse"), "{seen:?}");
    assert!(ok(&install(&p, &["--for", "cline"])).contains("nothing to change"));
    // The script really answers as Cline's hook: a payload on stdin, an answer on stdout.
    // A guard of the user's that refuses every shell call: the script answers Cline's cancel.
    let own = file(&p, ".coding-agent/hooks.json");
    std::fs::create_dir_all(own.parent().unwrap()).unwrap();
    std::fs::write(
        &own,
        json!({"hooks": {"PreToolUse": [{"command": "echo no shell today >&2; exit 2"}]}})
            .to_string(),
    )
    .unwrap();
    let payload = read(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/cline/doc-PreToolUse.json"),
    )
    .replace("/home/user/project", &p.path().to_string_lossy());
    let mut child = std::process::Command::new(dir.join("PreToolUse"))
        .current_dir(p.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answer: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    assert_eq!(answer["cancel"], true, "{answer}");
    assert!(answer.to_string().contains("no shell today"), "{answer}");

    ok(&install(&p, &["--for", "cline", "--uninstall"]));
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["PostToolUse"], "{left:?}");
}
