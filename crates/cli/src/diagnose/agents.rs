//! Which agents have hookhost's outbound adapter (`hookhost hook --for AGENT`) wired in, per
//! event, and through what: the agents' own settings files (the same files, project before
//! user, that [`hookhost::dialect::foreign_sources`] reads), and hookhost's plugin or extension
//! where the agent installed it (docs/plugins.md): Claude Code's
//! `~/.claude/plugins/installed_plugins.json` (enabled in a settings file's
//! `enabledPlugins`), Codex's `~/.codex/plugins/cache/MARKET/NAME/VERSION/` (enabled in
//! `~/.codex/config.toml`'s `[plugins."NAME@MARKET"]`), Gemini CLI's `~/.gemini/extensions/NAME/`.
//! Each source's `hooks/hooks.json` or settings `hooks` is read in the agent's shape
//! (`{"hooks": {EVENT: [{"hooks": [{"command": ...}]}]}}`). Only entries that run the adapter
//! ([`hookhost::dialect::is_adapter`]) count; the agent's other hooks are the hooks section's.

use super::{Finding, Section};
use crate::install::table::{self, AgentRow, Shape, replaces_the_agents_own};
use hookhost::config::ConfigPaths;
use hookhost::dialect::events::{AGENT_EVENTS, NO_NATIVE_MEANING};
use hookhost::dialect::{Dialect, is_adapter};
use hookhost::preflight::{find_on_path, is_executable_file};
#[doc(no_inline)]
pub use hookhost_protocol::doctor::{AgentStatus, EventWiring, Wiring, WiringKind};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A settings or hooks file larger than this is not read (reported).
const FILE_LIMIT: u64 = 4 << 20;

/// At most this many entries of a plugin directory are looked at.
const MAX_DIR_ENTRIES: usize = 256;

/// An agent doctor knows how to look at: its row of install's table (executable, events,
/// file shape) and how to wire it in one step.
struct Agent {
    dialect: Dialect,
    fix: &'static str,
}

const AGENTS: &[Agent] = &[
    Agent {
        dialect: Dialect::Claude,
        fix: "hookhost install --for claude (or the plugin: claude plugin marketplace add PATH/plugins && claude plugin install hookhost@hookhost; docs/plugins.md)",
    },
    Agent {
        dialect: Dialect::Codex,
        fix: "hookhost install --for codex (or the plugin: codex plugin marketplace add PATH/plugins && codex plugin add hookhost@hookhost; docs/plugins.md)",
    },
    Agent {
        dialect: Dialect::Gemini,
        fix: "hookhost install --for gemini (or the extension: gemini extensions install PATH/plugins/gemini; docs/plugins.md)",
    },
    Agent {
        dialect: Dialect::Cursor,
        fix: "hookhost install --for cursor",
    },
    Agent {
        dialect: Dialect::Copilot,
        fix: "hookhost install --for copilot",
    },
    Agent {
        dialect: Dialect::Qwen,
        fix: "hookhost install --for qwen",
    },
    Agent {
        dialect: Dialect::Qoder,
        fix: "hookhost install --for qoder",
    },
    Agent {
        dialect: Dialect::Grok,
        fix: "hookhost install --for grok",
    },
    Agent {
        dialect: Dialect::Droid,
        fix: "hookhost install --for droid",
    },
    Agent {
        dialect: Dialect::Auggie,
        fix: "hookhost install --for auggie",
    },
    Agent {
        dialect: Dialect::Goose,
        fix: "hookhost install --for goose",
    },
    Agent {
        dialect: Dialect::Cline,
        fix: "hookhost install --for cline",
    },
    Agent {
        dialect: Dialect::Windsurf,
        fix: "hookhost install --for windsurf",
    },
    Agent {
        dialect: Dialect::Opencode,
        fix: "hookhost install --for opencode (hookhost's plugin in ~/.config/opencode/plugins/; docs/plugins.md)",
    },
];

impl Agent {
    fn row(&self) -> &'static AgentRow {
        table::row(self.dialect).expect("every agent doctor shows has a row in install's table")
    }
}

/// A file whose hooks are read: where, and as what.
struct Source {
    file: PathBuf,
    kind: WiringKind,
    plugin: Option<String>,
}

/// The `agents` section, and the per-event table.
pub fn section(paths: &ConfigPaths) -> (Section, Vec<AgentStatus>) {
    let mut findings = Vec::new();
    let mut statuses = Vec::new();
    for agent in AGENTS {
        let status = look_at(agent, paths, &mut findings);
        statuses.push(status);
    }
    (
        Section::new("agents", "Agents and the adapter", findings),
        statuses,
    )
}

