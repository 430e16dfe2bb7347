//! Cline's hooks: not a settings file but one executable per event in a hooks directory,
//! named after the event (`PreToolUse`, `PreToolUse.sh`, `TaskStart.py`; docs.cline.bot,
//! "Hooks" and "Hook Reference"; the SDK's `hook-file-config.ts`). The user's directories
//! are `~/Documents/Cline/Hooks` and `~/.cline/hooks`, the project's `.clinerules/hooks` and
//! `.cline/hooks`. Each file is one hook: [`hook_files`] lists them (a source each, so that
//! trust and rank hold per file as for any other agent's file), [`read_cline`] makes the
//! native hook object a file means.
//!
//! Cline runs a file through the interpreter its `#!` line names, else by its extension
//! (`bash` for `.sh` and none, `node`, `bun run`, `python3`, `pwsh -File`); hookhost runs
//! the same command line.

use super::{ADAPTER_SKIPPED, ForeignFile, ForeignHook, ForeignSource};
use crate::Dialect;
use crate::config::Scope;
use crate::config::agents::events;
use serde_json::json;
use std::path::{Path, PathBuf};

/// Cline's hooks directories, relative to the project and to the home directory.
pub(super) const PROJECT_DIRS: [&str; 2] = [".clinerules/hooks", ".cline/hooks"];
pub(super) const USER_DIRS: [&str; 2] = ["Documents/Cline/Hooks", ".cline/hooks"];

/// The extensions Cline runs a hook file with (none is a shell script or its `#!`).
const EXTENSIONS: [&str; 12] = [
    "", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "mts", "cts", "py", "ps1",
];

/// At most this many hook files of one directory are read (as Copilot CLI's).
const MAX_FILES: usize = 64;

/// At most this many entries of one directory are looked at.
const MAX_ENTRIES: usize = 4096;

/// The Cline event a hook file's name means (its name without the extension, any case).
fn event_name(file: &Path) -> Option<&'static str> {
    let name = file.file_name()?.to_str()?;
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, ext.to_ascii_lowercase()),
        _ => (name, String::new()),
    };
    if !EXTENSIONS.contains(&ext.as_str()) {
        return None;
    }
    events::AGENT_EVENTS
        .iter()
        .chain(events::SECOND_NAMES)
        .find(|(d, n, _)| *d == Dialect::Cline && n.eq_ignore_ascii_case(stem.trim()))
        .map(|(_, n, _)| *n)
}

/// The hook files of a Cline hooks directory, sorted by name (none when it is missing);
/// too many is one source carrying the error.
pub(super) fn hook_files(scope: Scope, dir: &Path) -> Vec<ForeignSource> {
    let source = |path: PathBuf, problem: Option<String>| ForeignSource {
        scope,
        dialect: Dialect::Cline,
        path,
        problem,
        plugin_root: None,
        plugin_env: None,
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for (n, entry) in entries.enumerate() {
        if n >= MAX_ENTRIES || files.len() > MAX_FILES {
            return vec![source(
                dir.to_path_buf(),
                Some(format!(
                    "more than {MAX_FILES} hook files (or {MAX_ENTRIES} entries) in this directory; hookhost reads none of them: keep Cline's hooks in fewer files"
                )),
            )];
        }
        let Ok(entry) = entry else { continue };
        let path = entry.path();
        if event_name(&path).is_some() && !entry.file_type().is_ok_and(|t| t.is_dir()) {
            files.push(path);
        }
    }
    files.sort();
    files.into_iter().map(|p| source(p, None)).collect()
}

/// The command line Cline runs `file` with: its `#!` interpreter, else by extension.
fn command_for(text: &str, file: &Path) -> String {
    let quoted = shlex::try_quote(&file.to_string_lossy())
        .map(std::borrow::Cow::into_owned)
        .unwrap_or_else(|_| file.display().to_string());
    let shebang = text
        .lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("#!"))
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if let Some(interpreter) = shebang {
        return format!("{interpreter} {quoted}");
    }
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let runner = match ext.as_str() {
        "js" | "mjs" | "cjs" => "node",
        "ts" | "mts" | "cts" => "bun run",
        "py" => "python3",
        "ps1" => "pwsh -File",
        _ => "bash",
    };
    format!("{runner} {quoted}")
}

/// The hook Cline's hook file `file` (whose text is `text`) means.
pub(super) fn read_cline(text: &str, file: &Path) -> ForeignFile {
    let mut f = ForeignFile::default();
    let Some(name) = event_name(file) else {
        f.problems.push((
            None,
            "not one of Cline's hook files (name it after its event: TaskStart, TaskResume, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, TaskComplete, TaskError, TaskCancel or SessionShutdown)".into(),
        ));
        return f;
    };
    if super::script_adapter(text).is_some() {
        f.warnings
            .push((Some(name.to_string()), ADAPTER_SKIPPED.into()));
        return f;
    }
    let Some(event) = events::from_agent_name(Dialect::Cline, name) else {
        return f;
    };
    f.hooks.push(ForeignHook {
        event,
        index: 0,
        label: name.to_string(),
        hook: json!({"dialect": "cline", "command": command_for(text, file)}),
        position: (0, 0),
        switch_id: None,
        off: None,
    });
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_named_after_its_event_is_one_hook_run_as_cline_runs_it() {
        let f = read_cline(
            "#!/usr/bin/env bash\necho '{\"cancel\": false}'\n",
            Path::new("/p/.clinerules/hooks/PreToolUse"),
        );
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        assert_eq!(f.hooks[0].event, crate::event::Event::PreToolUse);
        assert_eq!(
            f.hooks[0].hook,
            json!({"dialect": "cline", "command": "/usr/bin/env bash /p/.clinerules/hooks/PreToolUse"})
        );
        let py = read_cline("print('{}')", Path::new("/h/.cline/hooks/taskstart.py"));
        assert_eq!(py.hooks[0].event, crate::event::Event::SessionStart);
        assert_eq!(
            py.hooks[0].hook["command"],
            "python3 /h/.cline/hooks/taskstart.py"
        );
        let spaced = read_cline("exit 0", Path::new("/my hooks/TaskComplete.sh"));
        assert_eq!(
            spaced.hooks[0].hook["command"],
            "bash '/my hooks/TaskComplete.sh'"
        );
    }

    #[test]
    fn other_files_are_no_hooks_and_the_adapter_is_skipped() {
        assert_eq!(event_name(Path::new("README.md")), None);
        assert_eq!(event_name(Path::new("PreToolUse.rb")), None);
        assert_eq!(event_name(Path::new("pretooluse.SH")), Some("PreToolUse"));
        let wired = read_cline(
            "#!/bin/sh\n# wired by hookhost\nexec hookhost hook --for cline\n",
            Path::new("/h/Documents/Cline/Hooks/PreToolUse"),
        );
        assert!(wired.hooks.is_empty() && wired.warnings.len() == 1);
    }

    #[test]
    fn hook_files_lists_the_event_files_by_name() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["TaskStart.py", "PreToolUse", "notes.txt", "PostToolUse.sh"] {
            std::fs::write(dir.path().join(name), "exit 0").unwrap();
        }
        std::fs::create_dir(dir.path().join("UserPromptSubmit")).unwrap();
        let got: Vec<String> = hook_files(Scope::Project, dir.path())
            .into_iter()
            .map(|s| s.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(got, ["PostToolUse.sh", "PreToolUse", "TaskStart.py"]);
    }
}
