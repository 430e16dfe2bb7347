//! The README's quick start, run as a script (issue 42): every ```sh block that follows a
//! `<!-- quickstart -->` line, in order, in one bash, in a fresh empty directory, with the built
//! `hookhost` first on PATH and a temporary home, the way a reader pastes them.
//!
//! What it asserts is what the README promises: each `echo "exit $? (N expected: ...)"` prints
//! exit N; every other command succeeds; the shell guard blocks `rm -rf /` with its reason and
//! `check` finds its hook; the Rust guard `hookhost new` writes blocks `mkfs`; trust is
//! recorded in the reader's home; and the blocks leave exactly one `.coding-agent/` behind (a
//! block run in the wrong directory leaves a stray one).
//!
//! The fast tier: bash, cargo and the `wasm32-wasip1` target. The Rust hook builds into
//! `<target>/templates/cargo`, shared with tests/templates.rs, so a warm run takes seconds.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const EXE: &str = env!("CARGO_BIN_EXE_hookhost");
const MARK: &str = "<!-- quickstart -->";
const EXPECT: &str = "echo \"exit $? (";

/// One marked block: the README line of its first line of code, and its lines.
#[derive(Debug)]
struct Block {
    first_line: usize,
    code: Vec<String>,
}

/// The ```sh (or ```bash) blocks right after each `<!-- quickstart -->` line of `readme`.
fn quickstart_blocks(readme: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != MARK {
            i += 1;
            continue;
        }
        let mark = i + 1;
        i += 1;
        while i < lines.len() && lines[i].trim().is_empty() {
            i += 1;
        }
        if !matches!(lines.get(i).map(|l| l.trim()), Some("```sh" | "```bash")) {
            return Err(format!(
                "README.md:{mark}: {MARK} is not followed by a ```sh block: put the block it marks right after it"
            ));
        }
        let first_line = i + 2;
        let mut code = Vec::new();
        i += 1;
        loop {
            match lines.get(i) {
                None => {
                    return Err(format!(
                        "README.md:{mark}: the quick-start block marked here is never closed: end it with ```"
                    ));
                }
                Some(l) if l.trim() == "```" => break,
                Some(l) => code.push((*l).to_string()),
            }
            i += 1;
        }
        blocks.push(Block { first_line, code });
    }
    if blocks.is_empty() {
        return Err(format!(
            "README.md has no {MARK} line: put one before each ```sh block of the quick start (tests/quickstart.rs runs them)"
        ));
    }
    Ok(blocks)
}