fn look_at(agent: &Agent, paths: &ConfigPaths, out: &mut Vec<Finding>) -> AgentStatus {
    let d = agent.dialect;
    let row = agent.row();
    let binary = find_on_path(row.binary);
    let mut events: Vec<EventWiring> = row
        .events()
        .into_iter()
        .map(|name| EventWiring {
            event: name.to_string(),
            wired_via: Vec::new(),
        })
        .collect();
    let mut problems = Vec::new();
    match row.shape {
        Shape::PluginFile { text } => {
            plugin_file_wiring(row, text, paths, &mut events, &mut problems);
        }
        Shape::ScriptDir => script_dir_wiring(d, paths, &mut events, &mut problems),
        _ => {
            let mut sources = settings_sources(d, paths);
            sources.extend(plugin_sources(d, paths, &mut problems));
            for source in &sources {
                wire(row, source, &mut events, &mut problems);
            }
        }
    }
    out.extend(problems);
    out.extend(summary(agent, binary.as_deref(), &events));
    AgentStatus {
        agent: d.as_str().into(),
        name: d.agent().into(),
        binary,
        events,
    }
}

/// The findings of one agent's wiring as a whole: not wired at all (info), every event
/// wired (ok), some not (warning), some twice (warning).
fn summary(agent: &Agent, binary: Option<&Path>, events: &[EventWiring]) -> Vec<Finding> {
    let name = agent.dialect.agent();
    let exe = agent.row().binary;
    let on_path = match binary {
        Some(b) => format!("`{exe}` at {}", b.display()),
        None => format!("`{exe}` not on PATH"),
    };
    let wired: Vec<&EventWiring> = events.iter().filter(|e| !e.wired_via.is_empty()).collect();
    if wired.is_empty() {
        return vec![
            Finding::info(format!("{name} ({on_path}): hookhost is not wired in")).fix(agent.fix),
        ];
    }
    let mut via: Vec<String> = wired
        .iter()
        .flat_map(|e| &e.wired_via)
        .map(|w| match &w.plugin {
            Some(p) => format!("plugin {p}"),
            None => w.file.display().to_string(),
        })
        .collect();
    via.sort();
    via.dedup();
    let mut out = vec![
        Finding::ok(format!(
            "{name} ({on_path}): adapter wired for {} of {} events",
            wired.len(),
            events.len()
        ))
        .at(via.join(", ")),
    ];
    let missing: Vec<&str> = events
        .iter()
        .filter(|e| e.wired_via.is_empty())
        .map(|e| e.event.as_str())
        .collect();
    if !missing.is_empty() {
        out.push(
            Finding::warning(format!(
                "{name}: these events it fires do not reach hookhost: {}",
                missing.join(", ")
            ))
            .fix(format!("wire every event in one step: {}", agent.fix)),
        );
    }
    let twice: Vec<&str> = events
        .iter()
        .filter(|e| e.wired_via.len() > 1)
        .map(|e| e.event.as_str())
        .collect();
    if !twice.is_empty() {
        out.push(
            Finding::warning(format!(
                "{name}: wired more than once (every hook runs once per wiring): {}",
                twice.join(", ")
            ))
            .fix("keep one: the plugin, or the settings entries"),
        );
    }
    out
}

/// An agent that runs one executable per event (Cline): its hook files, project before user,
/// as [`hookhost::dialect::foreign_sources`] lists them; a file whose one command runs the
/// adapter wires the event it is named after.
fn script_dir_wiring(
    d: Dialect,
    paths: &ConfigPaths,
    events: &mut [EventWiring],
    problems: &mut Vec<Finding>,
) {
    let files = hookhost::dialect::foreign_sources(&ConfigPaths {
        foreign: true,
        ..paths.clone()
    })
    .into_iter()
    .filter(|s| s.dialect == d && s.problem.is_none());
    for source in files {
        let (Some(dir), Some(name)) = (source.path.parent(), source.path.file_name()) else {
            continue;
        };
        let name = name.to_string_lossy();
        let text = match crate::install::script_dir::read(dir, &name) {
            Ok((_, Some(text))) => text,
            Ok((_, None)) => continue,
            Err(e) => {
                problems.push(unreadable(&source.path, &e.to_string()));
                continue;
            }
        };
        let Some(command) = hookhost::dialect::script_adapter(&text) else {
            continue;
        };
        if let Some(problem) = command_problem(d, command) {
            problems.push(broken_wiring(d, problem, &source.path));
        }
        let stem = name.split('.').next().unwrap_or_default();
        if let Some(e) = events
            .iter_mut()
            .find(|e| e.event.eq_ignore_ascii_case(stem))
        {
            e.wired_via.push(Wiring {
                kind: WiringKind::Settings,
                file: source.path.clone(),
                plugin: None,
                command: command.to_string(),
            });
        }
    }
}

