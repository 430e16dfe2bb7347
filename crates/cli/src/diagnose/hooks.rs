//! Hooks that cannot run: every problem `check` finds in the hooks files hookhost would load
//! for the project (the native ones, the user's, other agents' imported files), through the
//! same code ([`hookhost::inspect::check_hooks`]: missing program, no execute bit, a missing
//! script behind an interpreter, a module that does not compile, a native timeout under
//! 100 ms), each named by file, event and hook index. Trust is its own section.

use super::{Finding, Section};
use hookhost::config::{ConfigError, ConfigPaths};
use hookhost::dialect::ADAPTER_SKIPPED;

/// The `hooks` section.
pub async fn section(paths: &ConfigPaths) -> Section {
    let findings = match hookhost::inspect::check_hooks(paths).await {
        Err(e) => vec![
            Finding::error(format!(
                "cannot set up the WebAssembly engine to compile the wasm hooks: {e}"
            ))
            .fix("run `hookhost check -v` to see why"),
        ],
        Ok(report) => {
            let mut out: Vec<Finding> = report
                .errors
                .iter()
                .map(|e| located(Finding::error(&e.message), e))
                .collect();
            // The agent's own entry for the adapter is the agents section's business.
            out.extend(
                report
                    .warnings
                    .iter()
                    .filter(|w| w.message != ADAPTER_SKIPPED)
                    .map(|w| located(Finding::warning(&w.message), w)),
            );
            if out.is_empty() {
                out.push(Finding::ok(summary(report.hooks, report.files.len())));
            }
            out
        }
    };
    Section::new("hooks", "Hooks that cannot run", findings)
}

fn summary(hooks: usize, files: usize) -> String {
    match hooks {
        0 => format!("no hooks configured ({files} hooks files looked at)"),
        n => format!(
            "{n} hook{} in {files} file{}: every one can run",
            if n == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" }
        ),
    }
}

/// `FILE` or `FILE, EVENT[INDEX]`, and the fix `check` would print.
fn located(finding: Finding, e: &ConfigError) -> Finding {
    let file = e.file.display().to_string();
    let (place, what) = match &e.hook {
        Some(hook) => (format!("{file}, {hook}"), "hook"),
        None => (file, "file"),
    };
    finding.at(place).fix(format!(
        "fix the {what} as the message says, then `hookhost check`"
    ))
}
