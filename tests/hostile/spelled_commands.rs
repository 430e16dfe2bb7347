//! A guard on a shell command, `"if": "Bash(rm *)"`, is started for every spelling that really
//! runs the command in bash (quotes, escapes, paths, wrappers, substitutions, compound commands,
//! `sh -c`, `eval`), and for every line whose command cannot be told without running it; a
//! guard on a file, `"if": "Edit(.env)"`, is started for a write through a symlink to the file.
//! Before the bash parser (issue 37) the rule was matched against the text split on operators,
//! and most of these slipped past the guard.

use crate::common::{Project, pre_tool, summary};
use crate::{hookhost, runner_under, trust_all};
use hookhost::{Decision, TrustPolicy};
use serde_json::json;

/// Lines that run `rm` in bash, each a different spelling.
const SPELLINGS: &[&str] = &[
    "rm -rf x",
    r"\rm x",
    "'rm' x",
    "\"rm\" x",
    "r\"\"m x",
    r"r\m x",
    "$'rm' x",
    r"$'\x72m' x",
    "/bin/rm x",
    "/usr/bin/rm x",
    "../../bin/rm x",
    "command rm x",
    "command -p rm x",
    "builtin command rm x",
    "env rm x",
    "env -i rm x",
    "env -- rm x",
    "env -u HOME A=1 rm x",
    "env -S 'rm x'",
    "exec rm x",
    "exec -a foo rm x",
    "timeout 5 rm x",
    "timeout -s KILL 5 rm x",
    "sudo -u root rm x",
    "sudo -- rm x",
    "nice -n 5 rm x",
    "nohup rm x",
    "time rm x",
    "stdbuf -oL rm x",
    "setsid rm x",
    "busybox rm x",
    "xargs rm <<< x",
    "echo x | xargs -I{} rm {}",
    r"find . -exec rm {} \;",
    "find . -execdir rm {} +",
    "echo $(rm x)",
    "echo `rm x`",
    "cat <(rm x)",
    "echo ${A:-$(rm x)}",
    "cat <<EOF\n$(rm x)\nEOF",
    "if true; then rm x; fi",
    "FOO=\"a b\" rm x",
    "{rm,-rf,x}",
    "sh -c 'rm x'",
    "sh -c 'cd /; rm x'",
    "bash -c \"rm x\"",
    "bash -lc 'true && rm x'",
    "(rm x)",
    "{ rm x; }",
    "! rm x",
    "true && rm x",
    "false || rm x",
    "ls; rm x",
    "ls & rm x",
    "for i in 1; do rm x; done",
    "while false; do :; done; rm x",
    "case a in a) rm x;; esac",
    "f() { rm x; }; f",
    "rm${IFS}x",
    "eval rm x",
    "eval \"$V\"",
    "x=rm; $x -rf y",
    "echo rm x | sh",
    ">out rm x",
    "ls\nrm x",
    "# a comment\nrm x",
    "cat <<'EOF'\nrm? no, a heredoc\nEOF\nrm x",
    "trap 'rm x' EXIT",
];

/// Lines that do not run `rm`: the guard must stay asleep, or the test could pass by blocking
/// everything. `git rm` is git's own subcommand, not the `rm` program.
const HARMLESS: &[&str] = &[
    "ls -la",
    "echo rm",
    "grep rm file",
    "git rm x",
    "cat 'rm x'",
    "echo \"rm -rf /\"",
    "npm run rmdir-safe",
];

fn guarded() -> Project {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "echo blocked >&2; exit 2", "if": "Bash(rm *)"}
    ]}}));
    trust_all(&p);
    p
}

#[tokio::test]
async fn a_guarded_command_spelled_another_way_still_starts_the_guard() {
    let p = guarded();
    let runner = runner_under(&p, TrustPolicy::Skip);
    let mut slipped = Vec::new();
    for spelling in SPELLINGS {
        let r = runner
            .fire(pre_tool(&p.path(), "bash", json!({ "command": spelling })))
            .await;
        if r.decision != Decision::Block {
            slipped.push(*spelling);
        }
    }
    assert!(
        slipped.is_empty(),
        "{} of {} spellings slipped past the guard: {slipped:#?}",
        slipped.len(),
        SPELLINGS.len()
    );
    for line in HARMLESS {
        let r = runner
            .fire(pre_tool(&p.path(), "bash", json!({ "command": line })))
            .await;
        assert_eq!(r.decision, Decision::Pass, "{line}: {}", summary(&r));
    }
}

#[test]
fn a_guarded_command_spelled_another_way_starts_the_guard_in_the_binary() {
    let p = guarded();
    for (line, code) in [
        (r"\rm x", 2),
        ("sh -c 'rm x'", 2),
        ("sudo -u root rm x", 2),
        ("eval \"$V\"", 2),
        ("ls -la", 0),
        ("git rm x", 0),
    ] {
        let args = json!({ "command": line }).to_string();
        let out = hookhost(
            &p,
            &["run", "PreToolUse", "--tool", "bash", "--args", &args],
            &[],
        );
        assert_eq!(
            out.status.code(),
            Some(code),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[cfg(unix)]
#[tokio::test]
async fn a_write_through_a_symlink_to_a_guarded_file_starts_the_guard() {
    let p = Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "echo blocked >&2; exit 2", "if": "Edit(.env)"},
        {"command": "echo blocked >&2; exit 2", "if": "Edit(/secrets/**)"}
    ]}}));
    trust_all(&p);
    p.write(".env", "TOKEN=1");
    p.write("secrets/key", "k");
    std::os::unix::fs::symlink(".env", p.path().join("env-link")).unwrap();
    std::os::unix::fs::symlink("secrets", p.path().join("innocent")).unwrap();
    std::os::unix::fs::symlink(p.path().join("innocent"), p.path().join("chain")).unwrap();
    let runner = runner_under(&p, TrustPolicy::Skip);
    for (tool, path, decision) in [
        ("write_file", "env-link", Decision::Block),
        ("Edit", "./env-link", Decision::Block),
        ("write_file", "innocent/key", Decision::Block),
        // Not there yet: the longest existing prefix is resolved.
        ("write_file", "chain/new/deeper.txt", Decision::Block),
        ("write_file", "notes.txt", Decision::Pass),
    ] {
        let r = runner
            .fire(pre_tool(&p.path(), tool, json!({ "file_path": path })))
            .await;
        assert_eq!(r.decision, decision, "{tool} {path}: {}", summary(&r));
    }
}

#[test]
fn a_guard_in_a_process_substitution_beside_the_adapter_entry_is_not_skipped_with_it() {
    // Another agent's entry that is only `hookhost hook --for claude` is skipped (hookhost runs
    // the native hooks itself); one that also runs a command in `<(…)` or `>(…)` (an audit
    // guard) is not only the adapter, and must run.
    let p = Project::new(json!({}));
    let audit = p.home.path().join("audited");
    let command = format!(
        "hookhost hook --for claude <(touch {})",
        audit.to_string_lossy()
    );
    std::fs::create_dir_all(p.home.path().join(".claude")).unwrap();
    std::fs::write(
        p.home.path().join(".claude/settings.json"),
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}})
            .to_string(),
    )
    .unwrap();
    let args = json!({ "command": "ls" }).to_string();
    let out = hookhost(
        &p,
        &["run", "PreToolUse", "--tool", "bash", "--args", &args],
        &[],
    );
    // Under a `sh` without process substitution (dash) the entry fails with a syntax error
    // and blocks; under bash the audit guard runs. Either way it ran, it was not skipped.
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        audit.exists() || report.contains("exited with code"),
        "the entry was skipped as the adapter: {out:?}"
    );
}
