//! One file's text through both phases: phase 1 (`raw.rs`) and phase 2 (`resolve.rs`) for
//! a native hooks file ([`parse_file`]), or another agent's settings translated into native
//! hook objects first (`agents::read_settings`).

use super::agents;
use super::paths::{ConfigPaths, MANAGED_CONFIG};
use super::raw::{self, Entry, MANAGED_ONLY_KEY, MODEL_EXAMPLE, MODEL_KEY, REQUIRE_SANDBOX_KEY};
use super::resolve::Resolver;
use super::types::{Hook, ModelConfig, Scope};
use crate::Dialect;
use hookhost_protocol::ConfigError;
use std::path::Path;

/// Another agent's file, parsed.
pub(super) struct ForeignParsed {
    pub(super) hooks: Vec<Hook>,
    /// Its hooks that a switch of its own file turns off, with what does.
    pub(super) disabled: Vec<(Hook, String)>,
    pub(super) errors: Vec<ConfigError>,
    /// Keys accepted but not implemented, or skipped.
    pub(super) warnings: Vec<ConfigError>,
    /// The agent's switches the file holds.
    pub(super) switches: Vec<agents::AgentSwitch>,
    /// Claude Code's limits on HTTP hooks the file sets.
    pub(super) http_limits: agents::HttpLimits,
}

/// Parses another agent's file: its hooks become native hook objects
/// ([`agents::read_settings_at`]), validated by the native reader.
pub(super) fn parse_foreign(
    text: &str,
    file: &Path,
    d: Dialect,
    (scope, source): (Scope, u8),
    paths: &ConfigPaths,
    (plugin_root, plugin_env): (Option<&Path>, Option<&agents::PluginEnv>),
) -> ForeignParsed {
    let resolver = Resolver {
        file,
        scope,
        paths,
        source,
        own_servers: Default::default(),
    };
    let at = |hook: Option<String>, message: String| ConfigError {
        file: file.to_path_buf(),
        hook,
        message,
    };
    let foreign = agents::read_settings_at(d, text, file, scope);
    let mut parsed = ForeignParsed {
        hooks: Vec::new(),
        disabled: Vec::new(),
        errors: foreign
            .problems
            .into_iter()
            .map(|(h, m)| at(h, m))
            .collect(),
        warnings: foreign
            .warnings
            .into_iter()
            .map(|(h, m)| at(h, m))
            .collect(),
        switches: foreign.switches,
        http_limits: foreign.http_limits,
    };
    for mut fh in foreign.hooks {
        if let Some(root) = plugin_root {
            match agents::claude_like::profile(d) {
                Some(p) => agents::expand_root_variable(&mut fh.hook, root, p.plugin_root_var),
                None => agents::expand_plugin_root(&mut fh.hook, root),
            }
        }
        if let Some(env) = plugin_env {
            agents::expand_root_variable(&mut fh.hook, &env.data, "CLAUDE_PLUGIN_DATA");
        }
        let resolved = match raw::read_hook(fh.event, fh.index, &fh.hook) {
            Entry::Hook(raw) => resolver.resolve(*raw),
            Entry::Problem { message, .. } | Entry::Unreadable(message) => Err(vec![message]),
            // `read_hook` reads one hook object; a file-level setting never comes back.
            Entry::ManagedOnly(_)
            | Entry::RequireSandbox(_)
            | Entry::DisableAll(_)
            | Entry::McpServers(_)
            | Entry::Model(_)
            | Entry::WarmEngine => Err(vec!["not a hook object".into()]),
        };
        match resolved {
            Ok(mut hook) => {
                hook.plugin_env = plugin_env.cloned();
                // Codex names every hook by its place ([hooks.state]); Gemini CLI by name.
                hook.switch_id = match d {
                    Dialect::Codex => Some(agents::codex_state_key(
                        file,
                        fh.event,
                        fh.position.0,
                        fh.position.1,
                    )),
                    _ => fh.switch_id,
                };
                match fh.off {
                    Some(why) => parsed.disabled.push((hook, why)),
                    None => parsed.hooks.push(hook),
                }
            }
            Err(problems) => parsed
                .errors
                .extend(problems.into_iter().map(|m| at(Some(fh.label.clone()), m))),
        }
    }
    parsed
}

/// Parses one file's text. Returns the hooks that were valid and every problem found, in
/// document order.
pub fn parse_file(
    text: &str,
    file: &Path,
    scope: Scope,
    paths: &ConfigPaths,
) -> (Vec<Hook>, Vec<ConfigError>) {
    let parsed = parse_source(text, file, scope, paths);
    (parsed.hooks, parsed.errors)
}

