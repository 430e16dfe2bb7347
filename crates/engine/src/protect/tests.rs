//! The guard's decisions on calls of every shape, with a home and a project in a temporary
//! directory.

use super::*;
use serde_json::json;

struct Fixture {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    guard: Protected,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let home = root.join("home");
    let project = home.join("work/p");
    std::fs::create_dir_all(home.join(".coding-agent")).unwrap();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(home.join(".coding-agent/hooks.json"), "{}").unwrap();
    let guard = Protected::new(&Sources {
        home: Some(home.clone()),
        account_home: None,
        project: Some(project.clone()),
        managed: vec![root.join("etc/coding-agent/hooks.json")],
        state_dirs: vec![root.join("cache/hookhost")],
        exe: Some(root.join("bin/hookhost")),
    });
    Fixture {
        _dir: dir,
        home,
        project,
        guard,
    }
}

impl Fixture {
    fn bash(&self, command: &str) -> Option<Denial> {
        self.guard
            .judge("Bash", &json!({ "command": command }), &self.project)
    }
    fn write(&self, tool: &str, path: &Path) -> Option<Denial> {
        self.guard.judge(
            tool,
            &json!({"file_path": path, "path": path, "content": "x"}),
            &self.project,
        )
    }
}

#[test]
fn file_tools_of_every_dialect_are_judged_by_path() {
    let f = fixture();
    let hooks = f.home.join(".coding-agent/hooks.json");
    for tool in [
        "Write",
        "Edit",
        "MultiEdit",
        "write_file",
        "edit_file",
        "replace",
        "create",
        "edit",
        "mcp__fs__write",
    ] {
        let d = f.write(tool, &hooks).unwrap_or_else(|| panic!("{tool}"));
        assert!(d.reason().contains("hooks.json"), "{}", d.reason());
    }
    assert!(f.write("Read", &hooks).is_none());
    assert!(f.write("Write", &f.project.join("src/a.rs")).is_none());
    assert!(
        f.write("Write", &f.home.join(".claude/settings.json"))
            .is_some()
    );
    assert!(
        f.write("Write", &f.home.join(".claude/CLAUDE.md"))
            .is_none()
    );
    // Relative to the call's directory, `..` included.
    assert!(
        f.guard
            .judge(
                "Write",
                &json!({"file_path": "../../.coding-agent/x"}),
                &f.project
            )
            .is_some()
    );
}

