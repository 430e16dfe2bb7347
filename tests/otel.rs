//! OpenTelemetry through the real binary: a receiver on 127.0.0.1 decodes the OTLP/HTTP
//! protobuf `hookhost run` and `hookhost hook --for claude` send, and the spans are checked
//! (one per event, a child per hook, the decision log's attributes, `TRACEPARENT` as the
//! parent). A collector that refuses or hangs changes neither the exit code nor stdout, and
//! no variable set means nothing is sent.

mod common;

use common::Project;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the receiver got: each request's headers (lowercased) and decoded body.
type Got = Arc<Mutex<Vec<(Vec<(String, String)>, ExportTraceServiceRequest)>>>;

/// A collector on 127.0.0.1: answers 200 to each POST, or never answers (`hang`).
fn receiver(hang: bool) -> (String, Got) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let got: Got = Arc::default();
    let sink = got.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let sink = sink.clone();
            std::thread::spawn(move || serve(stream, &sink, hang));
        }
    });
    (url, got)
}

fn serve(stream: TcpStream, sink: &Got, hang: bool) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    loop {
        let mut headers = Vec::new();
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let len: usize = headers
            .iter()
            .find(|(k, _)| k == "content-length")
            .map_or(0, |(_, v)| v.parse().unwrap());
        let mut body = vec![0; len];
        reader.read_exact(&mut body).unwrap();
        if hang {
            std::thread::sleep(Duration::from_secs(60));
            return;
        }
        let request = ExportTraceServiceRequest::decode(&body[..]).unwrap();
        sink.lock().unwrap().push((headers, request));
        let mut w = &stream;
        w.write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n",
        )
        .unwrap();
    }
}

fn project() -> Project {
    Project::new(json!({"hooks": {"PreToolUse": [
        {"command": "true", "match": "bash"},
        {"command": "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0", "match": "bash"},
        {"command": "true", "match": "edit"}
    ]}}))
}

const OTEL_VARS: [&str; 10] = [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    "OTEL_EXPORTER_OTLP_TIMEOUT",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_SDK_DISABLED",
    "TRACEPARENT",
    "TRACESTATE",
];

/// `hookhost ARGS` in the project, with only `env` of the OTel variables, `stdin` on stdin.
fn hookhost(p: &Project, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.args(args)
        .arg("--project")
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_LOG_DIR", p.home.path().join("hookhost-log"))
        .env(
            "HOOKHOST_MANAGED_CONFIG",
            p.home.path().join("no-managed.json"),
        )
        .env("HOOKHOST_TRUST", "all")
        .env_remove("HOOKHOST_LOG")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for v in OTEL_VARS {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn run_rm(p: &Project, env: &[(&str, &str)]) -> Output {
    let args = [
        "run",
        "PreToolUse",
        "--tool",
        "bash",
        "--args",
        r#"{"command":"rm -rf SECRETARG"}"#,
        "--session",
        "s-otel",
    ];
    hookhost(p, &args, env, "")
}

fn spans(got: &Got) -> Vec<Span> {
    let mut out = Vec::new();
    for (_, r) in got.lock().unwrap().iter() {
        for rs in &r.resource_spans {
            for ss in &rs.scope_spans {
                out.extend(ss.spans.iter().cloned());
            }
        }
    }
    out
}

fn attr<'a>(kv: &'a [KeyValue], key: &str) -> Option<&'a any_value::Value> {
    kv.iter()
        .find(|k| k.key == key)
        .and_then(|k| k.value.as_ref())
        .and_then(|v: &AnyValue| v.value.as_ref())
}

fn text(kv: &[KeyValue], key: &str) -> Option<String> {
    match attr(kv, key)? {
        any_value::Value::StringValue(s) => Some(s.clone()),
        other => Some(format!("{other:?}")),
    }
}

fn int(kv: &[KeyValue], key: &str) -> Option<i64> {
    match attr(kv, key)? {
        any_value::Value::IntValue(i) => Some(*i),
        _ => None,
    }
}

fn wait_for(got: &Got, n: usize) -> Vec<Span> {
    let start = Instant::now();
    while spans(got).len() < n && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    spans(got)
}

const TRACEPARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

