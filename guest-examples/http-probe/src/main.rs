//! A test guest for outgoing HTTP (`tests/wasm_http.rs`), built for wasm32-wasip2:
//! `http-probe URL` POSTs the payload to URL with `authorization: Bearer ${secret:TOKEN}`,
//! prints every header value and body it can observe (what it sent and what came back) on
//! stdout, then blocks with the answer's `reason` when the answer says `"block"`. A failed
//! request prints `err: CODE` and exits 3 (a warning).

#[cfg(all(target_os = "wasi", target_env = "p2"))]
fn main() {
    use hookhost_guest::http::{post_json, secret};
    let hook = hookhost_guest::Hook::read();
    let url = std::env::args().nth(1).unwrap_or_default();
    let auth = format!("Bearer {}", secret("TOKEN"));
    let body = hookhost_guest::serde_json::to_vec(hook.payload()).unwrap_or_default();
    println!("sent authorization: {auth}");
    match post_json(&url, &body, &[("authorization", &auth)]) {
        Ok(answer) => {
            println!("status: {}", answer.status);
            for (name, value) in &answer.headers {
                println!("header {name}: {}", String::from_utf8_lossy(value));
            }
            let text = String::from_utf8_lossy(&answer.body).into_owned();
            println!("body: {text}");
            let v: hookhost_guest::serde_json::Value = hookhost_guest::serde_json::from_str(&text).unwrap_or_default();
            if v["decision"] == "block" {
                hookhost_guest::block(v["reason"].as_str().unwrap_or("the policy server said block"));
            }
            hookhost_guest::pass();
        }
        Err(e) => {
            println!("err: {e}");
            hookhost_guest::exit(3);
        }
    }
}

/// Preview 1 has no HTTP: this guest is only meaningful as a component.
#[cfg(not(all(target_os = "wasi", target_env = "p2")))]
fn main() {
    hookhost_guest::fail("http-probe needs wasm32-wasip2");
}