#[test]
fn links_are_followed_dangling_ones_too() {
    let f = fixture();
    std::os::unix::fs::symlink(
        f.home.join(".claude/settings.json"),
        f.project.join("s.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink(f.home.join(".coding-agent"), f.project.join("cfg")).unwrap();
    assert!(f.write("Write", &f.project.join("s.json")).is_some());
    assert!(f.write("Write", &f.project.join("cfg/new.json")).is_some());
    assert!(f.bash("echo x > s.json").is_some());
    // `..` after a link is beside the link's target.
    std::fs::create_dir_all(f.home.join(".coding-agent/sub")).unwrap();
    std::os::unix::fs::symlink(f.home.join(".coding-agent/sub"), f.project.join("d")).unwrap();
    assert!(
        f.write("Write", &f.project.join("d/../hooks.json"))
            .is_some()
    );
    assert!(f.bash("echo x > d/../hooks.json").is_some());
    // A hard link of a protected file.
    std::fs::hard_link(f.home.join(".coding-agent/hooks.json"), f.project.join("h")).unwrap();
    assert!(f.write("Write", &f.project.join("h")).is_some());
}

#[test]
fn shell_writes_are_denied_and_reads_are_not() {
    let f = fixture();
    for c in [
        "echo {} > ~/.coding-agent/hooks.json",
        "echo {} >> $HOME/.claude/settings.json",
        "cp x ~/.claude/settings.json",
        "rm -rf ~",
        "mv ~/.coding-agent /tmp/x",
        "cd ~/.coding-agent; echo > hooks.json",
        "chmod -R 777 ~/.coding-agent",
        "python3 -c \"open('/x/.coding-agent/hooks.json','w')\"",
        "hookhost trust --yes",
        "/usr/local/bin/hookhost remove x",
        "hookhost import --from claude --write",
        "npx hookhost trust",
        "python3 -m hookhost trust",
        "echo > ../../.coding-agent/hooks.json",
        "echo > .coding-agent/hooks.json",
        "sudo hookhost trust --yes",
        "env hookhost trust --yes",
        "nohup rm -rf ~",
        "npm uninstall -g hookhost",
        "pipx uninstall hookhost",
        "cp /tmp/s.json ~/.claude/",
        "tar -C ~ -xf /tmp/p.tar",
        "rm -rf ~alice/.coding-agent",
        "sed -n 'w ~/.claude/settings.json' x",
        "echo '((((((((((((((((((((((((((((((((((((((((((((((((((('; rm -rf x",
    ] {
        assert!(f.bash(c).is_some(), "{c}");
    }
    for c in [
        "cat ~/.coding-agent/hooks.json",
        "ls ~/.claude",
        "grep x ~/.claude/settings.json",
        "hookhost run PreToolUse --tool bash",
        "hookhost check",
        "hookhost",
        "echo hi > out.txt",
        "cargo test",
        "rm -rf target",
        "find . -name '*.pyc' -delete",
        "chmod -R u+w .",
        "sed -n 1,5p ~/.claude/settings.json",
        "rm -rf /",
        "npm install",
        "cp ~/.claude/settings.json /tmp/backup.json",
    ] {
        assert!(f.bash(c).is_none(), "{c}: {:?}", f.bash(c));
    }
}

#[test]
fn patches_and_argv_commands_are_read() {
    let f = fixture();
    let patch = format!(
        "*** Begin Patch\n*** Update File: {}\n@@\n-a\n+b\n*** End Patch",
        f.home.join(".codex/config.toml").display()
    );
    assert!(
        f.guard
            .judge("apply_patch", &json!({"input": patch}), &f.project)
            .is_some()
    );
    assert!(
        f.guard
            .judge(
                "shell",
                &json!({"command": ["bash", "-lc", "rm -rf ~/.coding-agent"]}),
                &f.project
            )
            .is_some()
    );
    assert!(
        f.guard
            .judge(
                "exec_command",
                &json!({"cmd": "hookhost trust"}),
                &f.project
            )
            .is_some()
    );
}

#[test]
fn the_managed_files_state_and_binary_are_protected() {
    let f = fixture();
    let root = f.home.parent().unwrap();
    for p in [
        "etc/coding-agent/hooks.json",
        "cache/hookhost/wasm/x",
        "bin/hookhost",
    ] {
        assert!(f.write("Write", &root.join(p)).is_some(), "{p}");
    }
}

#[test]
fn the_permission_checker_takes_the_guard() {
    let f = fixture();
    let guard = Arc::new(f.guard.clone()).permission_guard();
    let checker = crate::agent::PermissionChecker::default().with_guard(guard);
    let args = json!({"path": f.home.join(".coding-agent/hooks.json"), "content": "{}"});
    assert!(matches!(
        checker.check("write_file", &args, false),
        crate::agent::Permission::Deny(r) if r.contains("protected")
    ));
}

/// The per-session state a `once` hook's mark is kept in (`<cache>/session-env/<session>/`)
/// lies under the cache root: the agent can neither delete a mark (to run the hook again)
/// nor plant one (to keep it from running).
#[test]
fn the_per_session_once_marks_are_protected() {
    let f = fixture();
    let state = f
        .home
        .parent()
        .unwrap()
        .join("cache/hookhost/session-env/s-1");
    let mark = state.join("once-0123456789abcdef0123456789abcdef");
    let d = f.bash(&format!("rm -f {}", mark.display()));
    assert!(d.is_some(), "rm of a once mark was let through");
    assert!(f.write("Write", &state.join("once-x")).is_some());
}

/// Every agent's user file that wires hookhost in (install writes them) is protected, so the
/// agent's own tool call cannot switch its guard off there; a neighbour is not.
#[test]
fn every_agents_wiring_file_is_protected() {
    let f = fixture();
    for rel in [
        ".qwen/settings.json",
        ".qoder/settings.json",
        ".grok/hooks/hookhost.json",
        ".factory/settings.json",
        ".factory/hooks.json",
        ".augment/settings.json",
        ".agents/plugins/hookhost/hooks/hooks.json",
        "Documents/Cline/Hooks/PreToolUse",
        ".codeium/windsurf/hooks.json",
        ".config/opencode/plugins/hookhost.js",
        ".config/opencode/opencode.json",
    ] {
        assert!(f.write("Write", &f.home.join(rel)).is_some(), "{rel}");
        assert!(
            f.bash(&format!("echo '{{}}' > {}", f.home.join(rel).display()))
                .is_some(),
            "shell: {rel}"
        );
    }
    assert!(f.write("Write", &f.home.join(".qwen/notes.md")).is_none());
}

/// The warm engine's remembered places: used again while nothing they were computed from
/// changed, computed again (as a fresh process would) when a name on a place's route
/// appears, a directory on it becomes a link, or a project settings file starts to name
/// hookhost.
#[test]
fn remembered_places_are_computed_again_when_what_they_read_changes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (home, project, elsewhere) = (root.join("home"), root.join("p"), root.join("elsewhere"));
    for d in [&home, &project, &elsewhere] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    let settings = project.join(".claude/settings.json");
    std::fs::write(&settings, r#"{"hooks": {}}"#).unwrap();
    let sources = Sources {
        home: Some(home.clone()),
        project: Some(project.clone()),
        exe: Some(root.join("bin/hookhost")),
        ..Sources::default()
    };
    // Times closer than the racy margin are never kept: let what was just made settle.
    let settle = || std::thread::sleep(hookhost_sys::stamps::RACY * 2);
    let write = |g: &Protected, path: &Path| {
        g.judge(
            "Write",
            &json!({"file_path": path, "content": "x"}),
            &project,
        )
    };
    settle();
    let (first, kept) = Protected::remembered(&sources);
    assert!(!kept);
    assert!(write(&first, &settings).is_none(), "names no hookhost yet");
    assert!(write(&first, &elsewhere.join("settings.json")).is_none());
    let (again, kept) = Protected::remembered(&sources);
    assert!(kept, "nothing changed: the places are used again");
    assert!(write(&again, &settings).is_none());

    // ~/.gemini becomes a link to another folder: its settings resolve there now.
    std::os::unix::fs::symlink(&elsewhere, home.join(".gemini")).unwrap();
    let (linked, kept) = Protected::remembered(&sources);
    assert!(!kept, "a name appeared on a place's route");
    assert!(write(&linked, &elsewhere.join("settings.json")).is_some());
    // With a link on a route nothing is kept: computed anew each time.
    assert!(!Protected::remembered(&sources).1);
    std::fs::remove_file(home.join(".gemini")).unwrap();

    settle();
    assert!(!Protected::remembered(&sources).1);
    assert!(Protected::remembered(&sources).1);
    // The project's Claude Code settings now run hookhost: they are a protected place.
    std::fs::write(
        &settings,
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"command": "hookhost hook --for claude"}]}]}}"#,
    )
    .unwrap();
    let (wired, kept) = Protected::remembered(&sources);
    assert!(!kept, "a file whose text decides was written");
    assert!(write(&wired, &settings).is_some());
}
