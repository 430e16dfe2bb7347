//! `hookhost test`: fire every `samples/*.json` at the project's built module through the
//! engine and compare each outcome with the sample's `expect`.
//!
//! A sample is `{"expect": "block", "payload": {...}}` (fired through a [`hookhost::Runner`] over one
//! synthetic hook per event that points at `NAME.wasm`, with `hook.json`'s capabilities), or
//! `{"expect": "block", "event": "PreToolUse", "raw": "text"}` (the text goes to the module's
//! stdin as is, through the same spawner and decision table: how fail-closed parsing is
//! tested). `hook.json`'s `match` is not applied: every sample reaches the module.

use super::Project;
use anyhow::{Context, bail};
use clap::Args;
use hookhost::config::{self, ConfigPaths};
use hookhost::setup::{Ready, Setup, WasmOptions};
use hookhost::{Event, Hook, HookSet, HookSpawner, Payload, Runner, Scope, SpawnRequest, Spawner};
use hookhost::{HookFacts, judge};
use serde::Serialize;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: hook.json (`name`, `capabilities`: memory, timeout, fs, env), \
    NAME.wasm (run `hookhost build` first) and samples/*.json, each \
    {\"expect\": \"pass\"|\"block\"|..., \"payload\": {...}} or {\"expect\": ..., \"event\": ..., \
    \"raw\": \"text for stdin\"}. Writes nothing in the project (compiled code goes to the \
    compile cache, $HOOKHOST_CACHE_DIR or ~/.cache/hookhost/wasm). Exit 0 when every sample \
    matches, 1 otherwise."
)]
pub struct TestArgs {
    /// The hook project (default: the current directory).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print one JSON object: {"module", "passed", "samples": [{"name", "expect", "actual",
    /// "ok", "durationMs", "reason"}]}.
    #[arg(long)]
    json: bool,
}

/// One sample file.
struct Sample {
    name: String,
    expect: String,
    input: Input,
}

enum Input {
    Payload(Value),
    Raw { event: Event, text: String },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SampleResult {
    name: String,
    expect: String,
    actual: String,
    ok: bool,
    duration_ms: f64,
    /// The block reason or the hook's message, when there is one.
    reason: Option<String>,
}

const OUTCOMES: &[&str] = &["pass", "block", "force", "warn", "timeout", "error"];

fn load_samples(dir: &Path) -> anyhow::Result<Vec<Sample>> {
    let samples_dir = dir.join("samples");
    let entries = std::fs::read_dir(&samples_dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {}: {e}; put sample payloads there ({{\"expect\":\"block\",\"payload\":{{...}}}})",
            samples_dir.display()
        )
    })?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        bail!("{} holds no *.json samples", samples_dir.display());
    }
    paths.iter().map(|p| load_sample(p)).collect()
}

fn load_sample(path: &Path) -> anyhow::Result<Sample> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {shown}"))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{shown} is not valid JSON: {e}"))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let expect = match v.get("expect").and_then(Value::as_str) {
        Some(e) if OUTCOMES.contains(&e) => e.to_string(),
        _ => bail!("{shown}: `expect` must be one of {}", OUTCOMES.join(", ")),
    };
    let event_field = |default: Option<&str>| -> anyhow::Result<Event> {
        let name = v
            .get("event")
            .and_then(Value::as_str)
            .or(default)
            .unwrap_or("PreToolUse");
        Event::parse_loose(name).map_err(|e| anyhow::anyhow!("{shown}: {e}"))
    };
    let input = match (v.get("payload"), v.get("raw")) {
        (Some(payload @ Value::Object(_)), None) => {
            let event = event_field(payload.get("event").and_then(Value::as_str))?;
            let mut payload = payload.clone();
            payload["event"] = json!(event.as_str());
            Input::Payload(payload)
        }
        (None, Some(Value::String(text))) => Input::Raw {
            event: event_field(None)?,
            text: text.clone(),
        },
        _ => bail!(
            "{shown}: give either `payload` (a JSON object) or `raw` (a string sent to stdin as is)"
        ),
    };
    Ok(Sample {
        name,
        expect,
        input,
    })
}

/// One hook per event, pointing at the module, with the manifest's capabilities.
fn synthetic_hooks(p: &Project) -> anyhow::Result<Vec<Hook>> {
    let caps = p.manifest.get("capabilities").cloned().unwrap_or(json!({}));
    let mut entry = serde_json::Map::new();
    let module = format!("{}.wasm", p.name);
    entry.insert(
        "command".into(),
        json!(
            shlex::try_quote(&module)
                .map(std::borrow::Cow::into_owned)
                .unwrap_or(module)
        ),
    );
    for (from, to) in [
        ("timeout", "timeout"),
        ("memory", "memory"),
        ("fs", "fs"),
        ("env", "env"),
    ] {
        if let Some(v) = caps.get(from) {
            entry.insert(to.into(), v.clone());
        }
    }
    let events = Event::ALL;
    let mut hooks = serde_json::Map::new();
    for e in events {
        hooks.insert(e.as_str().into(), json!([Value::Object(entry.clone())]));
    }
    let text = json!({ "hooks": hooks }).to_string();
    let manifest = p.dir.join(super::MANIFEST);
    let paths = ConfigPaths::with_home(&p.dir, None);
    let (hooks, errors) = config::parse_file(&text, &manifest, Scope::Project, &paths);
    if !errors.is_empty() {
        let problems: Vec<String> = errors.iter().map(|e| e.message.clone()).collect();
        bail!(
            "{}: `capabilities` do not make a valid hook: {}",
            manifest.display(),
            problems.join("; ")
        );
    }
    Ok(hooks)
}

pub async fn test(a: TestArgs) -> anyhow::Result<u8> {
    let project = Project::open(a.dir)?;
    let module = project.module();
    if !module.is_file() {
        bail!(
            "{} is missing: run `hookhost build` in {} first",
            module.display(),
            project.dir.display()
        );
    }
    let samples = load_samples(&project.dir)?;
    let bench = Bench::new(&project)?;
    // Compile first (or load from the disk cache), so sample durations are run times only.
    let started = Instant::now();
    bench
        .spawner
        .wasm()
        .map_err(anyhow::Error::msg)?
        .prepare_file(&module)
        .await
        .map_err(|e| anyhow::anyhow!("{} cannot be loaded: {e}", module.display()))?;
    let compile_ms = started.elapsed().as_secs_f64() * 1e3;
    if !a.json {
        println!("{}: loaded in {compile_ms:.0} ms", module.display());
    }
    let mut results = Vec::new();
    for sample in &samples {
        let result = bench.fire(sample).await?;
        if !a.json {
            print_result(&result);
        }
        results.push(result);
    }
    let passed = results.iter().all(|r| r.ok);
    if a.json {
        println!(
            "{}",
            json!({
                "module": module,
                "loadMs": compile_ms,
                "passed": passed,
                "samples": results,
            })
        );
    } else {
        let failed = results.iter().filter(|r| !r.ok).count();
        println!(
            "{} of {} samples as expected",
            results.len() - failed,
            results.len()
        );
    }
    Ok(if passed { 0 } else { 1 })
}

/// What the samples are fired at: the synthetic hooks, a runner over them and its spawner.
struct Bench {
    dir: PathBuf,
    hooks: Vec<Hook>,
    runner: Runner,
    spawner: Arc<HookSpawner>,
}

impl Bench {
    fn new(project: &Project) -> anyhow::Result<Bench> {
        let hooks = synthetic_hooks(project)?;
        // The hooks the samples are fired at, trusted (they are the project's own module).
        let Ready {
            runner, spawner, ..
        } = Setup::with_paths(ConfigPaths::with_home(&project.dir, None))
            .hooks(HookSet::from_hooks(hooks.clone()))
            .trust_every_hook()
            .wasm(WasmOptions {
                pooling: false,
                ..WasmOptions::default()
            })
            .runner()?;
        Ok(Bench {
            dir: project.dir.clone(),
            hooks,
            runner,
            spawner,
        })
    }

    /// Fires one sample and compares its outcome with the expected one.
    async fn fire(&self, sample: &Sample) -> anyhow::Result<SampleResult> {
        let (actual, duration_ms, reason) = match &sample.input {
            Input::Payload(payload) => self.fire_payload(&sample.name, payload).await?,
            Input::Raw { event, text } => self.fire_raw(*event, text).await?,
        };
        Ok(SampleResult {
            name: sample.name.clone(),
            expect: sample.expect.clone(),
            ok: actual == sample.expect,
            actual,
            duration_ms,
            reason,
        })
    }

    /// A payload through the runner: the outcome, duration and reason of its one hook.
    async fn fire_payload(
        &self,
        name: &str,
        payload: &Value,
    ) -> anyhow::Result<(String, f64, Option<String>)> {
        let event = Event::parse_loose(payload["event"].as_str().unwrap_or_default())?;
        let payload = Payload::from_object(event, payload.clone(), &self.dir, "hookhost-test")
            .map_err(|e| anyhow::anyhow!("samples/{name}.json: {e}"))?;
        let report = self.runner.fire(payload).await;
        let hook = report.hooks.first();
        Ok((
            hook.map_or("pass", |h| h.outcome.as_str()).to_string(),
            hook.map_or(0.0, |h| h.duration_ms),
            report
                .reason
                .clone()
                .or_else(|| hook.and_then(|h| h.message.clone())),
        ))
    }

    /// Raw text on the module's stdin, through the same spawner and decision table.
    async fn fire_raw(
        &self,
        event: Event,
        text: &str,
    ) -> anyhow::Result<(String, f64, Option<String>)> {
        let hook = self
            .hooks
            .iter()
            .find(|h| h.event == event)
            .context("no synthetic hook for the sample's event")?;
        let out = self
            .spawner
            .spawn(SpawnRequest {
                event,
                handler: hook.handler.clone(),
                cwd: hook.cwd.clone(),
                project_dir: self.dir.clone(),
                stdin: Arc::from(text.as_bytes()),
                timeout: hook.timeout,
                module_sha256: None,
                env: Vec::new(),
                env_unset: Vec::new(),
                untrusted: false,
                sandbox: None,
            })
            .await;
        let j = judge(
            hookhost::dialect::rules(hook.dialect),
            &HookFacts::new(
                hook.id(),
                hook.handler.kind(),
                hook.on_error,
                hook.timeout.as_millis(),
            ),
            &out,
        );
        let reason = match &j.effects.verdict {
            hookhost::Verdict::Block(r) | hookhost::Verdict::Force(r) => Some(r.clone()),
            hookhost::Verdict::Pass => j.message.clone(),
        };
        Ok((
            j.outcome.as_str().to_string(),
            out.duration.as_secs_f64() * 1e3,
            reason,
        ))
    }
}

fn print_result(result: &SampleResult) {
    println!(
        "{:<4} {:<24} expect {:<6} got {:<7} {:>9.3} ms{}",
        if result.ok { "ok" } else { "FAIL" },
        result.name,
        result.expect,
        result.actual,
        result.duration_ms,
        result
            .reason
            .as_deref()
            .map(|r| format!("  {}", r.lines().next().unwrap_or("")))
            .unwrap_or_default()
    );
}