/// An agent wired by hookhost's plugin file (opencode): the project's copy
/// (`.opencode/plugins/hookhost.js`) and the user's (`row.user_file`); a copy wires every
/// event of the row, another version of it is a warning, and a file there that is not
/// hookhost's is not counted.
fn plugin_file_wiring(
    row: &AgentRow,
    ours: &str,
    paths: &ConfigPaths,
    events: &mut [EventWiring],
    problems: &mut Vec<Finding>,
) {
    let name = Path::new(row.user_file)
        .file_name()
        .unwrap_or_default()
        .to_os_string();
    let mut files = Vec::new();
    files.push(paths.project_dir.join(".opencode/plugins").join(&name));
    if let Some(home) = &paths.home {
        files.push(home.join(row.user_file));
    }
    files.dedup();
    for file in files {
        let state = match crate::install::plugin_file::state(&file, ours) {
            Ok(s) => s,
            Err(e) => {
                problems.push(unreadable(&file, &e.to_string()));
                continue;
            }
        };
        use crate::install::plugin_file::State;
        match state {
            State::Missing | State::Foreign => continue,
            State::Other => problems.push(
                Finding::warning(format!(
                    "{} holds another version of hookhost's {} plugin than this hookhost ships",
                    file.display(),
                    row.dialect.agent()
                ))
                .at(file.display().to_string())
                .fix(format!(
                    "hookhost install --for {} (for the user's copy), or copy plugins/{}/ again",
                    row.dialect, row.dialect
                )),
            ),
            State::Current => {}
        }
        for e in events.iter_mut() {
            e.wired_via.push(Wiring {
                kind: WiringKind::Plugin,
                file: file.clone(),
                plugin: Some("hookhost".into()),
                command: format!("hookhost hook --for {}", row.dialect),
            });
        }
    }
}

/// The agent's settings files, project before user (a project at the home directory reads
/// each once), as [`hookhost::dialect::foreign_sources`] lists them.
fn settings_sources(d: Dialect, paths: &ConfigPaths) -> Vec<Source> {
    let mut files: Vec<PathBuf> = hookhost::dialect::foreign_sources(&ConfigPaths {
        foreign: true,
        ..paths.clone()
    })
    .into_iter()
    // A plugin's hooks file is a plugin source ([`plugin_sources`]), not a settings file.
    .filter(|s| s.dialect == d && s.plugin_root.is_none())
    .filter(|s| s.path.extension().is_some_and(|e| e == "json"))
    .map(|s| s.path)
    .collect();
    files.dedup();
    files
        .into_iter()
        .map(|file| Source {
            file,
            kind: WiringKind::Settings,
            plugin: None,
        })
        .collect()
}

/// hookhost's plugin (or any plugin) where the agent installed it; what cannot be read is a
/// finding.
fn plugin_sources(d: Dialect, paths: &ConfigPaths, problems: &mut Vec<Finding>) -> Vec<Source> {
    let Some(home) = &paths.home else {
        return Vec::new();
    };
    match d {
        Dialect::Claude => claude_plugins(home, paths, problems),
        Dialect::Codex => codex_plugins(home, problems),
        Dialect::Gemini => subdirs(&home.join(".gemini/extensions"), problems)
            .into_iter()
            .map(|dir| Source {
                plugin: dir.file_name().map(|n| n.to_string_lossy().into_owned()),
                file: dir.join("hooks/hooks.json"),
                kind: WiringKind::Plugin,
            })
            .collect(),
        // goose's plugins (`~/.agents/plugins/NAME/hooks/hooks.json`, hookhost's own among
        // them), as the engine reads them.
        d if d.is_claude_like() => claude_like_plugins(d, paths),
        _ => Vec::new(),
    }
}

/// The plugin hook files of a Claude-like agent, project before user, as
/// [`hookhost::dialect::foreign_sources`] lists them.
fn claude_like_plugins(d: Dialect, paths: &ConfigPaths) -> Vec<Source> {
    hookhost::dialect::foreign_sources(&ConfigPaths {
        foreign: true,
        ..paths.clone()
    })
    .into_iter()
    .filter(|s| s.dialect == d)
    .filter_map(|s| {
        let root = s.plugin_root?;
        Some(Source {
            plugin: root.file_name().map(|n| n.to_string_lossy().into_owned()),
            file: s.path,
            kind: WiringKind::Plugin,
        })
    })
    .collect()
}

