//! [`ModelSpawner`]: runs `prompt` and `agent` hooks by asking the user's model.
//!
//! The hook's prompt, with the payload's JSON in place of `$ARGUMENTS` (or appended), goes to
//! the model of the user's or the managed file's `"model"` block (Anthropic's Messages API or
//! an OpenAI-compatible chat completions endpoint), with an instruction to answer
//! `{"ok": bool, "reason": "..."}`. An `agent` hook's model may first call read-only tools
//! inside the project (`tools.rs`), at most [`MAX_AGENT_TURNS`] requests in all. The answer
//! becomes an ordinary hook ending, so the judge's table decides what it means like any
//! other hook's: `ok: true` is exit 0; `ok: false` is exit 2 with the reason on stderr (a
//! block on blocking events, the agent kept going at Stop, feedback after a tool); an answer
//! that is not that object is a crash, an endpoint that cannot be reached or answers an error
//! a spawn failure, and the hook's `timeout` a timeout (its `onError` applies to all three).
//! At most [`MAX_CONCURRENT_MODEL_CALLS`] hooks ask at once, per process. Every answer is
//! kept in the output ([`SpawnOutput::model`]) and so in the decision log; a judgement given
//! to [`ModelSpawner::reuse`] (what `hookhost replay` reads from the log) is used instead of
//! asking again.

mod answer;
mod api;
mod tools;

use answer::{asked_sha256, question, read_verdict};
use api::{ANTHROPIC_VERSION, Conversation, Turn};

use super::capture::{CapturedStream, drain_body};
use super::{ExitStatus, ModelJudgement, SpawnOutput, SpawnRequest, Spawner};
use crate::config::{Handler, ModelApi, ModelConfig, ModelMode};
use async_trait::async_trait;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// How many model hooks may wait on a model at once in one process; the others queue (their
/// wait counts against their own timeout).
pub const MAX_CONCURRENT_MODEL_CALLS: usize = 4;

/// The most requests one `agent` hook makes: tool turns and the final answer together.
pub const MAX_AGENT_TURNS: usize = 8;

/// The largest response body read from a model endpoint.
const RESPONSE_CAP: usize = 4 << 20;

/// Runs model hooks with one shared connection pool and the cap on concurrent calls.
#[derive(Debug)]
pub struct ModelSpawner {
    client: reqwest::Client,
    slots: Arc<tokio::sync::Semaphore>,
    /// Judgements to reuse, by what was asked ([`asked_sha256`]).
    recorded: Mutex<HashMap<String, ModelJudgement>>,
}

impl Default for ModelSpawner {
    fn default() -> Self {
        ModelSpawner {
            // As the HTTP spawner's: not reqwest's own reading of the proxy variables.
            client: crate::spawner::http::hook_client(),
            slots: Arc::new(tokio::sync::Semaphore::new(MAX_CONCURRENT_MODEL_CALLS)),
            recorded: Mutex::new(HashMap::new()),
        }
    }
}

/// Why a model gave no verdict.
#[derive(Debug)]
enum Failure {
    /// Not reached, or it answered an error: a spawn failure.
    Endpoint(String),
    /// It answered something that is no verdict: a crash.
    Answer(String),
}

impl ModelSpawner {
    /// Judgements to use instead of asking again (`hookhost replay`), each found by its
    /// `asked_sha256`: the same model, hook prompt and payload.
    pub fn reuse(&self, judgements: impl IntoIterator<Item = ModelJudgement>) {
        let mut recorded = crate::agent::sync::lock(&self.recorded);
        for j in judgements {
            recorded.insert(j.asked_sha256.clone(), j);
        }
    }

