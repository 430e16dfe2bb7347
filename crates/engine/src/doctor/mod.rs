//! `hookhost doctor` as data: what is set up and what is broken, one [`Section`] of
//! [`Finding`]s per question, for the CLI to render and an embedder to ask.
//!
//! - which agents have the outbound adapter wired in, per event, through which settings file
//!   or plugin ([`agents`]);
//! - which hooks cannot run: the same problems `check` reports ([`hooks`], through
//!   [`crate::inspect`] and [`crate::preflight`]);
//! - which project hooks are untrusted and what the trust policy reduces them to
//!   ([`trust`], through [`crate::trust`]);
//! - whether the compiled-code cache and the decision log's directories are private to the
//!   user ([`dirs`], through [`crate::locations`]).
//!
//! The CLI adds the toolchains of `hookhost new`/`build`, which only it knows. Nothing here
//! runs a hook or writes a file (but the compile cache, which `check` warms the same way);
//! a hostile file (not JSON, a symlink loop, unreadable) is a finding, never a panic.

pub mod agents;
pub mod dirs;
pub mod hooks;
pub mod trust;

use crate::TrustPolicy;
use crate::config::ConfigPaths;
use schemars::JsonSchema;
use serde::Serialize;
use std::path::PathBuf;

pub use agents::{AgentStatus, EventWiring, Wiring, WiringKind};

/// The `version` of [`DoctorReport`]'s JSON shape (`schema/doctor.schema.json`).
pub const DOCTOR_VERSION: u32 = 1;

/// How bad a finding is: any `error` makes `doctor` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Broken: something will fail (every call blocked, a hook never run, a cache others can
    /// write).
    Error,
    /// Works, but probably not as meant (an event not wired, an untrusted hook skipped).
    Warning,
    /// Checked and fine.
    Ok,
    /// For the record (an agent not installed, the log switched off).
    Info,
}

impl Severity {
    /// `error`, `warning`, `ok` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Ok => "ok",
            Severity::Info => "info",
        }
    }
}

/// One thing found: how bad, what, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Finding {
    /// How bad.
    pub severity: Severity,
    /// What was found, in a sentence.
    pub what: String,
    /// Where: a file (with the event and hook index when it is about a hook), a directory.
    #[serde(rename = "where")]
    pub place: Option<String>,
    /// What to do about it: a command where one exists.
    pub fix: Option<String>,
}

impl Finding {
    /// A finding of `severity` saying `what`.
    pub fn new(severity: Severity, what: impl Into<String>) -> Self {
        Finding {
            severity,
            what: what.into(),
            place: None,
            fix: None,
        }
    }

    /// An error.
    pub fn error(what: impl Into<String>) -> Self {
        Self::new(Severity::Error, what)
    }

    /// A warning.
    pub fn warning(what: impl Into<String>) -> Self {
        Self::new(Severity::Warning, what)
    }

    /// Fine.
    pub fn ok(what: impl Into<String>) -> Self {
        Self::new(Severity::Ok, what)
    }

    /// For the record.
    pub fn info(what: impl Into<String>) -> Self {
        Self::new(Severity::Info, what)
    }

    /// Where it is.
    #[must_use]
    pub fn at(mut self, place: impl Into<String>) -> Self {
        self.place = Some(place.into());
        self
    }

    /// How to fix it.
    #[must_use]
    pub fn fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }
}

/// One question `doctor` answers, and what it found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Section {
    /// A stable id: `agents`, `hooks`, `trust`, `directories`, `toolchains`.
    pub id: String,
    /// Its heading.
    pub title: String,
    /// What was found, in order.
    pub findings: Vec<Finding>,
}

impl Section {
    /// A section with these findings.
    pub fn new(id: &str, title: &str, findings: Vec<Finding>) -> Self {
        Section {
            id: id.into(),
            title: title.into(),
            findings,
        }
    }
}

/// What `hookhost doctor --json` prints (`schema/doctor.schema.json`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DoctorReport {
    /// The shape's version ([`DOCTOR_VERSION`]).
    pub version: u32,
    /// The project looked at.
    pub project: PathBuf,
    /// The home directory the user's files were read from.
    pub home: Option<PathBuf>,
    /// How many findings are errors (exit 1 when not 0).
    pub errors: usize,
    /// How many are warnings.
    pub warnings: usize,
    /// The sections, in order.
    pub sections: Vec<Section>,
    /// Per agent, per event: where the adapter is wired.
    pub agents: Vec<AgentStatus>,
}

impl DoctorReport {
    /// Adds a section (the CLI adds its toolchains) and recounts.
    pub fn push(&mut self, section: Section) {
        self.sections.push(section);
        self.count();
    }

    fn count(&mut self) {
        let all = || self.sections.iter().flat_map(|s| &s.findings);
        self.errors = all().filter(|f| f.severity == Severity::Error).count();
        self.warnings = all().filter(|f| f.severity == Severity::Warning).count();
    }

    /// 1 when anything is an error, else 0 (warnings alone do not fail).
    pub fn exit_code(&self) -> u8 {
        u8::from(self.errors > 0)
    }
}

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
    report.count();
    report
}
