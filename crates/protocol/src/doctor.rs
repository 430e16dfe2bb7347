//! What `hookhost doctor --json` prints (`schema/doctor.schema.json`): a [`DoctorReport`] of
//! [`Section`]s of [`Finding`]s, and per agent, per event, where hookhost's outbound adapter is
//! wired ([`AgentStatus`]).
//!
//! Only the shape and its small builders: looking at the machine is the `doctor` module of the
//! engine (or the CLI).

use schemars::JsonSchema;
use serde::Serialize;
use std::path::PathBuf;

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
        self.recount();
    }

    /// Counts the errors and warnings of its sections again.
    pub fn recount(&mut self) {
        let all = || self.sections.iter().flat_map(|s| &s.findings);
        self.errors = all().filter(|f| f.severity == Severity::Error).count();
        self.warnings = all().filter(|f| f.severity == Severity::Warning).count();
    }

    /// 1 when anything is an error, else 0 (warnings alone do not fail).
    pub fn exit_code(&self) -> u8 {
        u8::from(self.errors > 0)
    }
}

/// How an event is wired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum WiringKind {
    /// An entry in one of the agent's settings files.
    Settings,
    /// hookhost's plugin or extension, installed the agent's way.
    Plugin,
}

/// One place an event runs the adapter from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Wiring {
    /// A settings file or a plugin.
    pub kind: WiringKind,
    /// The file the entry is in.
    pub file: PathBuf,
    /// The plugin's id (`hookhost@hookhost`), for a plugin.
    pub plugin: Option<String>,
    /// The command as written.
    pub command: String,
}

/// One event an agent fires, and where it is wired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventWiring {
    /// The agent's name for it.
    pub event: String,
    /// Every place it runs the adapter from; empty: not wired.
    pub wired_via: Vec<Wiring>,
}

/// One agent: where its binary is and how each of its events is wired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AgentStatus {
    /// `claude`, `codex` or `gemini` (the `--for` of the adapter).
    pub agent: String,
    /// `Claude Code`, ...
    pub name: String,
    /// Its binary on `PATH`, if there.
    pub binary: Option<PathBuf>,
    /// Every event it fires that hookhost has a meaning for, in its order.
    pub events: Vec<EventWiring>,
}
