"""The in-process Runner against real shell and wasm hooks and Python hooks."""

import asyncio
import subprocess
import threading

import hookhost
from hookhost import block, force, pass_


def guard(project):
    project.hooks({
        "PreToolUse": [
            {"command": "grep -q sudo && { echo 'no sudo' >&2; exit 2; }; exit 0", "match": "bash"},
            {"command": ".coding-agent/guard.wasm", "match": "bash"},
        ]
    })
    project.guest("bash-guard", ".coding-agent/guard.wasm")


def test_shell_and_wasm_hooks_decide(project):
    guard(project)
    r = project.runner()
    ok = r.pre_tool_use("bash", {"command": "ls"})
    assert ok.decision == "pass" and not ok.blocked
    assert [h.kind for h in ok.hooks] == ["shell", "wasm"]
    sudo = r.pre_tool_use("bash", {"command": "sudo ls"})
    assert sudo.blocked and sudo.reason == "no sudo"
    rm = r.pre_tool_use("bash", {"command": "rm -rf /"})
    assert rm.blocked and "bash-guard" in rm.reason
    assert rm.hooks[1].kind == "wasm" and rm.hooks[1].outcome == "block"
    # Another tool: no hook matches.
    assert r.pre_tool_use("read_file", {"path": "x"}).hooks == []


def test_the_report_is_the_run_json_object(project):
    guard(project)
    r = project.runner()
    mine = r.pre_tool_use("bash", {"command": "sudo x"}, session="s").raw
    out = subprocess.run(
        ["hookhost", "run", "PreToolUse", "--project", str(project.path), "--tool", "bash",
         "--args", '{"command":"sudo x"}', "--session", "s", "--json"],
        capture_output=True, env=project.env(), check=False,
    )
    theirs = __import__("json").loads(out.stdout)
    for rep in (mine, theirs):
        for h in rep["hooks"]:
            h["durationMs"] = 0
    assert mine == theirs
    assert out.returncode == 2


def test_python_hooks_go_through_the_decision_table(project):
    r = project.runner()
    seen = []

    def no_env(p):
        seen.append(p["toolArgs"]["path"])
        if p["toolArgs"]["path"].endswith(".env"):
            return block("secrets")
        return pass_(updated_input={"path": "safe/" + p["toolArgs"]["path"]}, additional_context="rewrote")

    hid = r.register("PreToolUse", "write_file", no_env)
    assert hid.startswith("no_env#")
    blocked = r.pre_tool_use("write_file", {"path": ".env"})
    assert blocked.blocked and blocked.reason == "secrets"
    assert blocked.hooks[0].kind == "fn" and blocked.hooks[0].command == hid
    passed = r.pre_tool_use("write_file", {"path": "a.txt"})
    assert passed.decision == "pass"
    assert passed.updated_args == {"path": "safe/a.txt"}
    assert passed.additional_context == ["rewrote"]
    assert r.pre_tool_use("bash", {}).hooks == []
    assert seen == [".env", "a.txt"]
    assert r.unregister(hid) and not r.unregister(hid)
    assert r.pre_tool_use("write_file", {"path": ".env"}).decision == "pass"


def test_a_raising_hook_is_a_crash_and_on_error_block_fails_closed(project):
    r = project.runner()

    def boom(p):
        raise RuntimeError("boom")

    r.register("PostToolUse", None, boom)
    post = r.post_tool_use("bash", {"command": "ls"}, result="ok")
    assert post.decision == "pass"
    assert post.hooks[0].outcome == "warn" and "boom" in post.hooks[0].message
    r.register("PreToolUse", None, boom, on_error="block")
    pre = r.pre_tool_use("bash", {"command": "ls"})
    assert pre.blocked, pre


