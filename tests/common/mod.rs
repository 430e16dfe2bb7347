//! Shared set-up for integration tests: a temporary project with its own temporary HOME and
//! compiled-code cache, so tests never touch the real user's files.
#![allow(dead_code)]

pub mod guests;
pub mod needs;

use hookhost::config::ConfigPaths;
use hookhost::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::{EventReport, Payload, Runner, RunnerBuilder};
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

pub struct Project {
    pub dir: TempDir,
    pub home: TempDir,
    pub cache: TempDir,
}

impl Project {
    /// A project whose `.coding-agent/hooks.json` is `config`.
    pub fn new(config: Value) -> Self {
        let p = Project {
            dir: TempDir::new().unwrap(),
            home: TempDir::new().unwrap(),
            cache: TempDir::new().unwrap(),
        };
        p.write(".coding-agent/hooks.json", &config.to_string());
        p
    }

    /// Canonical project root (macOS /tmp symlinks and the like).
    pub fn path(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    pub fn write(&self, rel: &str, contents: &str) -> PathBuf {
        let path = self.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    pub fn write_global(&self, config: Value) {
        let path = self.home.path().join(".coding-agent/hooks.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, config.to_string()).unwrap();
    }

    /// Where this project's stand-in for the machine-wide managed file lives (the CLI is
    /// pointed at it; `paths()` reads no managed file).
    pub fn managed_file(&self) -> PathBuf {
        self.home.path().join("etc-coding-agent/hooks.json")
    }

    pub fn write_managed(&self, config: Value) {
        let path = self.managed_file();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, config.to_string()).unwrap();
    }

    pub fn paths(&self) -> ConfigPaths {
        ConfigPaths::with_home(&self.path(), Some(self.home.path().to_path_buf()))
    }

    pub fn wasm_config(&self) -> WasmEngineConfig {
        WasmEngineConfig {
            cache_root: Some(self.cache.path().to_path_buf()),
            ..WasmEngineConfig::default()
        }
    }

    pub fn runner(&self) -> Runner {
        self.builder().build().unwrap_or_else(|e| panic!("{e}"))
    }

    /// A runner builder for this project: its config files (with its own HOME) and the
    /// real spawners with its own compile cache.
    pub fn builder(&self) -> RunnerBuilder {
        let spawner = HookSpawner::with_wasm_config(self.wasm_config());
        Runner::builder(self.path())
            .config_paths(self.paths())
            .spawner(std::sync::Arc::new(spawner))
    }

    /// Runs the real `hookhost` binary on this project with its own HOME and cache, none of
    /// the caller's hookhost settings, no stdin, and `env` added. The project's hooks are the
    /// subject of these tests, so they run as written (`HOOKHOST_TRUST=all`); the hostile
    /// suite, which tests trust, runs under the real default (`HOOKHOST_TRUST` empty), and a
    /// test passes its own value in `env` to choose.
    pub fn cli(&self, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
        let mut c = self.command();
        c.args(args).arg("--project").arg(self.path());
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    }

    /// The `hookhost` binary with this project's environment (its home, cache, managed
    /// files, decision log; every hook trusted) and `--home` (every command takes the home
    /// from the password database, not `$HOME`, unless `--home` names one) as its only
    /// arguments: the test adds the rest (and `--project`, or a current directory).
    pub fn command(&self) -> std::process::Command {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"));
        c.arg("--home").arg(self.home.path());
        c.env("HOME", self.home.path())
            .env("HOOKHOST_CACHE_DIR", self.cache.path())
            // The machine's managed file never leaks into a test; `write_managed` fills this.
            .env("HOOKHOST_MANAGED_CONFIG", self.managed_file())
            .env(
                "HOOKHOST_CLAUDE_MANAGED_SETTINGS",
                self.home
                    .path()
                    .join("etc-claude-code/managed-settings.json"),
            )
            .env("HOOKHOST_TRUST", "all")
            // The decision log stays in this test's home (`hook`/`serve` read the passwd home).
            .env("HOOKHOST_LOG_DIR", self.home.path().join("hookhost-log"))
            .env_remove("HOOKHOST_LOG")
            .env_remove("HOOKHOST_COMPILE_TIMEOUT_MS")
            .env_remove("RUST_LOG")
            .stdin(std::process::Stdio::null());
        c
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).unwrap_or_default()
    }
}

/// `hookhost run` of a harmless `bash` call (`ls`) at PreToolUse, answered as JSON.
pub const RUN_LS_JSON: [&str; 7] = [
    "run",
    "PreToolUse",
    "--tool",
    "bash",
    "--args",
    r#"{"command":"ls"}"#,
    "--json",
];

pub fn pre_tool(project: &Path, tool: &str, args: Value) -> Payload {
    Payload::pre_tool_use(project, "test-session", tool, args)
}

/// Short summary for assertion messages.
pub fn summary(r: &EventReport) -> String {
    serde_json::to_string_pretty(r).unwrap()
}
