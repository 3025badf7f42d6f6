"""The independent engine (Babylon.js Physics V2 + Havok, headless in Node) from Python: play a written glTF file
and read every node's end state (issue 33 item 3; docs/testing.md).

``make tests/engine/node_modules/.ok`` installs the pinned engine (``npm ci`` from ``tests/engine/package-lock.json``)
into the ignored ``tests/engine/node_modules``; without Node or that folder ``available()`` says why and the engine
tests skip with that one line.  The engine runs in a subprocess with a timeout: a hung or crashed run fails the test
that asked for it with the engine's own message, and nothing else.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
import subprocess

from testkit import ROOT

ENGINE = ROOT / "tests" / "engine"
PLAY = ENGINE / "play.mjs"
PACKAGES = ENGINE / "node_modules"
TIMEOUT = 120.0  # seconds for one run (the machines are shared; a normal run takes well under that)


def available() -> str | None:
    """None when the engine can run, else why not (one line for the skip)."""
    if shutil.which("node") is None:
        return "independent engine: node is not on PATH"
    for package in ("@babylonjs/core", "@babylonjs/havok"):
        if not (PACKAGES / package / "package.json").is_file():
            missing = f"{PACKAGES.relative_to(ROOT)}/{package}"
            return f"independent engine: {missing} is missing (run `make tests/engine/node_modules/.ok`)"
    return None


@dataclasses.dataclass(frozen=True)
class NodeState:
    """One node's start and end pose in glTF's Y-up world: positions (x, y, z), rotations as quaternions
    (x, y, z, w)."""

    index: int
    name: str | None
    body: str | None  # "dynamic" / "kinematic" / "static", None for a node without physics of its own
    position: tuple[float, float, float]
    rotation: tuple[float, float, float, float]
    start_position: tuple[float, float, float]
    start_rotation: tuple[float, float, float, float]


@dataclasses.dataclass(frozen=True)
class Run:
    """What the engine printed for one file: the nodes, and the loader's notes on what it approximated."""

    nodes: tuple[NodeState, ...]
    notes: tuple[str, ...]

    def by_name(self) -> dict[str, NodeState]:
        return {n.name: n for n in self.nodes if n.name is not None}


class EngineError(RuntimeError):
    """The engine could not play a file (its exit status and message)."""


def play(path: os.PathLike, seconds: float, hz: int = 60, timeout: float = TIMEOUT) -> Run:
    """Play ``path`` for ``seconds`` at ``hz`` steps a second; the end state of every node."""
    result = play_many([path], seconds, hz, timeout)[0]
    if isinstance(result, EngineError):
        raise result
    return result


def play_many(paths: list, seconds: float, hz: int = 60, timeout: float = TIMEOUT) -> list[Run | EngineError]:
    """Play each file in one engine process (each in a scene of its own): a ``Run`` per file, or the
    ``EngineError`` saying why that file did not play.  The whole batch shares one timeout."""
    command = ["node", str(PLAY), *(str(p) for p in paths), "--seconds", repr(float(seconds)), "--hz", str(int(hz))]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False, cwd=ENGINE)
    except subprocess.TimeoutExpired as error:
        raise EngineError(f"the engine did not finish {len(paths)} file(s) within {timeout:.0f} s") from error
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(lines) != len(paths):
        raise EngineError(f"the engine failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
    return [_run(line, done.returncode) for line in lines]


def _run(result: dict, status: int) -> Run | EngineError:
    if "error" in result:
        return EngineError(f"the engine failed on {result['file']} (exit {status}): {result['error']}")
    nodes = tuple(
        NodeState(
            n["index"],
            n["name"],
            n["body"],
            tuple(n["position"]),
            tuple(n["rotation"]),
            tuple(n["startPosition"]),
            tuple(n["startRotation"]),
        )
        for n in result["nodes"]
    )
    return Run(nodes, tuple(result["notes"]))


def blender_to_gltf_position(location) -> tuple[float, float, float]:
    """A Blender world location (Z-up) as glTF's (Y-up): (x, y, z) -> (x, z, -y)."""
    x, y, z = (float(c) for c in location)
    return (x, z, -y)


def blender_to_gltf_rotation(quaternion) -> tuple[float, float, float, float]:
    """A Blender world rotation (w, x, y, z) as a glTF quaternion [x, z, -y, w]."""
    w, x, y, z = (float(c) for c in quaternion)
    return (x, z, -y, w)


def distance(a, b) -> float:
    return math.dist(a, b)


def quaternion_multiply(a, b) -> tuple[float, float, float, float]:
    """The Hamilton product a·b of quaternions (x, y, z, w): b first, then a."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def turned(start, end) -> tuple[float, float, float, float]:
    """The world rotation that takes ``start`` to ``end`` (end · start⁻¹): how far a body turned, whatever way a
    mirrored node's rotation was split from its scale."""
    x, y, z, w = start
    return quaternion_multiply(end, (-x, -y, -z, w))


def angle_between(a, b) -> float:
    """The angle in degrees between two unit quaternions (x, y, z, w) (q and -q are the same rotation)."""
    dot = abs(sum(p * q for p, q in zip(a, b, strict=True)))
    return math.degrees(2.0 * math.acos(min(1.0, dot)))
