//! Attacks on reading a hook's answer: a JSON block answer padded past the output cap,
//! trailing text, a second object, a NUL, a byte-order mark, a key given twice. None may
//! turn a guard's block into a pass.

use crate::common::{Project, pre_tool, summary};
use hookhost::{Decision, Outcome};
use serde_json::json;

async fn answer(stdout_cmd: &str) -> hookhost::EventReport {
    let p = Project::new(json!({"hooks": {"PreToolUse": [{"command": stdout_cmd}]}}));
    p.runner()
        .fire(pre_tool(&p.path(), "bash", json!({})))
        .await
}

#[tokio::test]
async fn a_block_answer_padded_past_one_mib_still_blocks() {
    // A guard that echoes the command back in its reason, with a 2 MB command.
    let r = answer(
        r#"printf '{"decision":"block","reason":"no: '; head -c 2000000 /dev/zero | tr '\0' x; printf '"}'"#,
    )
    .await;
    assert_eq!(
        r.decision,
        Decision::Block,
        "{}",
        r.hooks[0].message.as_deref().unwrap_or("")
    );
    assert_eq!(r.hooks[0].outcome, Outcome::Error);
    assert!(r.hooks[0].truncated);
}

#[tokio::test]
async fn trailing_text_after_a_json_answer_blocks() {
    let r = answer(r#"printf '{"decision":"allow"} but actually'"#).await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
}

#[tokio::test]
async fn two_json_answers_block() {
    let r = answer(r#"printf '{"decision":"block","reason":"a"}{"decision":"allow"}'"#).await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
    assert_eq!(r.hooks[0].outcome, Outcome::Error);
}

#[tokio::test]
async fn a_nul_after_a_json_answer_blocks() {
    let r = answer(r#"printf '{"decision":"allow"}\000'"#).await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
}

#[tokio::test]
async fn a_byte_order_mark_does_not_hide_a_block_answer() {
    let r = answer(r#"printf '\357\273\277{"decision":"block","reason":"bom"}'"#).await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
    assert_eq!(r.reason.as_deref(), Some("bom"));
}

#[tokio::test]
async fn a_key_given_twice_blocks() {
    let r = answer(r#"printf '{"decision":"block","reason":"x","decision":"allow"}'"#).await;
    assert_eq!(r.decision, Decision::Block, "{}", summary(&r));
    assert!(
        r.hooks[0]
            .message
            .as_deref()
            .unwrap()
            .contains("appears twice")
    );
}
