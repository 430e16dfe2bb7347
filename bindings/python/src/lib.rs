//! `hookhost._hookhost`: the engine inside a Python process. One [`Engine`] per `Runner`
//! (config, trust, a warm wasm spawner), a [`HookTable`] holding the Python callables
//! registered as in-process hooks, and a tokio runtime to fire events on. Values cross as
//! JSON text; the typed Python API (`hookhost/__init__.py`) is built on top.
//!
//! The GIL is released while an event fires, so shell, wasm and HTTP hooks and other Python
//! threads run meanwhile; a Python hook takes the GIL back only for its own call.

use hookhost::locations;
use hookhost::setup::{ClientHook, Home, HookTable, Setup, WasmOptions, report_json};
use hookhost::{Event, FnHook, FnResponse, HookError, HookResult, Payload, TrustPolicy};
use hookhost_serve::{payload_of, typed_answer};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A Python callable as a hook: called with the payload as JSON text, it returns the answer
/// as JSON text (or None: pass). An exception is a crash, as a dying process would be.
struct PyHook {
    f: Py<PyAny>,
}

#[async_trait::async_trait]
impl FnHook for PyHook {
    /// An exception, or an answer that is not a hook answer, is a failure: a crash, like a
    /// process that died, and the decision table applies onError.
    async fn call(&self, payload: &Payload) -> HookResult {
        let text = serde_json::Value::Object(payload.as_map().clone()).to_string();
        let answer = Python::with_gil(|py| -> Result<Option<String>, String> {
            let out = self
                .f
                .call1(py, (text,))
                .map_err(|e| format!("the Python hook raised {e}"))?;
            out.extract::<Option<String>>(py)
                .map_err(|e| format!("the Python hook's wrapper returned no text: {e}"))
        })?;
        match answer {
            None => Ok(FnResponse::pass()),
            Some(text) => serde_json::from_str(&text)
                .map_err(|e| e.to_string())
                .and_then(|v| typed_answer(&v))
                .map_err(HookError::new),
        }
    }
}

/// The engine of one project.
#[pyclass(name = "Engine", module = "hookhost._hookhost")]
struct Engine_ {
    table: Mutex<HookTable>,
    rt: tokio::runtime::Runtime,
    next: std::sync::atomic::AtomicU64,
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

#[pymethods]
impl Engine_ {
    /// `Engine(project, trust="skip", home=None, cache_dir=None)`.
    #[new]
    #[pyo3(signature = (project, trust = "skip", home = None, cache_dir = None))]
    fn new(
        project: PathBuf,
        trust: &str,
        home: Option<PathBuf>,
        cache_dir: Option<PathBuf>,
    ) -> PyResult<Self> {
        let project = std::fs::canonicalize(&project).map_err(|e| {
            value_error(format!(
                "project directory {} is not usable: {e}; pass an existing directory",
                project.display()
            ))
        })?;
        let policy: TrustPolicy = trust.parse().map_err(value_error)?;
        // An explicit `home` isolates (no managed file: tests, embedders). Without one, the
        // account's home from the password database, never `$HOME`: the process may run
        // with an environment a project's settings chose. The cache and store variables are
        // vetted against this project (the first Engine of the process settles the defaults
        // the library reads).
        let home = match home {
            Some(h) => Home::Isolated(Some(h)),
            None => Home::Given(locations::account_home()),
        };
        let setup = Setup::new(&project, home);
        for w in setup.warnings() {
            eprintln!("{w}");
        }
        let setup = setup.policy(policy).wasm(WasmOptions {
            cache_root: cache_dir,
            ..WasmOptions::default()
        });
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the runtime: {e}")))?;
        let engine = {
            let _guard = rt.enter();
            setup
                .engine()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
        };
        Ok(Engine_ {
            table: Mutex::new(HookTable::new(Arc::new(engine))),
            rt,
            next: std::sync::atomic::AtomicU64::new(1),
        })
    }

    /// Registers `fn(payload_json) -> answer_json | None` for `event` (and tools matching
    /// `matcher`); returns its id.
    #[pyo3(signature = (event, matcher, f, name = None, timeout_ms = None, on_error = "warn"))]
    fn register(
        &self,
        event: &str,
        matcher: Option<String>,
        f: Py<PyAny>,
        name: Option<String>,
        timeout_ms: Option<u64>,
        on_error: &str,
    ) -> PyResult<String> {
        let event = Event::parse_loose(event).map_err(value_error)?;
        if matcher.is_some() && !event.takes_tool_matcher() {
            return Err(value_error(format!(
                "`match` applies to the tool events ({}), not {event}",
                Event::tool_events()
            )));
        }
        let block = match on_error {
            "warn" => false,
            "block" => true,
            other => {
                return Err(value_error(format!(
                    "on_error must be \"warn\" or \"block\", got {other:?}"
                )));
            }
        };
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("{}#{n}", name.as_deref().unwrap_or("python"));
        let hook = ClientHook::new(
            id.clone(),
            event,
            matcher,
            Arc::new(PyHook { f }),
            timeout_ms,
            block,
        );
        let _guard = self.rt.enter();
        self.lock().register(hook).map_err(value_error)?;
        Ok(id)
    }

    /// Removes a registered hook; False when there is none.
    fn unregister(&self, id: &str) -> bool {
        // A replaced runner is retired on the runtime, so its async hooks run to their end.
        let _guard = self.rt.enter();
        self.lock().unregister(id)
    }

    /// Fires one event. `params_json`: the `fire` params of the serve protocol (`event`,
    /// `payload`, `tool`, `args`, `result`, `prompt`, `session`). Returns the `run --json`
    /// object as JSON text.
    fn fire(&self, py: Python<'_>, params_json: &str) -> PyResult<String> {
        let params: serde_json::Value = serde_json::from_str(params_json).map_err(value_error)?;
        let runner = {
            let _guard = self.rt.enter();
            self.lock()
                .runner()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
        };
        let payload =
            payload_of(&params, runner.project_dir()).map_err(|e| value_error(e.message))?;
        let report = py.allow_threads(|| self.rt.block_on(runner.fire(payload)));
        Ok(report_json(&report).to_string())
    }

    /// Waits for every async hook started so far.
    fn wait_async(&self, py: Python<'_>) {
        let engine = self.lock().engine().clone();
        py.allow_threads(|| self.rt.block_on(engine.drain()));
    }

    /// The effective hooks, as `hookhost list --json` (JSON text).
    fn list(&self) -> PyResult<String> {
        let _guard = self.rt.enter();
        let runner = self
            .lock()
            .runner()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(hookhost::inspect::list_json(&runner.hooks()).to_string())
    }

    /// Re-read the config files before the next event.
    fn reload(&self) {
        self.lock().engine().config_changed();
    }
}

impl Engine_ {
    fn lock(&self) -> std::sync::MutexGuard<'_, HookTable> {
        hookhost::agent::sync::lock(&self.table)
    }
}

/// The native part of the `hookhost` package.
#[pymodule]
fn _hookhost(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Engine_>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
