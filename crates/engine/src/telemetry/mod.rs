//! OpenTelemetry spans of fired events (the `otel` feature; docs/observability.md): one span
//! per event and a child span per hook that ran, built from the same [`EventRecord`] the
//! decision log appends, and sent over OTLP/HTTP (protobuf) to where the standard
//! `OTEL_EXPORTER_OTLP_*` variables point.
//!
//! With no endpoint set this costs two variable lookups per process and nothing else: no
//! exporter, no thread. Exporting never changes a decision: spans are queued to the SDK's
//! batch thread, a failed export warns once through `tracing` (stderr), and [`shutdown`]
//! (called by the CLI before it exits) waits for the queue at most the export timeout,
//! capped at 2 s. `config.rs` reads the variables, `spans.rs` maps a record to attributes.

pub(crate) mod config;
pub(crate) mod spans;

use crate::decision_log::EventRecord;
use opentelemetry::Context;
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::{Span, SpanKind, TraceContextExt, Tracer, TracerProvider};
use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider, SpanData, SpanExporter};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

/// The process's exporter: set up on the first runner built, `None` when the variables ask
/// for no spans.
static GLOBAL: OnceLock<Option<Arc<Telemetry>>> = OnceLock::new();

/// Where a process's spans go: one per process, shared by its runners.
pub struct Telemetry {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
    /// `TRACEPARENT`/`TRACESTATE` of the process: the parent of every event span.
    parent: Context,
    flush_bound: Duration,
    warned: Arc<AtomicBool>,
    endpoint: String,
}

impl std::fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Telemetry")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

/// The process's exporter, set up from the variables on the first call.
pub fn from_env() -> Option<Arc<Telemetry>> {
    GLOBAL
        .get_or_init(|| match config::from_env() {
            Ok(None) => None,
            Ok(Some(c)) => Telemetry::start(&c).map(Arc::new),
            Err(e) => {
                tracing::warn!("OpenTelemetry off: {e}");
                None
            }
        })
        .clone()
}

/// Sends what is queued and stops the exporter, waiting at most the flush bound; a no-op
/// when no exporter was set up. Call once, before the process exits.
pub fn shutdown() {
    if let Some(Some(t)) = GLOBAL.get()
        && let Err(e) = t.provider.shutdown_with_timeout(t.flush_bound)
    {
        t.warn_once(&format!("{e} within {} ms", t.flush_bound.as_millis()));
    }
}

impl Telemetry {
    fn start(c: &config::Config) -> Option<Self> {
        let warned = Arc::new(AtomicBool::new(false));
        // Our own client, not the exporter's default (which reads the proxy variables a
        // project's settings can set): proxies through `host_env`. A blocking client is made
        // off any async runtime, as the exporter itself does.
        let timeout = c.timeout;
        let client = std::thread::spawn(move || {
            reqwest::blocking::Client::builder()
                .timeout(timeout)
                .proxy(crate::host_env::reqwest_proxy())
                .build()
        })
        .join();
        let client = match client {
            Ok(Ok(client)) => client,
            Ok(Err(e)) => {
                tracing::warn!("OpenTelemetry off: cannot make the HTTP client: {e}");
                return None;
            }
            Err(_) => {
                tracing::warn!("OpenTelemetry off: cannot make the HTTP client");
                return None;
            }
        };
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(client)
            .with_endpoint(c.traces_url.clone())
            .with_timeout(c.timeout)
            .build();
        let exporter = match exporter {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(
                    "OpenTelemetry off: cannot set up the OTLP exporter for {}: {e}",
                    c.traces_url
                );
                return None;
            }
        };
        let exporter = WarnOnce {
            inner: exporter,
            warned: warned.clone(),
            endpoint: c.traces_url.clone(),
        };
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource())
            .build();
        let tracer = provider.tracer("hookhost");
        Some(Telemetry {
            provider,
            tracer,
            parent: parent_from_env(),
            flush_bound: c.flush_bound(),
            warned,
            endpoint: c.traces_url.clone(),
        })
    }

    /// Queues the spans of one event: `start` is when it was fired. Never blocks on the
    /// network.
    pub fn export(&self, record: &EventRecord, start: SystemTime) {
        let ms = |d: f64| Duration::from_secs_f64((d / 1000.0).max(0.0));
        let mut event = self
            .tracer
            .span_builder(spans::event_span_name(record))
            .with_kind(SpanKind::Internal)
            .with_start_time(start)
            .with_attributes(spans::event_attributes(record))
            .start_with_context(&self.tracer, &self.parent);
        for n in &record.not_run {
            event.add_event_with_timestamp(
                spans::NOT_RUN_EVENT,
                start,
                spans::not_run_attributes(n),
            );
        }
        let cx = self.parent.with_span(event);
        // Hooks run one after the other: each span starts where the previous one ended.
        let mut at = start;
        for h in &record.hooks {
            let end = at + ms(h.duration_ms);
            let mut span = self
                .tracer
                .span_builder(spans::hook_span_name(h))
                .with_kind(SpanKind::Internal)
                .with_start_time(at)
                .with_attributes(spans::hook_attributes(h))
                .start_with_context(&self.tracer, &cx);
            span.set_status(spans::hook_status(h));
            span.end_with_timestamp(end);
            at = end;
        }
        cx.span()
            .end_with_timestamp((start + ms(record.duration_ms)).max(at));
    }

    fn warn_once(&self, why: &str) {
        warn_once(&self.warned, &self.endpoint, why);
    }
}

