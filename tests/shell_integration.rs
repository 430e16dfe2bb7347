//! Shell integration generated from the clap definitions: each completion script parses in
//! its shell (`bash -n`, `zsh -n`, `fish -n`; a shell that is not installed is reported, and
//! bash must be), names the subcommands and the usual values of events, languages and agents,
//! and the man pages (hookhost(1) and, with `--dir`, one per subcommand it names) are roff that
//! man/groff renders.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

const HOOKHOST: &str = env!("CARGO_BIN_EXE_hookhost");

fn generate(args: &[&str]) -> String {
    let out = Command::new(HOOKHOST).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "hookhost {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn have(shell: &str) -> bool {
    Command::new(shell)
        .arg("-c")
        .arg("true")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Writes the script and runs `SHELL -n FILE`: a syntax check, nothing executed.
fn parses(shell: &str, script: &str, dir: &Path) {
    let file = dir.join(format!("hookhost.{shell}"));
    std::fs::write(&file, script).unwrap();
    let out = Command::new(shell).arg("-n").arg(&file).output().unwrap();
    assert!(
        out.status.success(),
        "{shell} -n rejects `hookhost completions {shell}`: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn completions_parse_in_their_shell_and_know_the_subcommands() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let script = generate(&["completions", shell]);
        for sub in ["run", "check", "new", "completions"] {
            assert!(
                script.contains(sub),
                "{shell} completions do not name `{sub}`"
            );
        }
        if shell != "bash" && !have(shell) {
            eprintln!(
                "{shell} is not installed (apt-get install {shell}): its syntax is not checked"
            );
            continue;
        }
        parses(shell, &script, dir.path());
    }
}

/// The values an argument usually takes reach the completion scripts: the events of `run`
/// (and `log --event`), the languages of `new`, the agents of `hook --for`. clap_complete's
/// fish script completes options only, so there the events come from `log --event`, and `new`'s
/// languages are not offered.
#[test]
fn completions_offer_events_languages_and_agents() {
    for (shell, values) in [
        (
            "bash",
            &[
                "PreToolUse",
                "SessionEnd",
                "rust-component",
                "assemblyscript",
                "copilot",
            ][..],
        ),
        (
            "zsh",
            &[
                "PreToolUse",
                "SessionEnd",
                "rust-component",
                "assemblyscript",
                "copilot",
            ][..],
        ),
        ("fish", &["PreToolUse", "SessionEnd", "copilot"][..]),
    ] {
        let script = generate(&["completions", shell]);
        for value in values {
            assert!(
                script.contains(value),
                "{shell} completions do not offer `{value}`"
            );
        }
    }
    // bash offers run's EVENT where `run` is being completed, not only in a flag's help.
    let bash = generate(&["completions", "bash"]);
    let run = bash
        .split("hookhost__subcmd__run)")
        .nth(1)
        .expect("bash completes `run`");
    let opts = run.lines().find(|l| l.contains("opts=")).unwrap_or("");
    assert!(
        opts.contains("PreToolUse"),
        "run's EVENT is not offered: {opts}"
    );
}

/// Values offered for completion are not the only ones accepted: another agent's event name
/// still fires (as the native event it stands for).
#[test]
fn a_hinted_argument_still_takes_other_values() {
    let p = common::Project::new(serde_json::json!({"hooks": {}}));
    let out = p.cli(
        &["run", "BeforeTool", "--tool", "bash", "--args", "{}"],
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Renders `page` with `groff -man` (when installed): no warnings.
fn renders(name: &str, page: &str) {
    if !have("groff") {
        eprintln!("groff is not installed: {name} is checked as roff text only");
        return;
    }
    let mut child = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), page.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let warnings = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && warnings.trim().is_empty(),
        "groff -man rejects {name}: {warnings}"
    );
}

/// `hookhost man --dir DIR` writes hookhost.1 and every page it names (`hookhost-run(1)`, ...),
/// prints their paths, and each renders.
#[test]
fn man_dir_writes_every_page_hookhost_1_names() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let printed = generate(&["man", "--dir", pages.to_str().unwrap()]);
    let top = std::fs::read_to_string(pages.join("hookhost.1")).unwrap();
    let named: Vec<String> = top
        .lines()
        .filter_map(|l| l.strip_prefix("hookhost\\-")?.strip_suffix("(1)"))
        .map(|sub| format!("hookhost-{sub}.1"))
        .collect();
    assert!(
        named.len() >= 20 && named.iter().any(|n| n == "hookhost-run.1"),
        "hookhost.1 names too few pages: {named:?}"
    );
    for page in named.iter().chain(["hookhost.1".to_string()].iter()) {
        let path = pages.join(page);
        assert!(
            printed.lines().any(|l| Path::new(l) == path),
            "{} not printed: {printed}",
            path.display()
        );
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("hookhost.1 names {page}, not written: {e}"));
        assert!(text.contains(".SH SYNOPSIS"), "{page}: {text:.200}");
        renders(page, &text);
    }
    assert!(
        !pages.join("hookhost-warm-serve.1").exists(),
        "the hidden warm-serve got a page"
    );
}

#[test]
fn an_unknown_shell_is_refused_with_the_list() {
    let out = Command::new(HOOKHOST)
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tcsh") && err.contains("bash") && err.contains("fish"),
        "{err}"
    );
}

#[test]
fn the_man_page_is_roff_that_renders() {
    let page = generate(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH hookhost 1"),
        "{page:.200}"
    );
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH SUBCOMMANDS",
    ] {
        assert!(page.contains(section), "the man page has no {section}");
    }
    assert!(
        page.contains(env!("CARGO_PKG_VERSION")),
        "the man page does not carry the version"
    );
    renders("`hookhost man`", &page);
}