/// The exit status a line promises, from `echo "exit $? (N expected: why)"`; `Ok(None)` for a
/// line without that echo.
fn expected_exit(line: &str) -> Result<Option<i32>, String> {
    let Some(at) = line.find(EXPECT) else {
        if line.contains("echo \"exit $?") {
            return Err(format!(
                "`{line}`: say which exit status the reader should see: `echo \"exit $? (N expected: why)\"`"
            ));
        }
        return Ok(None);
    };
    let rest = &line[at + EXPECT.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    match digits.parse() {
        Ok(n) if rest[digits.len()..].starts_with(" expected") => Ok(Some(n)),
        _ => Err(format!(
            "`{line}`: write the promised status as `echo \"exit $? (N expected: why)\"`"
        )),
    }
}

/// A README line of the script: where it is in the README, its text, the status it promises.
struct Source {
    readme_line: usize,
    text: String,
    expect: Option<i32>,
}

/// The blocks as one bash script, with a transcript marker before each block and an ERR trap
/// that appends `LINE STATUS` to `$QUICKSTART_FAILED` for every command that fails; and what
/// each line of the script is in the README.
fn script(blocks: &[Block]) -> (String, HashMap<usize, Source>) {
    let mut text =
        String::from("exec 2>&1\ntrap 'echo \"$LINENO $?\" >>\"$QUICKSTART_FAILED\"' ERR\n");
    let mut sources = HashMap::new();
    let mut line = 2;
    for (n, block) in blocks.iter().enumerate() {
        text.push_str(&format!("echo '=== quickstart block {}'\n", n + 1));
        line += 1;
        for (k, code) in block.code.iter().enumerate() {
            text.push_str(code);
            text.push('\n');
            line += 1;
            let expect = expected_exit(code)
                .unwrap_or_else(|e| panic!("README.md:{}: {e}", block.first_line + k));
            sources.insert(
                line,
                Source {
                    readme_line: block.first_line + k,
                    text: code.clone(),
                    expect,
                },
            );
        }
    }
    (text, sources)
}

/// `hookhost` as the reader types it, for this test's home: a wrapper first on PATH that runs
/// the built binary with `--home HOME` when the subcommand takes one.
fn wrapper(bin: &Path) {
    std::fs::create_dir_all(bin).unwrap();
    let path = bin.join("hookhost");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\n\
             real='{EXE}'\n\
             if [ \"$#\" -gt 0 ] && \"$real\" \"$1\" --help 2>/dev/null | grep -qE '^[[:space:]]+--home'; then\n\
             \x20 sub=\"$1\"; shift; exec \"$real\" \"$sub\" --home \"$HOME\" \"$@\"\n\
             fi\n\
             exec \"$real\" \"$@\"\n"
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// bash running `script` in `work` with the wrapper and the built binary first on PATH, the
/// temporary `home` as HOME, and none of this machine's hookhost settings.
fn bash(script: &Path, work: &Path, home: &Path, scratch: &Path) -> Command {
    let exe_dir = Path::new(EXE).parent().unwrap();
    let target = exe_dir
        .parent()
        .expect("the hookhost binary lives in <target>/<profile>/");
    let path = std::env::join_paths(
        [scratch.join("bin"), exe_dir.to_path_buf()]
            .into_iter()
            .chain(std::env::split_paths(
                &std::env::var_os("PATH").unwrap_or_default(),
            )),
    )
    .unwrap();
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc"])
        .arg(script)
        .current_dir(work)
        .stdin(Stdio::null());
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        if key.starts_with("HOOKHOST_") || key.starts_with("XDG_") || key.ends_with("_PROJECT_DIR")
        {
            cmd.env_remove(key);
        }
    }
    // rustup and cargo keep their files under the real home; the reader's are already there.
    if let Some(real_home) = std::env::var_os("HOME").map(PathBuf::from) {
        for (var, dir) in [("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")] {
            if std::env::var_os(var).is_none() && real_home.join(dir).is_dir() {
                cmd.env(var, real_home.join(dir));
            }
        }
    }
    cmd.env("PATH", path)
        .env("HOME", home)
        .env("QUICKSTART_FAILED", scratch.join("failed"))
        .env("CARGO_TARGET_DIR", target.join("templates/cargo"))
        .env("HOOKHOST_CACHE_DIR", scratch.join("cache"))
        .env("HOOKHOST_LOG_DIR", scratch.join("log"))
        .env(
            "HOOKHOST_MANAGED_CONFIG",
            scratch.join("managed/hooks.json"),
        )
        .env(
            "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
            scratch.join("managed/managed-settings.json"),
        )
        .env_remove("RUST_LOG");
    cmd
}

/// Every directory named `.coding-agent` under `dir` (not in build output).
fn coding_agent_dirs(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if !entry.file_type().unwrap().is_dir() || name == "target" || name == "node_modules" {
            continue;
        }
        if name == ".coding-agent" {
            found.push(entry.path());
        }
        coding_agent_dirs(&entry.path(), found);
    }
}

/// The transcript of block `n` (1-based): the output between its marker and the next.
fn block_output(transcript: &str, n: usize) -> &str {
    let start = format!("=== quickstart block {n}\n");
    let from = transcript
        .find(&start)
        .map_or(transcript.len(), |i| i + start.len());
    let rest = &transcript[from..];
    rest.find("=== quickstart block ")
        .map_or(rest, |end| &rest[..end])
}

#[test]
#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
fn the_readme_quick_start_works_pasted_in_a_fresh_directory() {
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let blocks = quickstart_blocks(&readme).unwrap_or_else(|e| panic!("{e}"));
    let (text, sources) = script(&blocks);
    let promised: Vec<i32> = (0..text.lines().count() + 1)
        .filter_map(|l| sources.get(&l).and_then(|s| s.expect))
        .collect();
    assert!(
        promised.contains(&2) && promised.contains(&0),
        "README.md's quick start shows no blocked call (`echo \"exit $? (2 expected: ...)\"`) or \
         no passing one (0 expected): it must show the guard at work; promised: {promised:?}"
    );

    let scratch = tempfile::tempdir().unwrap();
    let work = scratch.path().join("fresh");
    let home = scratch.path().join("home");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    wrapper(&scratch.path().join("bin"));
    let file = scratch.path().join("quickstart.sh");
    std::fs::write(&file, &text).unwrap();

    let out = bash(&file, &work, &home, scratch.path()).output().unwrap();
    let transcript = String::from_utf8_lossy(&out.stdout).into_owned();
    let shown = format!("--- the script\n{text}--- its output\n{transcript}");

    // Every command succeeds, except one that promises the status it failed with.
    let failed = std::fs::read_to_string(scratch.path().join("failed")).unwrap_or_default();
    for entry in failed.lines() {
        let (line, status) = entry.split_once(' ').unwrap();
        let (line, status): (usize, i32) = (line.parse().unwrap(), status.parse().unwrap());
        let source = sources.get(&line);
        if source.and_then(|s| s.expect) == Some(status) {
            continue;
        }
        let Some(source) = source else {
            panic!("script line {line} failed with exit {status}\n{shown}");
        };
        let at = format!("README.md:{}: `{}`", source.readme_line, source.text);
        match source.expect {
            Some(promised) => panic!("{at} exited {status}; the README says {promised}\n{shown}"),
            None => panic!(
                "{at} failed with exit {status}: the quick start must work pasted as is\n{shown}"
            ),
        }
    }
    // Each `echo "exit $? (N expected: ...)"` printed exit N, in order.
    let got: Vec<(i32, i32)> = transcript
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("exit ")?;
            let (actual, rest) = rest.split_once(" (")?;
            let expected = rest.split_once(" expected")?.0;
            Some((actual.parse().ok()?, expected.parse().ok()?))
        })
        .collect();
    assert_eq!(
        got.iter().map(|(_, e)| *e).collect::<Vec<_>>(),
        promised,
        "the quick start did not print every promised exit status\n{shown}"
    );
    for (actual, expected) in &got {
        assert_eq!(
            actual, expected,
            "a quick-start call exited {actual}, the README says {expected}\n{shown}"
        );
    }

    // The shell hook: `check` finds it, the block carries its reason.
    let first = block_output(&transcript, 1);
    assert!(
        first.contains("1 hook") && first.contains("0 errors"),
        "`hookhost check` after step 1 should find 1 hook and 0 errors\n{shown}"
    );
    assert!(
        first.contains("destructive command"),
        "the shell guard's reason `destructive command` is not in step 1's output\n{shown}"
    );
    // The wasm hook: built, tested, and it blocks what the shell script lets through.
    let second = block_output(&transcript, 2);
    assert!(
        second.contains("2 hooks") && second.contains("0 errors"),
        "`hookhost check` after step 2 should find 2 hooks and 0 errors\n{shown}"
    );
    assert!(
        second.contains("`mkfs` formats a disk"),
        "the wasm guard's reason for `mkfs` is not in step 2's output\n{shown}"
    );
    // Trust went to the reader's home, and the blocks left one `.coding-agent/`, not a stray.
    assert!(
        home.join(".coding-agent/trusted.json").is_file(),
        "`hookhost trust` recorded nothing in the test's home {}: the wrapper must give \
         hookhost this home\n{shown}",
        home.display()
    );
    let mut dirs = Vec::new();
    coding_agent_dirs(&work, &mut dirs);
    assert_eq!(
        dirs.len(),
        1,
        "the quick start should leave one .coding-agent/ under the fresh directory: {dirs:#?}\n{shown}"
    );
    let project = dirs[0].parent().unwrap();
    for file in ["hooks.json", "hooks/check-bash.sh", "hooks/bash-guard.wasm"] {
        assert!(
            dirs[0].join(file).is_file(),
            "{} is missing after the quick start\n{shown}",
            dirs[0].join(file).display()
        );
    }
    assert!(
        project.join("bash-guard/bash-guard.wasm").is_file(),
        "`hookhost build` wrote no bash-guard.wasm in {}\n{shown}",
        project.display()
    );
}