fn warn_once(warned: &AtomicBool, endpoint: &str, why: &str) {
    if !warned.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            "OpenTelemetry: spans not exported to {endpoint}: {why} (decisions are not affected; check the collector, or unset OTEL_EXPORTER_OTLP_ENDPOINT)"
        );
    }
}

/// `service.name` from `OTEL_SERVICE_NAME`, else `OTEL_RESOURCE_ATTRIBUTES`, else `hookhost`;
/// the other resource attributes as `OTEL_RESOURCE_ATTRIBUTES` gives them.
fn resource() -> opentelemetry_sdk::Resource {
    use opentelemetry_sdk::resource::{EnvResourceDetector, SdkProvidedResourceDetector};
    let env = opentelemetry_sdk::Resource::builder_empty()
        .with_detector(Box::new(EnvResourceDetector::new()))
        .build();
    let named = std::env::var("OTEL_SERVICE_NAME")
        .ok()
        .filter(|s| !s.is_empty())
        .is_some()
        || env.get(&opentelemetry::Key::new("service.name")).is_some();
    let builder = opentelemetry_sdk::Resource::builder_empty()
        .with_detector(Box::new(EnvResourceDetector::new()))
        .with_attributes([opentelemetry::KeyValue::new(
            "service.version",
            env!("CARGO_PKG_VERSION"),
        )]);
    if named {
        builder
            .with_detector(Box::new(SdkProvidedResourceDetector))
            .build()
    } else {
        builder.with_service_name("hookhost").build()
    }
}

/// The W3C trace context the process was started in (`TRACEPARENT`, `TRACESTATE`), or none.
fn parent_from_env() -> Context {
    let mut carrier = std::collections::HashMap::new();
    for (var, key) in [("TRACEPARENT", "traceparent"), ("TRACESTATE", "tracestate")] {
        if let Ok(v) = std::env::var(var) {
            carrier.insert(key.to_string(), v);
        }
    }
    if carrier.is_empty() {
        return Context::new();
    }
    let cx = opentelemetry_sdk::propagation::TraceContextPropagator::new().extract(&carrier);
    if !cx.span().span_context().is_valid() {
        tracing::warn!(
            "OpenTelemetry: TRACEPARENT is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>); event spans start their own trace"
        );
    }
    cx
}

/// The OTLP exporter, warning once on the first failed export.
#[derive(Debug)]
struct WarnOnce {
    inner: opentelemetry_otlp::SpanExporter,
    warned: Arc<AtomicBool>,
    endpoint: String,
}

impl SpanExporter for WarnOnce {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let result = self.inner.export(batch).await;
        if let Err(e) = &result {
            warn_once(&self.warned, &self.endpoint, &e.to_string());
        }
        result
    }

    fn shutdown_with_timeout(&mut self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn force_flush(&mut self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn set_resource(&mut self, resource: &opentelemetry_sdk::Resource) {
        self.inner.set_resource(resource);
    }
}
