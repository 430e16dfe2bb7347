//! `hookhost doctor` as data: what is set up and what is broken, one [`Section`] of
//! [`Finding`]s per question, for the CLI to render (`doctor.rs`); the report's types are
//! `hookhost-protocol`'s (`schema/doctor.schema.json`).
//!
//! - which agents have the outbound adapter wired in, per event, through which settings file
//!   or plugin ([`agents`]);
//! - which hooks cannot run: the same problems `check` reports ([`hooks`], through
//!   [`hookhost::inspect`] and [`hookhost::preflight`]);
//! - which project hooks are untrusted and what the trust policy reduces them to
//!   ([`trust`], through [`hookhost::trust`]);
//! - whether the compiled-code cache and the decision log's directories are private to the
//!   user ([`dirs`], through [`hookhost::locations`]).
//!
//! The CLI adds the toolchains of `hookhost new`/`build`, which only it knows. Nothing here
//! runs a hook or writes a file (but the compile cache, which `check` warms the same way);
//! a hostile file (not JSON, a symlink loop, unreadable) is a finding, never a panic.

pub mod agents;
pub mod dirs;
pub mod hooks;
pub mod trust;

use hookhost::TrustPolicy;
use hookhost::config::ConfigPaths;

pub use hookhost_protocol::doctor::{DOCTOR_VERSION, DoctorReport, Finding, Section, Severity};

/// Everything the library can tell about the project and user at `paths`, with untrusted
/// hooks judged under `policy`: agents, hooks, trust, directories.
pub async fn diagnose(paths: &ConfigPaths, policy: TrustPolicy) -> DoctorReport {
    let (agents_section, agents) = agents::section(paths);
    let mut report = DoctorReport {
        version: DOCTOR_VERSION,
        project: paths.project_dir.clone(),
        home: paths.home.clone(),
        errors: 0,
        warnings: 0,
        sections: vec![
            agents_section,
            hooks::section(paths).await,
            trust::section(paths, policy),
            dirs::section(&paths.project_dir, paths.home.as_deref()),
        ],
        agents,
    };
    report.recount();
    report
}