    /// One request: the response's JSON, or why there is none.
    async fn post(
        &self,
        model: &ModelConfig,
        key: Option<&str>,
        body: &Value,
    ) -> Result<Value, Failure> {
        let url = &model.url;
        let mut request = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(serde_json::to_vec(body).unwrap_or_default());
        request = match (model.api, key) {
            (ModelApi::Anthropic, key) => {
                let r = request.header("anthropic-version", ANTHROPIC_VERSION);
                match key {
                    Some(k) => r.header("x-api-key", k),
                    None => r,
                }
            }
            (ModelApi::OpenAi, Some(k)) => request.bearer_auth(k),
            (ModelApi::OpenAi, None) => request,
        };
        let mut response = request.send().await.map_err(|e| {
            Failure::Endpoint(format!(
                "cannot reach the model at {url}: {}; check `model.url` in {}",
                super::http::error_chain(&e),
                model.file.display()
            ))
        })?;
        let status = response.status();
        let sink = CapturedStream::with_cap(RESPONSE_CAP);
        drain_body(&mut response, &sink).await.map_err(|e| {
            Failure::Endpoint(format!(
                "reading the model's response from {url} failed: {}",
                super::http::error_chain(&e)
            ))
        })?;
        let (bytes, _) = sink.take();
        if !status.is_success() {
            let text: String = String::from_utf8_lossy(&bytes).chars().take(300).collect();
            return Err(Failure::Endpoint(format!(
                "the model at {url} answered HTTP {status}: {}{}",
                text.trim(),
                match status.as_u16() {
                    401 | 403 => format!(
                        "; check the key in {} (`model.keyEnv` in {})",
                        model.key_env.as_deref().unwrap_or("(no keyEnv set)"),
                        model.file.display()
                    ),
                    404 => format!(
                        "; check `model.url` and `model.name` in {}",
                        model.file.display()
                    ),
                    _ => String::new(),
                }
            )));
        }
        serde_json::from_slice(&bytes).map_err(|e| {
            Failure::Endpoint(format!(
                "the model at {url} answered something that is not JSON ({e}); check `model.url` and `model.api` in {}",
                model.file.display()
            ))
        })
    }

    /// The whole exchange: one question, or an agent's tool turns then its answer.
    async fn converse(
        &self,
        model: &ModelConfig,
        key: Option<&str>,
        mode: ModelMode,
        question: &str,
        project: &std::path::Path,
    ) -> Result<String, Failure> {
        let specs = match mode {
            ModelMode::Prompt => Vec::new(),
            ModelMode::Agent => tools::specs(),
        };
        let mut conversation = Conversation::new(model.api, &model.name, question, specs);
        for turn in 1..=MAX_AGENT_TURNS {
            if turn == MAX_AGENT_TURNS {
                conversation.last_call(&format!(
                    "That was the last tool call allowed ({MAX_AGENT_TURNS} turns). Answer now with the JSON object."
                ));
            }
            let response = self.post(model, key, &conversation.body()).await?;
            match conversation
                .read(&response)
                .map_err(|e| Failure::Endpoint(e.to_string()))?
            {
                Turn::Answer(text) => return Ok(text),
                Turn::Tools(calls) => {
                    let project = project.to_path_buf();
                    // File reads off the async threads.
                    let results = tokio::task::spawn_blocking(move || {
                        calls
                            .into_iter()
                            .map(|c| (c.id, tools::call(&project, &c.name, &c.input)))
                            .collect::<Vec<_>>()
                    })
                    .await
                    .unwrap_or_default();
                    conversation.tool_results(results);
                }
            }
        }
        Err(Failure::Answer(format!(
            "the model did not answer within {MAX_AGENT_TURNS} turns"
        )))
    }
}

/// The output of a verdict: exit 0, or exit 2 with the reason on stderr and stdout (every
/// dialect's table reads an exit 2's reason from one of them: the native one forces a Stop
/// with stdout, blocks a call with stderr).
fn verdict_output(judgement: ModelJudgement, duration: Duration) -> SpawnOutput {
    let (status, reason) = if judgement.ok {
        (ExitStatus::Exited(0), Vec::new())
    } else {
        let reason = judgement
            .reason
            .clone()
            .unwrap_or_else(|| format!("the model {} said no and gave no reason", judgement.model));
        (ExitStatus::Exited(2), reason.into_bytes())
    };
    SpawnOutput {
        status,
        stdout: reason.clone(),
        stderr: reason,
        truncated: false,
        duration,
        model: Some(Box::new(judgement)),
    }
}