#[test]
fn the_extraction_fails_without_a_marked_block() {
    let err = quickstart_blocks("# x\n```sh\nls\n```\n").unwrap_err();
    assert!(err.contains("no <!-- quickstart --> line"), "{err}");
    let err = quickstart_blocks("<!-- quickstart -->\nsome text\n```sh\nls\n```\n").unwrap_err();
    assert!(err.starts_with("README.md:1: "), "{err}");
    let err = quickstart_blocks("<!-- quickstart -->\n```sh\nls\n").unwrap_err();
    assert!(err.contains("never closed"), "{err}");
}

#[test]
fn the_extraction_takes_each_marked_block_in_order() {
    let readme = "# t\n<!-- quickstart -->\n\n```sh\na\nb\n```\n```sh\nnot marked\n```\n<!-- quickstart -->\n```bash\nc\n```\n";
    let blocks = quickstart_blocks(readme).unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].code, ["a", "b"]);
    assert_eq!(blocks[0].first_line, 5);
    assert_eq!(blocks[1].code, ["c"]);
    assert_eq!(blocks[1].first_line, 13);
}

#[test]
fn a_promised_exit_status_is_read_and_a_vague_one_refused() {
    assert_eq!(
        expected_exit("x; echo \"exit $? (2 expected: blocked)\""),
        Ok(Some(2))
    );
    assert_eq!(expected_exit("hookhost check"), Ok(None));
    assert!(expected_exit("x; echo \"exit $?\"").is_err());
    assert!(expected_exit("x; echo \"exit $? (two expected)\"").is_err());
}
