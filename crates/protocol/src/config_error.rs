//! [`ConfigError`] and [`ConfigErrors`]: one problem in a config file, and every problem
//! found, each naming the file, the hook as `Event[index]` and what to change. Finding them
//! is the engine's `config` module; this is how they are shown and serialised.

use schemars::JsonSchema;
use serde::Serialize;
use std::fmt;
use std::path::PathBuf;

/// One problem in a config file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ConfigError {
    /// The config file the problem is in.
    #[schemars(description = "The file.")]
    pub file: PathBuf,
    /// `PreToolUse[2]`, or `None` for file-level problems.
    #[schemars(description = "`PreToolUse[2]`, or `null` for a problem of the whole file.")]
    pub hook: Option<String>,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.hook {
            Some(hook) => write!(f, "{}: {}: {}", self.file.display(), hook, self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// Every problem found in the config files, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(
            f,
            "{n} problem{} in hook configuration:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}
