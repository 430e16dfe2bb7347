//! How `prove` runs each agent headless and offline against the scripted model: one row per
//! agent, keyed by [`Dialect`] (tests/agents/README.md lists the same flags and variables).
//! An agent without a row is reported as not provable yet.

use hookhost::dialect::Dialect;
use serde_json::{Value, json};
use std::path::Path;

/// The prompt every run starts with (the model's script does the rest).
pub const PROMPT: &str = "Run the commands the test asks for.";

/// One agent's headless run.
pub struct Headless {
    pub dialect: Dialect,
    /// The timeout unit of its hook entries, per second (Gemini CLI's is the millisecond).
    pub timeout_per_second: u64,
    /// Its arguments after the executable.
    pub args: fn(&Path) -> Vec<String>,
    /// Its variables pointing it at the model server `url`, with fake keys.
    pub env: fn(&str, &Path) -> Vec<(&'static str, String)>,
    /// Files its throwaway home needs besides the hooks (home, project, url), and the settings
    /// document the hooks go into.
    pub setup: fn(&Path, &Path, &str) -> std::io::Result<Value>,
}

pub const HEADLESS: &[Headless] = &[
    Headless {
        dialect: Dialect::Claude,
        timeout_per_second: 1,
        args: |_| {
            // Hooks run before the permission check: a deny must hold for an allowed tool.
            ["-p", PROMPT, "--output-format", "stream-json", "--verbose"]
                .into_iter()
                .chain(["--allowedTools", "Bash,Write,Edit,Agent,Task"])
                .map(str::to_string)
                .collect()
        },
        env: |url, _| {
            vec![
                ("ANTHROPIC_BASE_URL", url.to_string()),
                ("ANTHROPIC_API_KEY", "sk-ant-hookhost-prove".into()),
                ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
                ("DISABLE_AUTOUPDATER", "1".into()),
                ("DISABLE_TELEMETRY", "1".into()),
                ("DISABLE_ERROR_REPORTING", "1".into()),
            ]
        },
        setup: |_, _, _| Ok(json!({})),
    },
    Headless {
        dialect: Dialect::Codex,
        timeout_per_second: 1,
        args: |project| {
            // The copied hooks are new to Codex (its trust is keyed by the file's path):
            // its documented flag for automation that vets its hooks itself.
            vec![
                "exec".into(),
                "--skip-git-repo-check".into(),
                "--dangerously-bypass-hook-trust".into(),
                "--dangerously-bypass-approvals-and-sandbox".into(),
                "-C".into(),
                project.display().to_string(),
                PROMPT.into(),
            ]
        },
        env: |_, home| {
            vec![
                ("CODEX_HOME", home.join(".codex").display().to_string()),
                ("HOOKHOST_PROVE_API_KEY", "hookhost-prove".into()),
            ]
        },
        setup: |home, _, url| {
            let dir = home.join(".codex");
            std::fs::create_dir_all(&dir)?;
            let config = format!(
                "model = \"gpt-scripted\"\nmodel_provider = \"scripted\"\n[model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{url}/v1\"\nenv_key = \"HOOKHOST_PROVE_API_KEY\"\nwire_api = \"responses\"\nrequest_max_retries = 0\nstream_max_retries = 0\n"
            );
            std::fs::write(dir.join("config.toml"), config)?;
            Ok(json!({}))
        },
    },
    Headless {
        dialect: Dialect::Gemini,
        timeout_per_second: 1000,
        args: |_| {
            ["-p", PROMPT, "--yolo", "--output-format", "stream-json"]
                .map(str::to_string)
                .to_vec()
        },
        env: |url, _| {
            vec![
                ("GOOGLE_GEMINI_BASE_URL", url.to_string()),
                ("GEMINI_API_KEY", "hookhost-prove".into()),
                ("GEMINI_CLI_NO_RELAUNCH", "true".into()),
            ]
        },
        setup: |home, project, _| {
            // --yolo is overridden in a folder Gemini CLI does not trust.
            let trusted = json!({ project.display().to_string(): "TRUST_FOLDER" });
            std::fs::create_dir_all(home.join(".gemini"))?;
            std::fs::write(
                home.join(".gemini/trustedFolders.json"),
                trusted.to_string(),
            )?;
            // GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth, which -p refuses.
            Ok(json!({
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
                "privacy": {"usageStatisticsEnabled": false},
            }))
        },
    },
    Headless {
        dialect: Dialect::Qwen,
        // Qwen Code reads a timeout below 1000 as seconds.
        timeout_per_second: 1,
        args: |_| {
            ["-p", PROMPT, "--yolo", "--auth-type", "openai"]
                .into_iter()
                .chain(["--output-format", "stream-json"])
                .map(str::to_string)
                .collect()
        },
        env: |url, _| {
            vec![
                ("OPENAI_BASE_URL", format!("{url}/v1")),
                ("OPENAI_API_KEY", "hookhost-prove".into()),
                ("OPENAI_MODEL", "qwen-scripted".into()),
                ("QWEN_CODE_NO_RELAUNCH", "true".into()),
                ("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1".into()),
            ]
        },
        setup: |_, _, _| {
            // The OpenAI-compatible provider (chat completions), its URL, key and model from
            // the variables; the shell tool through a pty (a piped one-shot command can be
            // reported done before its output).
            Ok(json!({
                "security": {"auth": {"selectedType": "openai"}},
                "model": {"name": "qwen-scripted"},
                "general": {"enableAutoUpdate": false},
                "privacy": {"usageStatisticsEnabled": false},
                "telemetry": {"enabled": false},
                "tools": {"shell": {"enableInteractiveShell": true}},
            }))
        },
    },
];

/// The headless row of `d`.
pub fn headless(d: Dialect) -> Option<&'static Headless> {
    HEADLESS.iter().find(|h| h.dialect == d)
}

/// The agents prove runs, for messages: `claude, codex, gemini, qwen`.
pub fn names() -> String {
    HEADLESS
        .iter()
        .map(|h| h.dialect.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