def test_every_event_has_its_method(project):
    project.hooks({"Stop": [{"command": "echo 'not done' && exit 2"}]})
    r = project.runner()
    prompts = []
    r.register("UserPromptSubmit", None, lambda p: prompts.append(p["prompt"]))
    r.register("SessionStart", None, lambda p: pass_(additional_context="from " + p["source"]))
    assert r.session_start("resume").additional_context == ["from resume"]
    assert r.user_prompt_submit("hello").decision == "pass"
    assert prompts == ["hello"]
    stop = r.stop()
    assert stop.forced and stop.reason == "not done"
    r.register("SubagentStop", None, lambda p: force("more") if not p["stopHookActive"] else None)
    assert r.subagent_stop().forced
    assert r.subagent_stop(stop_hook_active=True).decision == "pass"
    for report in (r.pre_compact("auto"), r.session_end("exit"), r.post_tool_use("bash", {}, "x", error=True)):
        assert report.decision == "pass"


def test_asyncio_fire_and_threads(project):
    guard(project)
    r = project.runner()

    async def main():
        return await asyncio.gather(*[
            r.fire("PreToolUse", tool="bash", args={"command": c})
            for c in ["ls", "sudo ls", "rm -rf /", "echo"]
        ])

    reports = asyncio.run(main())
    assert [x.decision for x in reports] == ["pass", "block", "block", "pass"]
    # Hooks run with the GIL released: Python threads fire in parallel without error.
    errors = []

    def worker():
        try:
            for _ in range(20):
                assert r.pre_tool_use("bash", {"command": "sudo x"}).blocked
        except Exception as e:  # pragma: no cover
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_bad_input_is_a_clear_error(project):
    r = project.runner()
    import pytest

    with pytest.raises(ValueError, match="Nope"):
        r.fire_sync("Nope")
    with pytest.raises(ValueError, match="regex"):
        r.register("PreToolUse", "(", lambda p: None)
    with pytest.raises(ValueError, match="applies to the tool events"):
        r.register("Stop", "bash", lambda p: None)
    with pytest.raises(ValueError, match="not usable"):
        hookhost.Runner("/no/such/dir")


def test_the_list_and_the_cli_in_the_wheel(project):
    guard(project)
    assert [h["kind"] for h in project.runner().list()] == ["shell", "wasm"]
    out = subprocess.run(["hookhost", "list", "--project", str(project.path), "--json"],
                         capture_output=True, env=project.env(), check=True)
    assert b'"wasm"' in out.stdout


def test_the_default_policy_never_runs_an_untrusted_project_shell_hook_as_the_user(project, tmp_path):
    import hookhost

    marker = tmp_path / "ran-as-you"
    project.hooks({"PreToolUse": [{"command": f"cat >/dev/null; touch '{marker}'"}]})
    r = hookhost.Runner(str(project.path), home=str(project.home), cache_dir=str(project.cache))
    report = r.pre_tool_use("bash", {"command": "ls"})
    assert not marker.exists(), "a cloned repository's shell hook ran as the user"
    # In the kernel sandbox (its `touch` outside the project fails), or not at all where
    # there is none (docs/sandbox.md).
    hook = report.raw["hooks"][0]
    assert hook.get("sandbox") or hook["outcome"] == "skipped", report.raw
    assert report.raw["untrusted"] == ["PreToolUse[0]"]


def test_c7_a_python_hook_answering_after_its_timeout_is_a_timeout(project):
    import time

    r = project.runner()

    def slow(p):
        time.sleep(2.5)
        return pass_()

    # A Python function holds its thread: the timeout is seen when it returns, and then the
    # late answer must not count (it would be a pass).
    r.register("PreToolUse", None, slow, timeout_ms=500, on_error="block")
    pre = r.pre_tool_use("bash", {"command": "ls"})
    assert pre.hooks[0].outcome == "timeout", pre.raw
    assert pre.blocked, pre.raw
    # Whatever it answered: a late block is a timeout too (and still blocks), a late pass
    # elsewhere is a timeout warning, not a pass.
    r.register("PostToolUse", None, slow, timeout_ms=500)
    post = r.post_tool_use("bash", {"command": "ls"}, result="ok")
    assert post.hooks[0].outcome == "timeout", post.raw
    # A hook that answers in time is unaffected.
    quick = project.runner()
    quick.register("PreToolUse", None, lambda p: block("no"), timeout_ms=60_000)
    assert quick.pre_tool_use("bash", {}).hooks[0].outcome == "block"
