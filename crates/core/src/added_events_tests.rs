//! The events Claude Code added that the loop fires: Setup, PostToolBatch, PermissionDenied,
//! FileChanged, ConfigChange, each with what its hooks' answers do.

use super::*;

/// Records the added events; scripted answers for them.
#[derive(Default)]
struct Added {
    calls: Mutex<Vec<String>>,
    /// PostToolBatch blocks with this reason.
    block_batch: Option<&'static str>,
    /// PermissionDenied answers `retry`.
    retry: bool,
    /// ConfigChange blocks with this reason.
    block_config: Option<&'static str>,
}

impl Added {
    fn log(&self, s: String) {
        self.calls.lock().unwrap().push(s);
    }
    fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }
}

#[async_trait]
impl ToolHooks for Added {
    async fn setup(&self, _: &HookContext, trigger: &str) -> HookVerdict {
        self.log(format!("Setup:{trigger}"));
        HookVerdict {
            additional_context: vec!["set up".into()],
            ..HookVerdict::pass()
        }
    }
    async fn post_tool_batch(&self, _: &HookContext, calls: &[BatchCall]) -> HookVerdict {
        let names: Vec<String> = calls
            .iter()
            .map(|c| format!("{}{}", c.tool, if c.is_error { "!" } else { "" }))
            .collect();
        self.log(format!("PostToolBatch:{}", names.join(",")));
        match self.block_batch {
            Some(r) => HookVerdict {
                verdict: Verdict::Block(r.into()),
                ..HookVerdict::pass()
            },
            None => HookVerdict::pass(),
        }
    }
    async fn permission_denied(
        &self,
        _: &HookContext,
        tool: &str,
        _: &Value,
        reason: &str,
    ) -> HookVerdict {
        self.log(format!("PermissionDenied:{tool}:{reason}"));
        HookVerdict {
            retry: self.retry,
            ..HookVerdict::pass()
        }
    }
    async fn file_changed(&self, cx: &HookContext, path: &Path, change: &str) -> HookVerdict {
        let rel = path.strip_prefix(&cx.cwd).unwrap_or(path);
        self.log(format!("FileChanged:{}:{change}", rel.display()));
        HookVerdict::pass()
    }
    async fn config_change(&self, cx: &HookContext, source: &str, path: &Path) -> HookVerdict {
        let rel = path.strip_prefix(&cx.cwd).unwrap_or(path);
        self.log(format!("ConfigChange:{source}:{}", rel.display()));
        match self.block_config {
            Some(r) => HookVerdict {
                verdict: Verdict::Block(r.into()),
                ..HookVerdict::pass()
            },
            None => HookVerdict::pass(),
        }
    }
}

fn with(hooks: Arc<Added>, model: Value, dir: &std::path::Path) -> Agent {
    Agent::new(transcript(model), hooks, dir, "s")
}

#[tokio::test]
async fn setup_fires_when_asked_and_its_context_reaches_the_model() {
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Added::default());
    let mut a = with(
        hooks.clone(),
        json!({"turns": [{"text": "hi"}]}),
        dir.path(),
    );
    assert_eq!(a.setup("init").await, None);
    a.run("go").await.unwrap();
    assert_eq!(hooks.calls(), ["Setup:init"]);
    assert!(
        a.messages()
            .iter()
            .any(|m| m.content == "[hook context] set up")
    );
}

