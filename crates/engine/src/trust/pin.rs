//! Pinning one file a command names: the word resolved against the directory the command
//! runs in (`$HOOK_PROJECT_DIR` and its kin expanded to the project root), kept when it is a
//! file that belongs to the project.

use std::path::{Path, PathBuf};

/// The variables a shell hook gets set to the project root (`HOOK_PROJECT_DIR`, and the ones
/// Claude Code's and Gemini CLI's hooks read): a path built on one is the project's file.
const PROJECT_DIR_VARS: [&str; 3] = [
    "HOOK_PROJECT_DIR",
    "CLAUDE_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
];

/// `word` with a leading `$VAR` / `${VAR}` of [`PROJECT_DIR_VARS`] replaced by the project
/// root (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`, the form Claude Code documents).
fn expand_project_dir(word: &str, project: &Path) -> Option<String> {
    PROJECT_DIR_VARS.iter().find_map(|v| {
        let rest = word.strip_prefix(&format!("${{{v}}}")).or_else(|| {
            // `$CLAUDE_PROJECT_DIRS` is another variable.
            word.strip_prefix(&format!("${v}"))
                .filter(|r| r.is_empty() || r.starts_with('/'))
        })?;
        Some(format!("{}{rest}", project.display()))
    })
}

/// Pins `word` (relative to `base`) if it names a file.
pub(super) fn pin(word: &str, base: &Path, project: &Path, found: &mut Vec<PathBuf>) {
    let expanded = expand_project_dir(word, project);
    let word = expanded.as_deref().unwrap_or(word);
    if word.is_empty() || word.contains(['$', '`', '*', '?']) {
        return;
    }
    // A relative path is the project's own file even when a symlink in it leads out.
    if let Ok(real) = base.join(word).canonicalize()
        && real.is_file()
        && (real.starts_with(project) || Path::new(word).is_relative())
        && !found.contains(&real)
    {
        found.push(real);
    }
}

/// The directories from `base` up to the project root (just `base` when it lies outside).
pub(super) fn dirs_up_to_project(base: &Path, project: &Path) -> Vec<PathBuf> {
    let Ok(real) = base.canonicalize() else {
        return Vec::new();
    };
    if !real.starts_with(project) {
        return vec![real];
    }
    real.ancestors()
        .take_while(|d| d.starts_with(project))
        .map(Path::to_path_buf)
        .collect()
}
