//! Claude Code's skill and subagent frontmatter hooks: found and named, never run.
//!
//! A skill (`.claude/skills/NAME/SKILL.md`) or a subagent (`.claude/agents/NAME.md`), the
//! project's or the user's, may declare `hooks:` in its YAML frontmatter. Claude Code runs
//! those only while that skill or subagent is active, and runs them itself. hookhost cannot
//! see from a payload which skill is active, and its own agent core has no skills, so it does
//! not run them; rather than drop them silently, every file that declares some is named in a
//! warning (`hookhost check`, `list`), saying so.
//!
//! Only the frontmatter's top-level `hooks:` key is looked for (a line `hooks:` between the
//! opening and closing `---`): no YAML is parsed, since nothing of it runs.

use crate::config::{ConfigError, ConfigPaths};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Frontmatter is looked for in the first this many bytes of a file.
const HEAD_LIMIT: u64 = 64 << 10;
/// At most this many entries of one skills or agents directory are looked at (a project must
/// not make every load read thousands of files).
const MAX_ENTRIES: usize = 512;

/// One warning per skill or subagent file of `paths` (the project's, then the user's) whose
/// frontmatter declares hooks; none when other agents' files are not read.
pub fn frontmatter_notes(paths: &ConfigPaths) -> Vec<ConfigError> {
    if !paths.foreign {
        return Vec::new();
    }
    let mut roots = vec![paths.project_dir.join(".claude")];
    if let Some(home) = &paths.home
        && home != &paths.project_dir
    {
        roots.push(home.join(".claude"));
    }
    roots
        .iter()
        .flat_map(|root| declaring_files(root))
        .map(|(file, what)| ConfigError {
            file,
            hook: None,
            message: format!(
                "this {what}'s frontmatter declares hooks; Claude Code runs them itself, only while the {what} is active, and hookhost does not run them (it cannot tell from an event which {what} is active); to have hookhost run one for every event, move it to .claude/settings.json or .coding-agent/hooks.json"
            ),
        })
        .collect()
}

/// The skill and subagent files under `claude_dir` whose frontmatter has `hooks:`, each with
/// what it is (`skill`, `subagent`), sorted by path.
fn declaring_files(claude_dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let skills = entries(&claude_dir.join("skills"))
        .into_iter()
        .map(|dir| (dir.join("SKILL.md"), "skill"));
    let agents = entries(&claude_dir.join("agents"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| (p, "subagent"));
    let mut out: Vec<_> = skills
        .chain(agents)
        .filter(|(p, _)| declares_hooks(p))
        .collect();
    out.sort();
    out
}

/// The entries of `dir`, at most [`MAX_ENTRIES`]; none when it cannot be read.
fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .take(MAX_ENTRIES)
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `file` (a regular file, not followed through a symlink into a FIFO or device)
/// opens with frontmatter that has a top-level `hooks:` key.
fn declares_hooks(file: &Path) -> bool {
    let regular = std::fs::metadata(file).is_ok_and(|m| m.is_file());
    let mut head = String::new();
    if !regular
        || std::fs::File::open(file)
            .and_then(|f| f.take(HEAD_LIMIT).read_to_string(&mut head))
            .is_err()
    {
        return false;
    }
    frontmatter_has_hooks(&head)
}

/// Whether `text` starts with a `---` frontmatter block holding a top-level `hooks:` line.
fn frontmatter_has_hooks(text: &str) -> bool {
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return false;
    }
    lines.take_while(|l| l.trim_end() != "---").any(|l| {
        l.strip_prefix("hooks")
            .is_some_and(|r| r.trim_start().starts_with(':'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_top_level_hooks_key_inside_the_frontmatter_counts() {
        assert!(frontmatter_has_hooks(
            "---\nname: x\nhooks:\n  PreToolUse: []\n---\nbody"
        ));
        assert!(frontmatter_has_hooks("---\r\nhooks :\r\n---\r\n"));
        // Indented (a nested key), after the block, no block, or a key that only starts so.
        assert!(!frontmatter_has_hooks("---\nx:\n  hooks: []\n---\n"));
        assert!(!frontmatter_has_hooks("---\nname: x\n---\nhooks:\n"));
        assert!(!frontmatter_has_hooks("hooks:\n"));
        assert!(!frontmatter_has_hooks("---\nhooksy: 1\n---\n"));
    }

    #[test]
    fn skills_and_subagents_of_the_project_and_the_user_are_named() {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let skill = project.path().join(".claude/skills/fmt/SKILL.md");
        std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
        std::fs::write(&skill, "---\nname: fmt\nhooks:\n  PostToolUse: []\n---\n").unwrap();
        let quiet = project.path().join(".claude/skills/quiet/SKILL.md");
        std::fs::create_dir_all(quiet.parent().unwrap()).unwrap();
        std::fs::write(&quiet, "---\nname: quiet\n---\nhooks:\n").unwrap();
        let agent = home.path().join(".claude/agents/reviewer.md");
        std::fs::create_dir_all(agent.parent().unwrap()).unwrap();
        std::fs::write(&agent, "---\nhooks:\n  Stop: []\n---\n").unwrap();
        let paths = ConfigPaths::with_home(project.path(), Some(home.path().to_path_buf()));
        let notes = frontmatter_notes(&paths);
        let files: Vec<_> = notes.iter().map(|n| n.file.clone()).collect();
        assert_eq!(files, vec![skill, agent]);
        assert!(
            notes[0]
                .message
                .contains("skill's frontmatter declares hooks")
        );
        assert!(notes[1].message.contains("while the subagent is active"));
        assert!(frontmatter_notes(&paths.native_only()).is_empty());
    }
}
