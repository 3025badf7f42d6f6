"""``convert``'s worker pool and progress (bpy-free), with a fake worker that speaks the protocol: one bad file
fails alone, a crash and a hang replace the worker (the hang after --timeout, its .partial removed), workers are
recycled every K files, no worker at all is a start error; the progress bar and the per-file lines."""

from __future__ import annotations

import io
import os
import pathlib
import sys
import textwrap

import pytest

from testkit import submodule

plan = submodule("io.convert.plan")
pool_module = submodule("io.convert.pool")
protocol = submodule("io.convert.protocol")
publish = submodule("io.convert.publish")
progress = submodule("io.convert.progress")
severity = submodule("io.diagnostics").Severity

FAKE = textwrap.dedent(
    """
    import json, os, sys, time
    MARK = {mark!r}
    print("Blender-like noise on stdout", flush=True)
    print(MARK + json.dumps({{"ready": True}}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        name = os.path.basename(job["input"])
        once = job["output"] + ".failed-once"
        if name.startswith("crash") or (name.startswith("oncecrash") and not os.path.exists(once)):
            if name.startswith("once"):
                open(once, "w").close()
            print("about to crash", file=sys.stderr, flush=True)
            os._exit(3)
        if name.startswith("hang"):
            os.makedirs(job["output"] + ".partial-by-fake", exist_ok=True)
            time.sleep(60)
        status = "failed" if name.startswith("bad") else "converted"
        answer = {{"status": status, "counts": {{"bodies": 1}}, "diagnostics": [], "pid": os.getpid()}}
        if name.startswith("breaks") or (name.startswith("oncebreaks") and not os.path.exists(once)):
            if name.startswith("once"):
                open(once, "w").close()
            answer["broken"] = "ReferenceError: StructRNA of type Scene has been removed"
            print(MARK + json.dumps(answer), flush=True)
            break
        print(MARK + json.dumps(answer), flush=True)
    """
)


@pytest.fixture
def fake(tmp_path) -> list[str]:
    script = tmp_path / "fake_worker.py"
    script.write_text(FAKE.format(mark=protocol.MARK))
    return [sys.executable, str(script)]


def _jobs(tmp_path: pathlib.Path, names: list[str]) -> list:
    return [plan.Job(tmp_path / "in" / n, tmp_path / "out" / n, n) for n in names]


def _run(command, jobs, slots=1, timeout=30.0, recycle=0):
    results, started = {}, []

    def on_event(kind, job, result):
        if kind == "start":
            started.append(job.key)
        else:
            results[job.key] = result

    pool_module.Pool(command, slots, timeout, recycle, "2026", False).run(jobs, on_event)
    return results, started


def test_a_crash_fails_one_file_and_the_batch_goes_on(tmp_path, fake):
    results, started = _run(fake, _jobs(tmp_path, ["a.gltf", "crash.gltf", "bad.gltf", "b.gltf"]))
    assert started == ["a.gltf", "crash.gltf", "bad.gltf", "b.gltf"]
    assert {k: r["status"] for k, r in results.items()} == {
        "a.gltf": "converted",
        "crash.gltf": "failed",
        "bad.gltf": "failed",
        "b.gltf": "converted",
    }
    (diag,) = results["crash.gltf"]["diagnostics"]  # crashed again in the new worker: the file is the cause
    assert diag["code"] == protocol.WORKER_CRASHED and "about to crash" in diag["message"]
    assert results["a.gltf"]["pid"] != results["b.gltf"]["pid"]  # replaced after the crash


def test_a_file_that_crashed_or_broke_its_worker_once_is_retried_first_by_a_new_worker(tmp_path, fake):
    (tmp_path / "out").mkdir()
    names = ["a.gltf", "oncecrash.gltf", "b.gltf", "oncebreaks.gltf", "c.gltf"]
    results, started = _run(fake, _jobs(tmp_path, names))
    assert started == names  # a retry is not a second start
    assert {k: r["status"] for k, r in results.items()} == dict.fromkeys(names, "converted")
    for name in ("oncecrash.gltf", "oncebreaks.gltf"):
        (note,) = results[name]["diagnostics"]
        assert (note["code"], note["severity"]) == (protocol.RETRIED, "info")
    assert "about to crash" in results["oncecrash.gltf"]["diagnostics"][0]["message"]
    assert "StructRNA" in results["oncebreaks.gltf"]["diagnostics"][0]["message"]
    pids = [results[n]["pid"] for n in names]
    assert pids[0] != pids[1] and pids[2] != pids[3]  # the retries ran in new workers


def test_a_file_that_breaks_every_worker_is_reported_once_and_the_batch_goes_on(tmp_path, fake):
    (tmp_path / "out").mkdir()
    results, _ = _run(fake, _jobs(tmp_path, ["breaks.gltf", "a.gltf"]))
    assert results["a.gltf"]["status"] == "converted"
    assert results["breaks.gltf"]["status"] == "warnings"  # converted, but Blender was broken after it twice
    (diag,) = results["breaks.gltf"]["diagnostics"]
    assert (diag["code"], diag["severity"]) == (protocol.WORKER_BROKEN, "warning")
    assert results["breaks.gltf"]["pid"] != results["a.gltf"]["pid"]


