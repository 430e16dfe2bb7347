//! Programs whose whole tree is code: what `hookhost trust` names so the reviewer knows that
//! a change there does not untrust the hook.

use super::shell_words::{Token, WRAPPERS, is_interpreter, is_python, simple_commands};

/// Programs whose command line trust cannot pin what they run: they build or load code from
/// the whole tree (`cargo run` compiles the crate and its `build.rs`, `pytest` imports every
/// `conftest.py`, `go run`, `gradle`, `tox`, `pre-commit`, `docker compose`, ...). A change
/// there does not untrust the hook; `hookhost trust` names them so the reviewer knows.
const TREE_RUNNERS: &[&str] = &[
    "cargo",
    "go",
    "gradle",
    "gradlew",
    "mvn",
    "mvnw",
    "ant",
    "sbt",
    "bazel",
    "bazelisk",
    "buck2",
    "cmake",
    "ninja",
    "meson",
    "tox",
    "nox",
    "pytest",
    "py.test",
    "pre-commit",
    "docker",
    "docker-compose",
    "podman",
    "rake",
    "bundle",
    "composer",
    "mix",
    "dotnet",
    "swift",
    "zig",
    "uv",
    "uvx",
    "poetry",
    "pipenv",
    "pdm",
    "hatch",
    "rye",
    "tsc",
    "jest",
    "vitest",
    "eslint",
    "prettier",
    "ruff",
    "mypy",
    "rustc",
    "gcc",
    "cc",
    "clang",
    "javac",
];

/// The programs of `command` (each simple command's, past assignments and wrappers) that run
/// code trust does not pin (`TREE_RUNNERS`), by name, each once.
pub fn unpinned_programs(command: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    collect_unpinned(command, &mut out, 0);
    out
}

fn collect_unpinned(text: &str, out: &mut Vec<String>, depth: u8) {
    for words in simple_commands(text) {
        let mut i = 0;
        let word = |i: usize| match words.get(i) {
            Some(Token::Word(w)) => Some(w.as_str()),
            _ => None,
        };
        while let Some(w) = word(i) {
            let name = w.rsplit('/').next().unwrap_or(w);
            let assignment = w.contains('=') && !w.starts_with('=') && !w.contains('/');
            let option_or_value =
                w.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
            if assignment || WRAPPERS.contains(&name) || option_or_value {
                i += 1;
                continue;
            }
            break;
        }
        let Some(program) = word(i) else { continue };
        let name = program.rsplit('/').next().unwrap_or(program);
        if TREE_RUNNERS.contains(&name) && !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
        if is_interpreter(name) && depth < 4 {
            let mut k = i + 1;
            while let Some(w) = word(k) {
                if w == "-c"
                    && let Some(inner) = word(k + 1)
                {
                    collect_unpinned(inner, out, depth + 1);
                }
                // `python -m pytest`: the module is such a program.
                if is_python(name) && w.starts_with("-m") {
                    let module = if w == "-m" {
                        word(k + 1)
                    } else {
                        Some(&w[2..])
                    };
                    let top = module.and_then(|m| m.split('.').next()).unwrap_or_default();
                    if TREE_RUNNERS.contains(&top) && !out.iter().any(|o| o == top) {
                        out.push(top.to_string());
                    }
                }
                k += 1;
            }
        }
    }
}