#[test]
fn run_exports_an_event_span_with_a_child_per_hook() {
    let p = project();
    let (url, got) = receiver(false);
    let out = run_rm(
        &p,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &url),
            ("OTEL_EXPORTER_OTLP_HEADERS", "x-team=hooks%20team"),
            ("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test"),
            ("TRACEPARENT", TRACEPARENT),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The binary waited for the export before exiting: the spans are there already.
    let all = spans(&got);
    assert_eq!(all.len(), 3, "{all:#?}");
    let event = all
        .iter()
        .find(|s| s.name == "hookhost.event PreToolUse")
        .unwrap();
    let hooks: Vec<_> = all
        .iter()
        .filter(|s| s.name.starts_with("hookhost.hook "))
        .collect();
    assert_eq!(hooks.len(), 2);
    // TRACEPARENT is the event span's parent; each hook span is the event span's child.
    assert_eq!(hex(&event.trace_id), "0af7651916cd43dd8448eb211c80319c");
    assert_eq!(hex(&event.parent_span_id), "b7ad6b7169203331");
    for h in &hooks {
        assert_eq!(h.trace_id, event.trace_id);
        assert_eq!(h.parent_span_id, event.span_id);
        assert!(h.start_time_unix_nano >= event.start_time_unix_nano);
        assert!(h.end_time_unix_nano <= event.end_time_unix_nano);
    }
    let a = &event.attributes;
    assert_eq!(text(a, "session.id").as_deref(), Some("s-otel"));
    assert_eq!(text(a, "gen_ai.tool.name").as_deref(), Some("bash"));
    assert_eq!(text(a, "hookhost.decision").as_deref(), Some("block"));
    assert_eq!(text(a, "hookhost.reason").as_deref(), Some("no rm -rf"));
    assert_eq!(int(a, "hookhost.hooks.ran"), Some(2));
    assert_eq!(int(a, "hookhost.hooks.not_run"), Some(1));
    let not_run = &event.events[0];
    assert_eq!(not_run.name, "hookhost.hook.not_run");
    assert_eq!(
        text(&not_run.attributes, "hookhost.hook").as_deref(),
        Some("PreToolUse[2]")
    );
    assert_eq!(
        text(&not_run.attributes, "hookhost.hook.not_run").as_deref(),
        Some("matcher")
    );
    blocking_hook_span_matches_the_log(&hooks, a, &p);
    // Never a payload value.
    let raw = format!("{:?}", got.lock().unwrap());
    assert!(!raw.contains("SECRETARG"), "a payload value was exported");
    // The resource and the headers come from the standard variables.
    let (headers, request) = &got.lock().unwrap()[0];
    let resource = request.resource_spans[0].resource.as_ref().unwrap();
    assert_eq!(
        text(&resource.attributes, "service.name").as_deref(),
        Some("hookhost")
    );
    assert_eq!(
        text(&resource.attributes, "deployment.environment").as_deref(),
        Some("test")
    );
    assert!(
        headers.contains(&("x-team".into(), "hooks team".into())),
        "{headers:?}"
    );
    assert!(headers.contains(&("content-type".into(), "application/x-protobuf".into())));
}

/// The blocking hook's span (`PreToolUse[1]`) carries the decision log's values for it.
fn blocking_hook_span_matches_the_log(hooks: &[&Span], a: &[KeyValue], p: &Project) {
    let blocker = hooks
        .iter()
        .find(|h| h.name == "hookhost.hook PreToolUse[1]")
        .unwrap();
    let b = &blocker.attributes;
    assert_eq!(int(b, "hookhost.hook.index"), Some(1));
    assert_eq!(text(b, "hookhost.hook.kind").as_deref(), Some("shell"));
    // The same values as the decision log's line for the event.
    let log = std::fs::read_to_string(p.home.path().join("hookhost-log/decisions.jsonl")).unwrap();
    let line: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(
        text(a, "hookhost.event.id"),
        line["id"].as_str().map(String::from)
    );
    let logged = &line["hooks"][1];
    for (attr_name, field) in [
        ("hookhost.hook.trust", "trust"),
        ("hookhost.hook.scope", "scope"),
        ("hookhost.hook.output.sha256", "output_sha256"),
        ("hookhost.hook.row", "row"),
    ] {
        assert_eq!(
            text(b, attr_name),
            logged[field].as_str().map(String::from),
            "{field}"
        );
    }
    assert_eq!(text(b, "hookhost.hook.outcome").as_deref(), Some("block"));
    assert_eq!(int(b, "process.exit.code"), Some(2));
    assert!(
        text(b, "code.file.path")
            .unwrap()
            .ends_with(".coding-agent/hooks.json")
    );
}

