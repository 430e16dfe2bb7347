"""One run, medians and ratios: an event from Python through the package (one cached trivial
wasm hook; one in-process Python hook), through `hookhost serve` over a Unix socket, and by
spawning `hookhost run` per event. Needs the `hookhost` package installed and
HOOKHOST_TEST_GUESTS (the built example guests); HOOKHOST_BENCH_BIN picks the binary for
`serve` and `run` (default: the one in the package)."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hookhost
from hookhost._cli import binary


def timed(f, n):
    for _ in range(min(50, n)):
        f()
    samples = []
    for _ in range(n):
        t = time.perf_counter_ns()
        f()
        samples.append(time.perf_counter_ns() - t)
    return statistics.median(samples)


def fmt(ns):
    return f"{ns / 1e3:.1f} µs" if ns < 1e6 else f"{ns / 1e6:.2f} ms"


def main():
    exe = os.environ.get("HOOKHOST_BENCH_BIN") or binary()
    guests = Path(os.environ["HOOKHOST_TEST_GUESTS"])
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        proj, home, cache = d / "p", d / "home", d / "cache"
        for x in (proj / ".coding-agent", home, cache):
            x.mkdir(parents=True)
        shutil.copy(guests / "trivial.wasm", proj / ".coding-agent" / "t.wasm")
        (proj / ".coding-agent" / "hooks.json").write_text(json.dumps(
            {"hooks": {"PreToolUse": [{"command": ".coding-agent/t.wasm", "match": "bash"}]}}))
        env = {**os.environ, "HOME": str(home), "HOOKHOST_CACHE_DIR": str(cache)}
        args = {"command": "ls"}

        wasm_runner = hookhost.Runner(str(proj), home=str(home), cache_dir=str(cache))
        assert wasm_runner.pre_tool_use("bash", args).hooks[0].outcome == "pass"
        wasm = timed(lambda: wasm_runner.pre_tool_use("bash", args), 3000)

        bare = d / "bare"
        bare.mkdir()
        fn_runner = hookhost.Runner(str(bare), home=str(home), cache_dir=str(cache))
        fn_runner.register("PreToolUse", "bash", lambda p: None)
        assert fn_runner.pre_tool_use("bash", args).hooks[0].kind == "fn"
        fn = timed(lambda: fn_runner.pre_tool_use("bash", args), 5000)

        sock = str(d / "h.sock")
        server = subprocess.Popen([exe, "serve", "--project", str(proj), "--socket", sock,
                                   "--home", str(home)], env=env)
        try:
            for _ in range(1000):
                try:
                    client = hookhost.Client(sock)
                    break
                except OSError:
                    time.sleep(0.01)
            assert client.pre_tool_use("bash", args).hooks[0].outcome == "pass"
            served = timed(lambda: client.pre_tool_use("bash", args), 3000)
            client.shutdown()
            server.wait(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()

        cmd = [exe, "run", "PreToolUse", "--project", str(proj), "--tool", "bash", "--args", json.dumps(args)]
        run = timed(lambda: subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL), 40)

    print(f"\n| from Python ({sys.version.split()[0]}), one event, PreToolUse | median | vs `hookhost run` |")
    print("|---|---|---|")
    for name, ns in (("Runner.pre_tool_use, one cached trivial wasm hook", wasm),
                     ("Runner.pre_tool_use, one in-process Python hook", fn),
                     ("Client.pre_tool_use through `hookhost serve` (Unix socket), trivial wasm hook", served),
                     ("`hookhost run` per event (spawned), trivial wasm hook", run)):
        print(f"| {name} | {fmt(ns)} | {run / ns:.0f}x |")


if __name__ == "__main__":
    main()
