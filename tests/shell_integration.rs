//! Shell integration generated from the clap definitions: each completion script parses in
//! its shell (`bash -n`, `zsh -n`, `fish -n`; a shell that is not installed is reported, and
//! bash must be), names the subcommands, and the man page is roff that man/groff renders.

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
    if !have("groff") {
        eprintln!("groff is not installed: the page is checked as roff text only");
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
        "groff -man rejects `hookhost man`: {warnings}"
    );
}
