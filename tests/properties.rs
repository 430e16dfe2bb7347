//! Property tests (proptest): config parsing, the JSON stdout protocol and payload building
//! never panic on any input, and keep their invariants. `tests/corpus/` holds hand-made
//! hostile inputs that run every time; proptest keeps failing cases in
//! `proptest-regressions/` (committed) so they are re-run first.

use hookhost::config::{self, ConfigPaths, HookId, HookKind, OnError, Scope};
use hookhost::parse_stdout;
use hookhost::spawner::{ExitStatus, SpawnOutput};
use hookhost::{Event, Payload};
use hookhost::{HookFacts, judge};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

fn paths() -> ConfigPaths {
    ConfigPaths::with_home(Path::new("/project"), Some("/home/u".into()))
}

fn parse(text: &str) -> (usize, Vec<config::ConfigError>) {
    let file = Path::new("/project/.coding-agent/hooks.json");
    let (hooks, errors) = config::parse_file(text, file, Scope::Project, &paths());
    for e in &errors {
        assert_eq!(e.file, file);
        assert!(!e.message.is_empty());
    }
    (hooks.len(), errors)
}

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "[ -~]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "command", "x.wasm a", "bash|sh", "(", "block", "write", "$HOME"
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Keys that mean something somewhere, plus noise.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "hooks",
            "command",
            "url",
            "headers",
            "allowedEnv",
            "match",
            "description",
            "timeout",
            "cwd",
            "async",
            "onError",
            "fuel",
            "memory",
            "fs",
            "env",
            "decision",
            "reason",
            "updatedInput",
            "modifiedParams",
            "additionalContext",
            "systemMessage",
            "hookSpecificOutput",
            "permissionDecision",
            "PreToolUse",
            "Stop",
            "PostToolUse",
            "SessionStart",
            "event",
            "toolArgs",
        ])
        .prop_map(str::to_string),
        "[a-zA-Z]{1,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn config_parsing_never_panics_on_any_text(text in "\\PC{0,200}") {
        parse(&text);
    }

    #[test]
    fn config_parsing_never_panics_on_any_json(v in json_value()) {
        parse(&v.to_string());
        parse(&json!({"hooks": v}).to_string());
    }

    #[test]
    fn hook_objects_are_valid_or_explained(hook in prop::collection::btree_map(key(), json_value(), 0..6), event in prop::sample::select(Event::ALL.to_vec())) {
        let text = json!({"hooks": {event.as_str(): [Value::Object(hook.into_iter().collect())]}}).to_string();
        let (valid, errors) = parse(&text);
        // Exactly one of: the hook is valid, or at least one error names it.
        prop_assert_eq!(valid == 1, errors.is_empty());
        if valid == 0 {
            let label = format!("{event}[0]");
            prop_assert!(errors.iter().any(|e| e.hook.as_deref() == Some(label.as_str()) || e.hook.is_none()));
        }
    }

    #[test]
    fn the_stdout_protocol_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..256), v in json_value()) {
        let _ = parse_stdout(&bytes, false);
        let _ = parse_stdout(v.to_string().as_bytes(), false);
        let _ = parse_stdout(json!({"hookSpecificOutput": v}).to_string().as_bytes(), false);
    }

    #[test]
    fn judging_any_output_never_panics(
        code in any::<i32>(),
        kind in 0u8..5,
        stdout in "\\PC{0,64}",
        stderr in "\\PC{0,64}",
        v in json_value(),
        event in prop::sample::select(Event::ALL.to_vec()),
        block in any::<bool>(),
    ) {
        let status = match kind {
            0 => ExitStatus::Exited(code),
            1 => ExitStatus::Crashed(stderr.clone()),
            2 => ExitStatus::TimedOut,
            3 => ExitStatus::SpawnFailed(stderr.clone()),
            _ => ExitStatus::Exited(0),
        };
        let out_text = if kind == 4 { v.to_string() } else { stdout };
        let out = SpawnOutput { status, stdout: out_text.into_bytes(), stderr: stderr.into_bytes(), truncated: false, duration: Duration::ZERO, model: None };
        let id = HookId { scope: Scope::Project, event, index: 0, source: 0 };
        let on_error = if block { OnError::Block } else { OnError::Warn };
        for dialect in hookhost::dialect::Dialect::ALL {
            let rules = hookhost::dialect::rules(dialect);
            let trusted = HookFacts::new(id, HookKind::Shell, on_error, 1);
            let j = judge(rules, &trusted, &out);
            // A verdict and its outcome agree.
            match &j.effects.verdict {
                hookhost::Verdict::Block(_) => prop_assert!(matches!(j.outcome, hookhost::Outcome::Block | hookhost::Outcome::Timeout | hookhost::Outcome::Error)),
                hookhost::Verdict::Force(_) => prop_assert_eq!(j.outcome, hookhost::Outcome::Force),
                hookhost::Verdict::Pass => prop_assert!(!matches!(j.outcome, hookhost::Outcome::Block | hookhost::Outcome::Force)),
            }
            // Whatever the answer, an untrusted hook keeps at most a block.
            let untrusted = HookFacts { trust: hookhost::TrustLevel::Untrusted, ..HookFacts::new(id, HookKind::Shell, on_error, 1) };
            let u = judge(rules, &untrusted, &out);
            let allowed = hookhost::EffectSet::of(&[hookhost::EffectKind::Block]);
            prop_assert!(u.effects.kinds().intersect(allowed) == u.effects.kinds(), "{:?}", u.effects);
        }
    }

    #[test]
    fn payloads_from_any_object_keep_their_required_fields(v in json_value(), event in prop::sample::select(Event::ALL.to_vec())) {
        match Payload::from_object(event, v.clone(), Path::new("/p"), "sid") {
            Ok(p) => {
                let back: Value = serde_json::from_slice(&p.to_json_bytes()).unwrap();
                prop_assert_eq!(&back["event"], &json!(event.as_str()));
                prop_assert!(back.get("cwd").is_some() && back.get("sessionId").is_some());
                prop_assert!(v.is_object());
            }
            Err(e) => {
                prop_assert!(!v.is_object());
                prop_assert!(e.contains("must be a JSON object"));
            }
        }
    }
}

#[test]
fn the_corpus_parses_without_panicking() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/corpus");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap();
        let (valid, errors) = parse(&String::from_utf8_lossy(&bytes));
        assert!(
            valid == 0 && !errors.is_empty(),
            "{}: every corpus file is broken on purpose",
            entry.path().display()
        );
        n += 1;
    }
    assert!(n >= 4);
}