/// The API key: read from the variable the user's own file names (`keyEnv`), unless a
/// project's settings set that variable for the agent (`host_env`): a project must not choose
/// the key (and so the account) the user's questions go out under.
fn api_key(model: &ModelConfig) -> Result<Option<String>, String> {
    let Some(var) = &model.key_env else {
        return Ok(None);
    };
    if let Some(file) = crate::host_env::set_by_project(var) {
        return Err(format!(
            "the model's API key variable {var} (`model.keyEnv` in {}) is set by the project file {}, and a project must not choose the key your model hooks send; set it in your own shell or agent settings, not the project's",
            model.file.display(),
            file.display()
        ));
    }
    match crate::host_env::var(var, "no key") {
        Some(k) => Ok(Some(k)),
        None => Err(format!(
            "the model's API key variable {var} (`model.keyEnv` in {}) is not set; export it where the agent starts, or change `keyEnv`",
            model.file.display()
        )),
    }
}

#[async_trait]
impl Spawner for ModelSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        let start = Instant::now();
        let Handler::Model {
            mode,
            prompt,
            model,
        } = &req.handler
        else {
            return SpawnOutput::spawn_failed(
                "ModelSpawner got a hook that is no model hook",
                Duration::ZERO,
            );
        };
        let kind = req.handler.kind().as_str();
        let Some(model) = model else {
            return SpawnOutput::spawn_failed(
                crate::config::no_model_in(kind, "~/.coding-agent/hooks.json"),
                start.elapsed(),
            );
        };
        let asked = asked_sha256(&model.name, kind, prompt, &req.stdin);
        let recorded = crate::agent::sync::lock(&self.recorded)
            .get(&asked)
            .cloned();
        if let Some(mut j) = recorded {
            j.replayed = true;
            return verdict_output(j, start.elapsed());
        }
        let key = match api_key(model) {
            Ok(k) => k,
            Err(why) => return SpawnOutput::spawn_failed(why, start.elapsed()),
        };
        let deadline = start + req.timeout;
        let question = question(prompt, &String::from_utf8_lossy(&req.stdin));
        let exchange = async {
            let _permit = self
                .slots
                .acquire()
                .await
                .map_err(|_| Failure::Endpoint("the model spawner is shutting down".into()))?;
            self.converse(model, key.as_deref(), *mode, &question, &req.project_dir)
                .await
        };
        let text = match tokio::time::timeout_at(deadline, exchange).await {
            Err(_) => return SpawnOutput::bare(ExitStatus::TimedOut, start.elapsed()),
            Ok(Err(Failure::Endpoint(why))) => {
                return SpawnOutput::spawn_failed(why, start.elapsed());
            }
            Ok(Err(Failure::Answer(why))) => {
                return SpawnOutput::bare(ExitStatus::Crashed(why), start.elapsed());
            }
            Ok(Ok(text)) => text,
        };
        match read_verdict(&text) {
            Ok(v) => verdict_output(
                ModelJudgement {
                    model: model.name.clone(),
                    asked_sha256: asked,
                    ok: v.ok,
                    reason: v.reason,
                    replayed: false,
                },
                start.elapsed(),
            ),
            // The answer kept as the hook's stdout, for the record, within the output cap.
            Err(e) => {
                let mut stdout = text.into_bytes();
                let truncated = stdout.len() > super::OUTPUT_CAP;
                stdout.truncate(super::OUTPUT_CAP);
                SpawnOutput {
                    status: ExitStatus::Crashed(e.to_string()),
                    stdout,
                    stderr: Vec::new(),
                    truncated,
                    duration: start.elapsed(),
                    model: None,
                }
            }
        }
    }
}