/// Claude Code's installed plugins that the user's or the project's settings enable (the
/// engine reads their hooks the same way: `hookhost::dialect::claude_plugins`).
fn claude_plugins(home: &Path, paths: &ConfigPaths, problems: &mut Vec<Finding>) -> Vec<Source> {
    let found = hookhost::dialect::claude_plugins(home, &paths.project_dir);
    for (file, why) in &found.problems {
        problems.push(unreadable(file, why));
    }
    found
        .hooks
        .into_iter()
        .map(|p| Source {
            file: p.file,
            kind: WiringKind::Plugin,
            plugin: Some(p.id),
        })
        .collect()
}

/// Codex's plugin cache, each `MARKET/NAME`'s last version, when `config.toml` enables it.
fn codex_plugins(home: &Path, problems: &mut Vec<Finding>) -> Vec<Source> {
    let config_file = home.join(".codex/config.toml");
    let config: Option<toml::Value> = match hookhost::files::read_bounded(&config_file, FILE_LIMIT)
    {
        Err(e) if e.is_not_found() => None,
        Err(e) => {
            problems.push(unreadable(&config_file, &e.to_string()));
            None
        }
        Ok(bytes) => match toml::from_str(&String::from_utf8_lossy(&bytes)) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(
                    Finding::error(format!("Codex's config.toml is not valid TOML: {e}"))
                        .at(config_file.display().to_string())
                        .fix("fix the TOML (Codex refuses to start with it)"),
                );
                None
            }
        },
    };
    let enabled = |id: &str| {
        config
            .as_ref()
            .and_then(|c| c.get("plugins")?.get(id)?.get("enabled")?.as_bool())
            .unwrap_or(false)
    };
    let mut out = Vec::new();
    for market in subdirs(&home.join(".codex/plugins/cache"), problems) {
        for plugin in subdirs(&market, problems) {
            let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
            let id = format!(
                "{}@{}",
                name(&plugin).unwrap_or_default(),
                name(&market).unwrap_or_default()
            );
            if !enabled(&id) {
                continue;
            }
            if let Some(version) = subdirs(&plugin, problems).pop() {
                out.push(Source {
                    file: version.join("hooks/hooks.json"),
                    kind: WiringKind::Plugin,
                    plugin: Some(id),
                });
            }
        }
    }
    out
}

/// The subdirectories of `dir`, sorted (at most [`MAX_DIR_ENTRIES`]); a missing `dir` has
/// none, an unreadable one is a finding.
fn subdirs(dir: &Path, problems: &mut Vec<Finding>) -> Vec<PathBuf> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            problems.push(unreadable(dir, &e.to_string()));
            return Vec::new();
        }
    };
    let mut out: Vec<PathBuf> = entries
        .take(MAX_DIR_ENTRIES)
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

fn unreadable(path: &Path, why: &str) -> Finding {
    Finding::error(format!("cannot read it: {why}"))
        .at(path.display().to_string())
        .fix("make it readable by you (or remove it)")
}

/// The JSON of `file` (Gemini CLI's may have comments); `None` when missing, and a finding
/// when it cannot be read or parsed.
fn read_json(file: &Path, row: &AgentRow, problems: &mut Vec<Finding>) -> Option<Value> {
    let d = row.dialect;
    let bytes = match hookhost::files::read_bounded(file, FILE_LIMIT) {
        Err(e) if e.is_not_found() => return None,
        Err(e) => {
            problems.push(unreadable(file, &e.to_string()));
            return None;
        }
        Ok(b) => b,
    };
    let text = String::from_utf8_lossy(&bytes);
    let text = if row.comments {
        hookhost::jsonc::strip_comments(&text).into_owned()
    } else {
        text.into_owned()
    };
    match serde_json::from_str(&text) {
        Ok(v) => Some(v),
        Err(e) => {
            problems.push(
                Finding::error(format!(
                    "not valid JSON ({e}): {} cannot read its hooks from it, and neither can hookhost",
                    d.agent()
                ))
                .at(file.display().to_string())
                .fix("fix the JSON (or remove the file)"),
            );
            None
        }
    }
}