#[tokio::test]
async fn post_tool_batch_fires_once_per_turn_with_every_call_and_a_block_ends_the_run() {
    let dir = tempfile::TempDir::new().unwrap();
    let model = json!({"turns": [
        {"toolCalls": [
            {"name": "write_file", "args": {"path": "a.txt", "content": "a"}},
            {"name": "read_file", "args": {"path": "missing.txt"}}
        ]},
        {"toolCalls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
        {"text": "done"}
    ]});
    let hooks = Arc::new(Added::default());
    let mut a = with(hooks.clone(), model.clone(), dir.path());
    assert_eq!(a.run("go").await.unwrap(), "done");
    assert_eq!(
        hooks.calls(),
        [
            "FileChanged:a.txt:add",
            "PostToolBatch:write_file,read_file!",
            "PostToolBatch:read_file",
        ]
    );

    // A block after the first turn: the model is not asked again.
    let dir = tempfile::TempDir::new().unwrap();
    let hooks = Arc::new(Added {
        block_batch: Some("enough for today"),
        ..Added::default()
    });
    let mut a = with(hooks.clone(), model, dir.path());
    let end = a.run("go").await.unwrap();
    assert_eq!(end, "(stopped by a PostToolBatch hook: enough for today)");
    assert_eq!(
        hooks.calls(),
        [
            "FileChanged:a.txt:add",
            "PostToolBatch:write_file,read_file!"
        ]
    );
}

#[tokio::test]
async fn a_denied_call_fires_permission_denied_and_retry_tells_the_model() {
    let dir = tempfile::TempDir::new().unwrap();
    let model = json!({"turns": [
        {"toolCalls": [{"name": "bash", "args": {"command": "echo hi"}}]},
        {"text": "ok"}
    ]});
    for retry in [false, true] {
        let hooks = Arc::new(Added {
            retry,
            ..Added::default()
        });
        let mut checker = PermissionChecker::default();
        checker.deny.push(Rule::parse("bash").unwrap());
        let mut a = with(hooks.clone(), model.clone(), dir.path()).with_permissions(checker);
        a.run("go").await.unwrap();
        let calls = hooks.calls();
        assert!(
            calls[0].starts_with("PermissionDenied:bash:denied by"),
            "{calls:?}"
        );
        let tool_msg = a.messages().iter().find(|m| m.role == Role::Tool).unwrap();
        assert_eq!(
            tool_msg
                .content
                .contains("[PermissionDenied hook feedback] you may retry this call"),
            retry,
            "{}",
            tool_msg.content
        );
    }
}

#[tokio::test]
async fn a_changed_hook_file_fires_config_change_and_a_block_undoes_it() {
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let before = r#"{"hooks": {}}"#;
    std::fs::write(dir.path().join(".claude/settings.json"), before).unwrap();
    let model = json!({"turns": [
        {"toolCalls": [
            {"name": "write_file", "args": {"path": ".claude/settings.json", "content": "{\"disableAllHooks\": true}"}},
            {"name": "bash", "args": {"command": "echo '{}' > .claude/settings.local.json"}}
        ]},
        {"text": "ok"}
    ]});
    // Passed: the changes stay, each hook file's source said.
    let hooks = Arc::new(Added::default());
    let mut a = with(hooks.clone(), model.clone(), dir.path());
    a.run("go").await.unwrap();
    assert_eq!(
        hooks.calls(),
        [
            "ConfigChange:project_settings:.claude/settings.json",
            "FileChanged:.claude/settings.json:change",
            "ConfigChange:local_settings:.claude/settings.local.json",
            "PostToolBatch:write_file,bash",
        ]
    );
    assert!(dir.path().join(".claude/settings.local.json").exists());

    // Blocked: each file is back as it was (an added one removed), and the model is told.
    std::fs::write(dir.path().join(".claude/settings.json"), before).unwrap();
    std::fs::remove_file(dir.path().join(".claude/settings.local.json")).unwrap();
    let hooks = Arc::new(Added {
        block_config: Some("hook settings are reviewed by a human"),
        ..Added::default()
    });
    let mut a = with(hooks.clone(), model, dir.path());
    a.run("go").await.unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".claude/settings.json")).unwrap(),
        before
    );
    assert!(!dir.path().join(".claude/settings.local.json").exists());
    let tool_msg = a.messages().iter().find(|m| m.role == Role::Tool).unwrap();
    assert!(
        tool_msg
            .content
            .contains("[ConfigChange hook feedback] the change to")
            && tool_msg
                .content
                .contains("was undone: hook settings are reviewed by a human"),
        "{}",
        tool_msg.content
    );
}
