"""Worker processes of a ``convert`` run (bpy-free): N slots, each driving one Blender / bpy process at a time.

A slot starts its worker lazily (``bootstrap.py`` with a fresh ``BLENDER_USER_RESOURCES``), keeps ``AHEAD`` jobs
in its stdin (the worker goes on to the next file without waiting for the driver), waits for each answer at most
``timeout`` seconds, and replaces the worker after a crash, after a file that left its Blender broken (the
worker's ``broken`` answer), after a hang (killed, ``CONVERT_TIMEOUT``, its ``.partial`` output removed) and after
``recycle`` files (memory held by Blender between files is returned).

A file whose worker crashed or broke is converted once more, first thing, by a new worker: a crash or a broken
Blender may come from what earlier files left behind, and that file then converts (``CONVERT_RETRIED``, INFO). When
the new worker crashes or breaks on it too, the file is the cause: ``CONVERT_WORKER_CRASHED`` with the tail of the
worker's stderr, or the second result with ``CONVERT_WORKER_BROKEN``. A hang is not retried (it would cost another
``timeout``).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import pathlib
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

from ..diagnostics import Severity
from . import protocol as p
from . import publish
from .plan import Job

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE_DIR = HERE.parent.parent  # the extension's root folder (checkout or installed)
STARTUP_SECONDS = 120.0  # importing bpy and enabling the extension, on a busy machine
AHEAD = 2  # jobs in flight per worker: the one it converts and the next, already in its stdin
CPUS_VARIABLE = "GLTF_PHYSICS_WORKER_CPUS"  # read by bootstrap.py (keep the two names equal)
_TIMEOUT = object()


class StartError(RuntimeError):
    """No worker could be started (no bpy module in this Python, a Blender that does not run)."""


def add_worker_arguments(parser, what: str) -> None:
    """``--blender PATH`` / ``--python PATH``: which Blender runs the workers (default: this Python's bpy)."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--blender", metavar="PATH", help=f"{what} in this Blender executable (blender --background; 4.2 to 5.3)"
    )
    which.add_argument(
        "--python",
        metavar="PATH",
        help=f"{what} in this Python, which has the bpy module (a bpy environment: pip install bpy==5.3.0)",
    )


def chosen_worker(args, blender: str | None, python: str | None) -> list[str] | str:
    """The workers' command line from ``--blender`` / ``--python`` (they win over the caller's ``blender`` and
    ``python``), or the usage error when the named program is missing or not executable."""
    for flag, path in (("--blender", getattr(args, "blender", None)), ("--python", getattr(args, "python", None))):
        if path is None:
            continue
        found = shutil.which(path)
        if found is None:
            return f"{flag} {path!r}: no such executable"
        found = os.path.abspath(found)  # the workers run in their own folders
        return worker_command(found, None) if flag == "--blender" else worker_command(None, found)
    return worker_command(blender, python or sys.executable)


START_HINT = "(needs the bpy module in this Python, --python PATH of a Python that has it, or --blender PATH)"


def worker_command(blender: str | None, python: str | None) -> list[str]:
    """The command line of a worker: ``blender --background`` when an executable is given, else ``python``."""
    bootstrap = str(HERE / "bootstrap.py")
    if blender:
        return [blender, "--background", "--factory-startup", "--python", bootstrap, "--", str(PACKAGE_DIR)]
    return [python, "-P", bootstrap, str(PACKAGE_DIR)]