/// Adds the adapter entries of `source` to `events`; what is wrong with one is a finding.
fn wire(row: &AgentRow, source: &Source, events: &mut [EventWiring], problems: &mut Vec<Finding>) {
    let d = row.dialect;
    let Some(doc) = read_json(&source.file, row, problems) else {
        if source.kind == WiringKind::Plugin && !source.file.exists() {
            problems.push(
                Finding::warning(format!(
                    "the {} plugin {} is enabled but has no hooks file",
                    d.agent(),
                    source.plugin.as_deref().unwrap_or("?")
                ))
                .at(source.file.display().to_string()),
            );
        }
        return;
    };
    let mut seen = BTreeSet::new();
    for (event, groups) in doc["hooks"].as_object().into_iter().flatten() {
        for command in adapter_commands(row.shape, groups) {
            // Wired, but broken: one finding per file and problem, not one per event.
            if let Some(problem) = command_problem(d, command)
                && seen.insert(problem.clone())
            {
                problems.push(broken_wiring(d, problem, &source.file));
            }
            match events.iter_mut().find(|e| e.event == *event) {
                Some(e) => e.wired_via.push(Wiring {
                    kind: source.kind,
                    file: source.file.clone(),
                    plugin: source.plugin.clone(),
                    command: command.to_string(),
                }),
                // Cursor's per-tool-kind events and the like: not the ones install wires.
                None if !matches!(row.shape, Shape::Groups { .. }) => {}
                None if NO_NATIVE_MEANING
                    .iter()
                    .any(|(nd, name, _)| *nd == d && name == event) => {}
                // Wired where the user has hooks on it (WorktreeCreate): fine, not counted.
                None if AGENT_EVENTS.iter().any(|(nd, name, e)| {
                    *nd == d && name == event && replaces_the_agents_own(*e)
                }) => {}
                None => problems.push(
                    Finding::warning(format!(
                        "`{event}` is not an event {} fires: this entry never runs",
                        d.agent()
                    ))
                    .at(source.file.display().to_string())
                    .fix("check the event's spelling"),
                ),
            }
        }
    }
}

/// An adapter wiring in `file` that would not work for `d` ([`command_problem`]'s `problem`).
fn broken_wiring(d: Dialect, problem: String, file: &Path) -> Finding {
    Finding::error(problem)
        .at(file.display().to_string())
        .fix(format!("the command must be `hookhost hook --for {d}` with hookhost on the agent's PATH (docs/install.md)"))
}

/// The adapter commands of one event's list, in the file's shape.
fn adapter_commands(shape: Shape, list: &Value) -> Vec<&str> {
    let entries: Vec<&Value> = match shape {
        Shape::Groups { .. } => list
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|g| g["hooks"].as_array().into_iter().flatten())
            .collect(),
        Shape::CursorFlat
        | Shape::CopilotFlat
        | Shape::WindsurfFlat
        | Shape::ScriptDir
        | Shape::PluginFile { .. } => list.as_array().into_iter().flatten().collect(),
    };
    entries
        .into_iter()
        .filter_map(|h| h[shape.command_key()].as_str())
        .filter(|c| is_adapter(c))
        .collect()
}

/// Why an adapter command would not work for `d`: another agent's `--for`, none, or a
/// hookhost binary that is not there.
fn command_problem(d: Dialect, command: &str) -> Option<String> {
    // The plugins' form (`hookhost::dialect::adapter_command`): `hookhost-warm` when it is on
    // PATH, else what follows `|| exec`, which must work.
    let command = match command.rsplit_once(" || exec ") {
        Some((_, fallback)) if command.starts_with("command -v hookhost-warm ") => fallback,
        _ => command,
    };
    let words = shlex::split(command)?;
    let mut rest = words
        .iter()
        .skip_while(|w| w.contains('=') || matches!(w.as_str(), "env" | "exec" | "npx"));
    let program = rest.next()?;
    let args: Vec<&String> = rest.collect();
    let target = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--for=") {
            Some(t) => Some(t.to_string()),
            None if a.as_str() == "--for" => args.get(i + 1).map(|t| (*t).clone()),
            None => None,
        });
    match target.as_deref() {
        None => {
            return Some(format!(
                "`{command}` has no `--for {d}`: the adapter does not know which agent's payload it reads"
            ));
        }
        Some(t) if t != d.as_str() => {
            return Some(format!(
                "`{command}` reads {}'s payload as `{t}`'s: it answers in the wrong protocol",
                d.agent()
            ));
        }
        Some(_) => {}
    }
    if program.contains('/') {
        if !is_executable_file(Path::new(program)) {
            return Some(format!(
                "`{program}` is not an executable file: every event fails to start hookhost"
            ));
        }
    } else if program != "npx" && find_on_path(program).is_none() {
        return Some(format!(
            "`{program}` is not on PATH: the agent runs it by name and every event fails to start it"
        ));
    }
    None
}
