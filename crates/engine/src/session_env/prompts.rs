//! The prompts a hook replaced in a session, kept for Gemini CLI's BeforeModel: Gemini CLI's
//! BeforeAgent cannot replace a prompt, so `hookhost hook --for gemini` records the pair
//! (original, replacement) at BeforeAgent and rewrites the model request at BeforeModel, a
//! separate process (`translate::gemini_model`).
//!
//! Where: `<root>/<session>/prompt-replacements.json` beside the session's `once` marks and
//! env files (under the settled cache root: hookhost's own state, protected from the agent,
//! never in the project), a JSON array of `{"originalSha256", "replacement"}` (the original
//! only as its SHA-256: a replacement is often a redaction, and the secret it took out is not
//! written to disk; the replacement is what the model is sent anyway), 0600, written
//! through a fresh temporary file renamed into place (a symlink planted there is replaced,
//! never followed) and read with a size limit, never through a symlink. A file that is there
//! but cannot be read is an error, never "no replacement": the caller then fails closed.

use super::{SessionEnv, dir_name};
use crate::files::{read_bounded_nofollow, sha256_hex, write_private};
use serde::{Deserialize, Serialize};

/// Largest file of replacements kept for one session: 16 MiB. A replacement that would
/// make it larger is not recorded (the prompt is then blocked, saying so).
pub const REPLACEMENTS_LIMIT: u64 = 16 << 20;

const FILE: &str = "prompt-replacements.json";

/// A prompt a hook replaced: the SHA-256 of what the user sent and what the model is to see
/// instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PromptReplacement {
    /// The SHA-256 of the prompt as the user sent it (lowercase hex).
    pub original_sha256: String,
    /// What the model is sent instead.
    pub replacement: String,
}

impl PromptReplacement {
    /// The replacement of `original` by `replacement`.
    pub fn new(original: &str, replacement: &str) -> Self {
        PromptReplacement {
            original_sha256: sha256_hex(original.as_bytes()),
            replacement: replacement.to_string(),
        }
    }

    /// Whether `text` is the prompt this replaces.
    pub fn replaces(&self, text: &str) -> bool {
        sha256_hex(text.as_bytes()) == self.original_sha256
    }
}

impl SessionEnv {
    /// Records that a hook replaced `original` with `replacement` in `session` (a later
    /// replacement of the same original wins). `Err` says why it was not recorded.
    pub fn record_replacement(
        &self,
        session: &str,
        original: &str,
        replacement: &str,
    ) -> Result<(), String> {
        let root = self
            .root()
            .ok_or("no cache directory and no temporary directory to keep a replaced prompt in")?;
        let dir = root.join(dir_name(session));
        super::session_dir(&root, &dir).map_err(|e| e.to_string())?;
        let mut pairs = self.replacements(session)?;
        let pair = PromptReplacement::new(original, replacement);
        pairs.retain(|p| p.original_sha256 != pair.original_sha256);
        pairs.push(pair);
        // Plain data: serialising it cannot fail.
        let bytes = serde_json::to_vec(&pairs).unwrap_or_default();
        if bytes.len() as u64 > REPLACEMENTS_LIMIT {
            return Err(format!(
                "the session's replaced prompts would exceed {} MiB",
                REPLACEMENTS_LIMIT >> 20
            ));
        }
        let path = dir.join(FILE);
        write_private(&path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The prompts replaced in `session`, oldest first: none when nothing was recorded;
    /// `Err` when a record is there but cannot be read (too large, a symlink, not the
    /// expected JSON).
    pub fn replacements(&self, session: &str) -> Result<Vec<PromptReplacement>, String> {
        let Some(root) = self.root() else {
            return Ok(Vec::new());
        };
        let path = root.join(dir_name(session)).join(FILE);
        match read_bounded_nofollow(&path, REPLACEMENTS_LIMIT) {
            Err(e) if e.is_not_found() => Ok(Vec::new()),
            Err(e) => Err(e.to_string()),
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| format!("{} is not a list of replaced prompts: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_kept_per_session_and_a_later_one_wins() {
        let root = tempfile::tempdir().unwrap();
        let env = SessionEnv::under(root.path().join("session-env"));
        assert_eq!(env.replacements("s1").unwrap(), []);
        env.record_replacement("s1", "my password is hunter2", "my password is [x]")
            .unwrap();
        env.record_replacement("s1", "b", "B").unwrap();
        env.record_replacement("s1", "my password is hunter2", "[redacted]")
            .unwrap();
        let pair = PromptReplacement::new;
        assert_eq!(
            env.replacements("s1").unwrap(),
            [pair("b", "B"), pair("my password is hunter2", "[redacted]")]
        );
        assert!(env.replacements("s1").unwrap()[1].replaces("my password is hunter2"));
        // The original is not written to disk.
        let file = root.path().join("session-env/s1").join(FILE);
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            !text.contains("hunter2") && text.contains("[redacted]"),
            "{text}"
        );
        assert_eq!(env.replacements("s2").unwrap(), []);
    }

    #[test]
    fn an_unreadable_record_is_an_error_not_an_empty_one() {
        let root = tempfile::tempdir().unwrap();
        let env = SessionEnv::under(root.path().join("session-env"));
        env.record_replacement("s", "a", "b").unwrap();
        let file = root.path().join("session-env/s").join(FILE);
        std::fs::write(&file, b"{not json").unwrap();
        assert!(env.replacements("s").is_err());
        // Recording on top of it does not silently drop what was there.
        assert!(env.record_replacement("s", "c", "d").is_err());
        #[cfg(unix)]
        {
            let elsewhere = root.path().join("elsewhere.json");
            std::fs::write(
                &elsewhere,
                br#"[{"originalSha256":"00","replacement":"b"}]"#,
            )
            .unwrap();
            std::fs::remove_file(&file).unwrap();
            std::os::unix::fs::symlink(&elsewhere, &file).unwrap();
            assert!(env.replacements("s").is_err(), "a symlink is not followed");
        }
    }
}