#[test]
fn hook_for_claude_exports_and_its_answer_is_unchanged() {
    let p = project();
    let payload = json!({"session_id": "s-claude", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": p.path()})
    .to_string();
    let args = ["hook", "--for", "claude", "--trust", "all"];
    let quiet = hookhost(&p, &args, &[], &payload);
    let (url, got) = receiver(false);
    let traced = hookhost(
        &p,
        &args,
        &[
            (
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                &format!("{url}/v1/traces"),
            ),
            ("OTEL_SERVICE_NAME", "my-hooks"),
        ],
        &payload,
    );
    assert_eq!(traced.status.code(), quiet.status.code());
    assert_eq!(timeless(&traced.stdout), timeless(&quiet.stdout));
    let all = wait_for(&got, 1);
    let event = all
        .iter()
        .find(|s| s.name == "hookhost.event PreToolUse")
        .unwrap();
    assert_eq!(
        text(&event.attributes, "session.id").as_deref(),
        Some("s-claude")
    );
    assert_eq!(
        text(&event.attributes, "hookhost.agent").as_deref(),
        Some("claude")
    );
    assert!(
        event.parent_span_id.is_empty(),
        "no TRACEPARENT: a root span"
    );
    let resource = got.lock().unwrap()[0].1.resource_spans[0]
        .resource
        .clone()
        .unwrap();
    assert_eq!(
        text(&resource.attributes, "service.name").as_deref(),
        Some("my-hooks")
    );
}

#[test]
fn a_collector_that_refuses_or_hangs_changes_nothing_and_is_bounded() {
    let p = project();
    let quiet = run_rm(&p, &[]);
    let refused = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let (hanging, _got) = receiver(true);
    for (url, timeout) in [(refused.as_str(), "10000"), (hanging.as_str(), "10000")] {
        let start = Instant::now();
        let out = run_rm(
            &p,
            &[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", url),
                ("OTEL_EXPORTER_OTLP_TIMEOUT", timeout),
            ],
        );
        let took = start.elapsed();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(out.status.code(), quiet.status.code());
        assert_eq!(timeless(&out.stdout), timeless(&quiet.stdout));
        // The flush waits 2 s at most (generous margin for a loaded machine).
        assert!(took < Duration::from_secs(8), "{url}: took {took:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.matches("spans not exported").count(),
            1,
            "{url}: {stderr}"
        );
    }
}

#[test]
fn a_bad_endpoint_says_which_variable_and_changes_nothing() {
    let p = project();
    let quiet = run_rm(&p, &[]);
    let out = run_rm(&p, &[("OTEL_EXPORTER_OTLP_ENDPOINT", "localhost:4318")]);
    assert_eq!(out.status.code(), quiet.status.code());
    assert_eq!(timeless(&out.stdout), timeless(&quiet.stdout));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("OTEL_EXPORTER_OTLP_ENDPOINT=\"localhost:4318\""),
        "{stderr}"
    );
    assert!(stderr.contains("http://localhost:4318"), "{stderr}");
}

#[test]
fn nothing_is_sent_without_the_variables_or_when_disabled() {
    let p = project();
    let (url, got) = receiver(false);
    // An endpoint only under a name hookhost does not read, and a disabled SDK.
    run_rm(&p, &[("OTLP_ENDPOINT", &url)]);
    run_rm(
        &p,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &url),
            ("OTEL_SDK_DISABLED", "true"),
        ],
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(got.lock().unwrap().is_empty());
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Output without its timings (digits and the padding around them), which differ run to run.
fn timeless(out: &[u8]) -> String {
    String::from_utf8_lossy(out)
        .chars()
        .filter(|c| !c.is_ascii_digit() && *c != ' ')
        .collect()
}