def test_a_hang_is_killed_after_the_timeout_and_its_partial_output_removed(tmp_path, fake, monkeypatch):
    monkeypatch.setattr(publish, "partial_path", lambda output: output.with_name(output.name + ".partial-by-fake"))
    (tmp_path / "out").mkdir()
    results, _ = _run(fake, _jobs(tmp_path, ["hang.gltf", "a.gltf"]), timeout=1.0)
    assert [d["code"] for d in results["hang.gltf"]["diagnostics"]] == [protocol.TIMEOUT]
    assert results["a.gltf"]["status"] == "converted"
    assert list((tmp_path / "out").iterdir()) == []


def test_workers_are_recycled_every_k_files_and_slots_share_the_work(tmp_path, fake):
    names = [f"f{i}.gltf" for i in range(6)]
    results, _ = _run(fake, _jobs(tmp_path, names), recycle=2)
    pids = [results[n]["pid"] for n in names]
    assert len(set(pids)) == 3 and pids[0] == pids[1] and pids[2] == pids[3]
    results, _ = _run(fake, _jobs(tmp_path, names), slots=2)
    assert len({r["pid"] for r in results.values()}) == 2 and len(results) == 6


AHEAD_FAKE = textwrap.dedent(
    """
    import json, os, select, sys, time
    MARK = {mark!r}
    print(MARK + json.dumps({{"ready": True}}), flush=True)
    buffer = b""
    while True:
        while b"\\n" not in buffer:
            chunk = os.read(0, 65536)
            if not chunk:
                sys.exit(0)
            buffer += chunk
        line, buffer = buffer.split(b"\\n", 1)
        time.sleep(0.3)  # converting: the driver has had time to send more
        ahead = b"\\n" in buffer or bool(select.select([0], [], [], 0)[0])
        answer = {{"status": "converted", "counts": {{}}, "diagnostics": [], "ahead": ahead, "pid": os.getpid()}}
        print(MARK + json.dumps(answer), flush=True)
    """
)


def test_the_next_job_is_already_in_the_workers_stdin_when_it_answers(tmp_path):
    """A worker no longer waits for the driver between files (one thread wake-up per file on a busy machine)."""
    script = tmp_path / "ahead_worker.py"
    script.write_text(AHEAD_FAKE.format(mark=protocol.MARK))
    names = ["a.gltf", "b.gltf", "c.gltf"]
    results, started = _run([sys.executable, str(script)], _jobs(tmp_path, names))
    assert started == names
    assert [results[n]["ahead"] for n in names] == [True, True, False]
    assert len({results[n]["pid"] for n in names}) == 1


def test_several_workers_get_disjoint_cpus_one_worker_all():
    cpus = pool_module.worker_cpus
    assert cpus(0, 1) is None
    available = sorted(getattr(os, "sched_getaffinity", lambda _: {0})(0))
    if len(available) < 2:
        pytest.skip("one CPU: nothing to share out")
    shares = [cpus(i, 2) for i in range(2)]
    assert sorted(c for share in shares for c in share) == available and not set(shares[0]) & set(shares[1])
    assert [cpus(i, len(available) + 1) for i in range(len(available) + 1)][-1] == [available[0]]


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity API")
def test_each_of_two_workers_runs_on_its_own_cpus(tmp_path):
    script = tmp_path / "affinity_worker.py"
    script.write_text(
        FAKE.format(mark=protocol.MARK).replace(
            '"pid": os.getpid()}',
            '"pid": os.getpid(), "cpus": sorted(os.sched_getaffinity(0)), '
            '"env": os.environ.get("GLTF_PHYSICS_WORKER_CPUS")}',
        )
    )
    names = [f"f{i}.gltf" for i in range(6)]
    results, _ = _run([sys.executable, str(script)], _jobs(tmp_path, names), slots=2)
    by_pid = {r["pid"]: (tuple(r["cpus"]), r["env"]) for r in results.values()}
    if len(os.sched_getaffinity(0)) >= 2:
        assert len(by_pid) == 2
        (a, env_a), (b, env_b) = by_pid.values()
        assert not set(a) & set(b) and env_a == ",".join(map(str, a)) and env_b == ",".join(map(str, b))
    single, _ = _run([sys.executable, str(script)], _jobs(tmp_path, names[:2]))
    assert {r["env"] for r in single.values()} == {None}  # one worker: every CPU, nothing pinned


def test_no_worker_at_all_is_a_start_error(tmp_path):
    command = [sys.executable, "-c", "import sys; print('no bpy here', file=sys.stderr); sys.exit(1)"]
    with pytest.raises(pool_module.StartError, match="no bpy here"):
        _run(command, _jobs(tmp_path, ["a.gltf", "b.gltf"]))