def worker_cpus(slot: int, slots: int) -> list[int] | None:
    """The CPUs the worker of ``slot`` may run on; None = all. With several workers each gets its own share of this
    process's CPUs: Blender's task scheduler starts one thread per CPU it may use, so two unpinned workers on two
    cores run four busy threads (docs/perf-history.md, "Where a run's time goes")."""
    if slots < 2 or not hasattr(os, "sched_getaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None
    return cpus[slot::slots] if slots <= len(cpus) else [cpus[slot % len(cpus)]]


class Worker:
    """One worker process; answers arrive through a reader thread."""

    def __init__(self, command: list[str], cpus: list[int] | None = None):
        self.home = pathlib.Path(tempfile.mkdtemp(prefix="gltf_physics_convert_"))
        self.log = (self.home / "stderr.log").open("w+b")
        # Blender's own temporary folder (blender_XXXX) goes in this one, removed by ``stop``: the worker leaves with
        # os._exit, so Blender never removes it itself (TMPDIR on Linux / macOS, TEMP / TMP on Windows)
        temporary = {name: str(self.home) for name in ("TMPDIR", "TEMP", "TMP")}
        env = dict(os.environ, BLENDER_USER_RESOURCES=str(self.home / "user"), **temporary)
        if cpus is not None:  # bootstrap applies it before importing bpy; set here too for any other command
            env[CPUS_VARIABLE] = ",".join(map(str, cpus))
        try:
            self.proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, env=env, cwd=self.home
            )
        except OSError as exc:  # not an executable, gone since it was chosen
            self.log.close()
            shutil.rmtree(self.home, ignore_errors=True)
            raise StartError(f"cannot run {command[0]}: {exc.strerror or exc}") from exc
        if cpus is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self.proc.pid, cpus)
        self.answers: queue.Queue = queue.Queue()
        self.files = 0  # answered
        self.sent = 0  # jobs written to its stdin
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for raw in self.proc.stdout:
            message = p.decode(raw.decode("utf-8", "replace"))
            if message is not None:
                self.answers.put(message)
        self.answers.put(None)  # end of stream: the worker exited

    def send(self, job: dict) -> bool:
        try:
            self.proc.stdin.write((json.dumps(job) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            return False
        return True

    def answer(self, timeout: float):
        """The next message, None when the worker died, ``_TIMEOUT`` after ``timeout`` seconds."""
        try:
            return self.answers.get(timeout=timeout)
        except queue.Empty:
            return _TIMEOUT

    def tail(self, lines: int = 12) -> str:
        with contextlib.suppress(OSError):
            self.log.flush()
            text = (self.home / "stderr.log").read_text(encoding="utf-8", errors="replace")
            return "\n".join(text.strip().splitlines()[-lines:])
        return ""

    def stop(self, kill: bool = False) -> None:
        """Close stdin (the worker finishes and exits) or kill it; remove its temporary folder."""
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        if kill:
            self.proc.kill()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.home, ignore_errors=True)


class Pool:
    """Run jobs on ``jobs`` slots; ``events`` receives ("start", job, None) and ("done", job, result)."""

    def __init__(
        self,
        command: list[str],
        slots: int,
        timeout: float,
        recycle: int,
        to: str,
        validate: bool,
        annotate: Callable[[Job], dict] | None = None,
        strict: bool = False,
    ):
        """``annotate(job)``: keys added to each job's line (``convert``: where the worker writes its stamp)."""
        self.command, self.slots, self.timeout, self.recycle = command, slots, timeout, recycle
        self.to, self.validate, self.annotate, self.strict = to, validate, annotate, strict
        self.todo: queue.Queue = queue.Queue()
        self.events: queue.Queue = queue.Queue()
        self.stopping = threading.Event()
        self.started_once = threading.Event()
        self.live: set[Worker] = set()
        self.lock = threading.Lock()
        self.failed_once: dict[str, str] = {}  # job key → what went wrong the first time (crash, broken Blender)

    def run(self, jobs: list[Job], on_event: Callable[[str, Job, dict | None], None]) -> None:
        """Convert every job; raises ``StartError`` when no worker ever started."""
        for job in jobs:
            self.todo.put(job)
        slots = min(self.slots, len(jobs))
        threads = [threading.Thread(target=self._slot, args=(i, slots), daemon=True) for i in range(slots)]
        for thread in threads:
            thread.start()
        remaining = len(jobs)
        try:
            while remaining:
                kind, job, result = self.events.get()
                if kind == "fatal":
                    raise StartError(result)
                on_event(kind, job, result)
                remaining -= kind == "done"
        except BaseException:  # start failure, Ctrl-C: workers are killed (their outputs are never partial)
            self.stopping.set()
            self._kill_all()
            raise
        finally:
            for thread in threads:
                thread.join(timeout=30)

    def _kill_all(self) -> None:
        with self.lock:
            live = list(self.live)
        for worker in live:
            with contextlib.suppress(OSError):
                worker.proc.kill()

    def _start(self, cpus: list[int] | None = None) -> Worker | None:
        try:
            worker = Worker(self.command, cpus)
        except StartError as exc:
            worker, message = None, str(exc)
        else:
            with self.lock:
                self.live.add(worker)
            first = worker.answer(max(STARTUP_SECONDS, self.timeout))
            if isinstance(first, dict) and first.get("ready"):
                self.started_once.set()
                return worker
            message = f"worker did not start ({' '.join(self.command[:2])} …): {worker.tail() or 'no output'}"
            self._retire(worker, kill=True)
        if not self.started_once.is_set():
            self.events.put(("fatal", None, message))
            self.stopping.set()
        return None

    def _retire(self, worker: Worker, kill: bool = False) -> None:
        worker.stop(kill=kill)
        with self.lock:
            self.live.discard(worker)

    def _slot(self, index: int, slots: int) -> None:
        """Feed one worker at a time, ``AHEAD`` jobs ahead: the worker reads the next job from its stdin as soon as
        it has answered, without waiting for this thread to be scheduled (on a busy machine that wait is noticeable
        per file). Jobs sent ahead of a file that crashed or hung go first to the next worker, in order."""
        worker, sent, retry = None, collections.deque(), collections.deque()
        cpus = worker_cpus(index, slots)
        try:
            while not self.stopping.is_set():
                worker = self._top_up(worker, sent, retry, cpus)
                if not sent:
                    return
                worker = self._one(worker, sent, retry)
        finally:
            if worker is not None:
                self._retire(worker)

    def _top_up(self, worker: Worker | None, sent: collections.deque, retry: collections.deque, cpus) -> Worker | None:
        """Send jobs until ``AHEAD`` are in flight (never more than the worker's ``recycle`` files)."""
        while len(sent) < AHEAD and not self.stopping.is_set():
            if worker is not None and self.recycle and worker.sent >= self.recycle:
                return worker
            if retry:
                job = retry.popleft()
            else:
                try:
                    job = self.todo.get_nowait()
                except queue.Empty:
                    return worker
            worker = worker or self._start(cpus)
            if worker is None:
                if not self.stopping.is_set():
                    self.events.put(("done", job, p.failure("worker", p.WORKER_CRASHED, "worker did not start")))
                continue
            line = job.to_json(self.to, self.validate) | (self.annotate(job) if self.annotate else {})
            if self.strict:  # convert --strict: a file whose physics lost anything fails (protocol.strict_gate)
                line["strict"] = True
            if not worker.send(line):  # its stdin is gone: it died
                retry.appendleft(job)
                if not sent:  # nothing to read an answer for: replace it now
                    self._retire(worker, kill=True)
                    worker = None
                return worker
            worker.sent += 1
            sent.append(job)
        return worker

    def _one(self, worker: Worker, sent: collections.deque, retry: collections.deque) -> Worker | None:
        """Wait for the answer to the oldest job in flight; the worker to go on with (None: replaced)."""
        job = sent.popleft()
        if job.key not in self.failed_once:
            self.events.put(("start", job, None))
        start = time.perf_counter()
        answer = worker.answer(self.timeout)
        seconds = time.perf_counter() - start
        if isinstance(answer, dict) and "status" in answer and "broken" not in answer:
            worker.files += 1
            self.events.put(("done", job, self._after_retry(job, answer)))
            if self.recycle and worker.files >= self.recycle:
                self._retire(worker)
                return None
            return worker
        retry.extendleft(reversed(sent))  # sent ahead, never started: the next worker converts them
        sent.clear()
        if isinstance(answer, dict) and "status" in answer:  # answered, but its Blender cannot go on
            self._retire(worker, kill=True)
            problem = f"Blender was broken after this file ({answer['broken']})"
            if self._retry_once(job, problem, retry):
                return None
            answer["diagnostics"] = [
                *answer.get("diagnostics", []),
                p.diag("worker", Severity.WARNING, p.WORKER_BROKEN, "", f"{problem}, in two workers"),
            ]
            if answer["status"] in (p.CONVERTED, p.WARNINGS):
                answer["status"] = p.status_of(answer["diagnostics"])
            self.events.put(("done", job, answer))
            return None
        if answer is _TIMEOUT:
            self._retire(worker, kill=True)
            result = p.failure("worker", p.TIMEOUT, f"no answer after {self.timeout:g} s: worker killed", seconds)
        else:
            tail = worker.tail()
            self._retire(worker, kill=True)
            publish.remove_partial(job.output)
            if self._retry_once(job, f"the worker died on this file: {tail}", retry):
                return None
            result = p.failure("worker", p.WORKER_CRASHED, f"the worker died on this file, twice: {tail}", seconds)
        publish.remove_partial(job.output)
        self.events.put(("done", job, result))
        return None

    def _retry_once(self, job: Job, problem: str, retry: collections.deque) -> bool:
        """Put ``job`` first for the next worker unless it was retried already; True when it was put back."""
        if job.key in self.failed_once:
            return False
        self.failed_once[job.key] = problem
        retry.appendleft(job)
        return True

    def _after_retry(self, job: Job, answer: dict) -> dict:
        """A retried file's answer, with an INFO saying what happened to its first worker."""
        problem = self.failed_once.get(job.key)
        if problem is not None:
            note = p.diag("worker", Severity.INFO, p.RETRIED, "", f"{problem}; converted again by a new worker")
            answer["diagnostics"] = [note, *answer.get("diagnostics", [])]
        return answer