/// One file's text, parsed.
pub(super) struct Parsed {
    pub(super) hooks: Vec<Hook>,
    /// Its hooks that say `"enabled": false`.
    pub(super) disabled: Vec<Hook>,
    pub(super) errors: Vec<ConfigError>,
    /// `"allowManagedHooksOnly": true` in a managed file.
    pub(super) managed_only: bool,
    /// `"requireSandbox": true` in a managed file.
    pub(super) require_sandbox: bool,
    /// `"disableAllHooks": true`.
    pub(super) disable_all: bool,
    /// Not a JSON object at all (nothing in it could be read).
    pub(super) unreadable: bool,
    /// Its `"model"` block (the user's or the managed file only).
    pub(super) model: Option<ModelConfig>,
}

/// A top-level key a project's file may not set: says whose files may, and why not here.
fn own_file_only(key: &str, paths: &ConfigPaths, why: &str) -> String {
    let own = paths.global_file.as_ref().map_or_else(
        || "~/.coding-agent/hooks.json".into(),
        |f| f.display().to_string(),
    );
    format!(
        "\"{key}\" may only be set in your own file ({own}) or the machine-wide managed file: {why}"
    )
}

/// The error for a switch only the managed file may set, found in another file.
fn managed_file_only(entry: &Entry) -> String {
    if matches!(entry, Entry::RequireSandbox(_)) {
        format!(
            "\"{REQUIRE_SANDBOX_KEY}\" is the administrator's to set, in the machine-wide managed file ({MANAGED_CONFIG}); remove it from this file (a hook of yours runs sandboxed when it declares `fs`, `env`, `net` or `\"sandbox\": true`)"
        )
    } else {
        format!(
            "\"{MANAGED_ONLY_KEY}\" only has a meaning in the machine-wide managed file ({MANAGED_CONFIG}); remove it from this file"
        )
    }
}

pub(super) fn parse_source(text: &str, file: &Path, scope: Scope, paths: &ConfigPaths) -> Parsed {
    let mut resolver = Resolver {
        file,
        scope,
        paths,
        source: 0,
        own_servers: Default::default(),
    };
    let error = |hook: Option<String>, message: String| ConfigError {
        file: file.to_path_buf(),
        hook,
        message,
    };
    let mut parsed = Parsed {
        hooks: Vec::new(),
        disabled: Vec::new(),
        errors: Vec::new(),
        managed_only: false,
        require_sandbox: false,
        disable_all: false,
        unreadable: false,
        model: None,
    };
    for entry in raw::read_file(text) {
        match entry {
            Entry::Unreadable(message) => {
                parsed.unreadable = true;
                parsed.errors.push(error(None, message));
            }
            Entry::Problem { hook, message } => parsed.errors.push(error(hook, message)),
            Entry::ManagedOnly(on) if scope == Scope::Managed => parsed.managed_only = on,
            Entry::RequireSandbox(on) if scope == Scope::Managed => parsed.require_sandbox = on,
            Entry::ManagedOnly(_) | Entry::RequireSandbox(_) => {
                parsed.errors.push(error(None, managed_file_only(&entry)));
            }
            Entry::DisableAll(on) => parsed.disable_all = on,
            // Read on its own (`warm_switch`): whoever starts an engine asks it.
            Entry::WarmEngine if scope != Scope::Project => {}
            Entry::WarmEngine => parsed.errors.push(error(
                None,
                own_file_only(
                    super::WARM_KEY,
                    paths,
                    "a project must not choose how your hooks run; remove it here",
                ),
            )),
            Entry::McpServers(servers) => resolver.own_servers = servers,
            Entry::Model(m) if scope != Scope::Project => {
                parsed.model = Some(ModelConfig {
                    api: m.api,
                    url: m.url,
                    name: m.name,
                    key_env: m.key_env,
                    file: file.to_path_buf(),
                });
            }
            Entry::Model(_) => parsed.errors.push(error(
                None,
                own_file_only(
                    MODEL_KEY,
                    paths,
                    &format!("a project must not choose where its hooks' questions go or whose API key pays; remove it here and put it in your own file, e.g. {MODEL_EXAMPLE}"),
                ),
            )),
            Entry::Hook(raw) => {
                let label = raw.label();
                let enabled = raw.enabled != Some(false);
                match resolver.resolve(*raw) {
                    Ok(hook) if enabled => parsed.hooks.push(hook),
                    Ok(hook) => parsed.disabled.push(hook),
                    Err(problems) => parsed.errors.extend(
                        problems
                            .into_iter()
                            .map(|message| error(Some(label.clone()), message)),
                    ),
                }
            }
        }
    }
    parsed
}