def test_worker_commands():
    python = pool_module.worker_command(None, "/venv/bin/python")
    assert python[:2] == ["/venv/bin/python", "-P"] and python[2].endswith("bootstrap.py")
    blender = pool_module.worker_command("/opt/blender/blender", "unused")
    assert blender[:4] == ["/opt/blender/blender", "--background", "--factory-startup", "--python"]
    assert blender[-2] == "--" and pathlib.Path(blender[-1], "blender_manifest.toml").is_file()


def test_progress_bar_on_a_terminal_and_lines_otherwise():
    stream = io.StringIO()
    bar = progress.Progress(2, stream, tty=True)
    bar.started("lib/a.glb")
    assert "0/2" in stream.getvalue() and "ETA" in stream.getvalue() and "lib/a.glb" in stream.getvalue()
    failed = {
        "status": "failed",
        "diagnostics": [protocol.diag("read", severity.ERROR, "FILE_INVALID_JSON", "", "bad")],
    }
    bar.finished("lib/a.glb", failed)
    bar.finished("lib/b.glb", {"status": "skipped"})
    text = stream.getvalue()
    assert "\r\x1b[K" in text and "files/s" in text and "2/2" in text
    assert "FAILED lib/a.glb\n    ERROR FILE_INVALID_JSON at /: bad" in text
    assert "skipped lib/b.glb" not in text  # only problems leave a line above the bar
    assert bar.summary() == "written 0 (0 converted, 0 with warnings, 0 with losses), failed 1, skipped 1 in 0:00"

    plain = io.StringIO()
    lines = progress.Progress(1, plain, tty=False)
    lines.finished("a.glb", {"status": "converted", "seconds": 0.5, "counts": {"bodies": 2}})
    assert plain.getvalue() == "[1/1] ok a.glb (0.50 s; 2 bodies, 0 colliders, 0 joints, 0 triggers)\n"
    assert "\r" not in plain.getvalue()


def test_usage_errors_exit_2_before_any_worker(tmp_path, capsys):
    driver = submodule("io.convert.driver")
    assert driver.main(["convert", str(tmp_path / "missing.gltf"), "-o", str(tmp_path)], "t", None, "x") == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert driver.main(["convert", str(tmp_path), "-o", str(tmp_path / "o"), "--shard", "4/3"], "t", None, "x") == 2
    assert driver.main(["convert", str(tmp_path), "-o", str(tmp_path / "o"), "--jobs", "0"], "t", None, "x") == 2


def test_progress_lines_escape_control_characters_and_surrogates():
    """A file name or a diagnostic with a newline, an ANSI escape or a lone surrogate cannot forge or colour lines
    (issue 11 item 9, as for validate / migrate)."""
    plain = io.StringIO()
    lines = progress.Progress(1, plain, tty=False)
    hostile = "x\nERROR forged\x1b[31m\ud800.glb"
    failed = {
        "status": "failed",
        "diagnostics": [protocol.diag("read", severity.ERROR, "FILE_INVALID_JSON", "/a\nb", "bad\x1b[2J\ud800")],
    }
    lines.finished(hostile, failed)
    text = plain.getvalue()
    assert text.count("\n") == 2 and "\x1b" not in text and "\ud800" not in text
    assert "\\n" in text and "\\x1b" in text and "\\ud800" in text
    text.encode("utf-8")  # writable on any UTF-8 console


def test_blender_or_python_choose_the_workers_command(tmp_path):
    import argparse

    parser = argparse.ArgumentParser()
    pool_module.add_worker_arguments(parser, "run workers")
    chosen = pool_module.chosen_worker(parser.parse_args([]), None, "/venv/bin/python")
    assert chosen[:2] == ["/venv/bin/python", "-P"]
    chosen = pool_module.chosen_worker(parser.parse_args(["--python", sys.executable]), "/opt/blender", None)
    assert chosen[:2] == [os.path.abspath(sys.executable), "-P"]  # the named Python wins over the caller's Blender
    chosen = pool_module.chosen_worker(parser.parse_args(["--blender", sys.executable]), None, "/venv/bin/python")
    assert chosen[1:3] == ["--background", "--factory-startup"]
    assert pool_module.chosen_worker(parser.parse_args(["--python", str(tmp_path / "nope")]), None, None) == (
        f"--python {str(tmp_path / 'nope')!r}: no such executable"
    )
    with pytest.raises(SystemExit):
        parser.parse_args(["--python", "a", "--blender", "b"])


def test_a_worker_that_cannot_be_run_is_a_start_error_not_a_hang(tmp_path):
    with pytest.raises(pool_module.StartError, match="cannot run"):
        _run([str(tmp_path / "not-a-program")], _jobs(tmp_path, ["a.gltf"]))
