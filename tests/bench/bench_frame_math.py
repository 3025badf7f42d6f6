"""Benchmark (not a test): the fixed cost of the frame math per call (``io/gltf/nodes.py``, ``io/gltf/transforms.py``,
``io/mapping/values_to_gltf.py``) on the few matrices of a small file and on a large stack, optionally against an
earlier revision.

    .venv/bin/python -P tests/bench/bench_frame_math.py [--rev 50fa704] [--small 3] [--large 2000] [--repeat 5]

The small case is what one import or export of a unit fixture asks (a joint file: three or four nodes): numpy's
per-call set-up, not the arithmetic, is its cost. ``--rev`` loads that revision's files (``git archive``) as a second
package beside the working tree's and also checks that both give the same bits on every input. Times are the best
per-call CPU time (``time.process_time``) of ``--repeat`` rounds.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_tree(name: str, root: pathlib.Path):
    """The package at ``root`` imported under ``name`` (never with a repository root on sys.path)."""
    spec = importlib.util.spec_from_file_location(name, root / "__init__.py", submodule_search_locations=[str(root)])
    sys.modules[name] = importlib.util.module_from_spec(spec)
    return {
        "nodes": importlib.import_module(f"{name}.io.gltf.nodes"),
        "transforms": importlib.import_module(f"{name}.io.gltf.transforms"),
        "values": importlib.import_module(f"{name}.io.mapping.values_to_gltf"),
        "frames": importlib.import_module(f"{name}.io.gltf.node_frames"),
    }


def archive(rev: str, into: pathlib.Path) -> pathlib.Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True).stdout
    path = into / "tree.tar"
    path.write_bytes(data)
    with tarfile.open(path) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def matrices(count: int, seed: int = 3) -> np.ndarray:
    """Random world matrices (rotation, scale 0.5–2, translation); a few degenerate ones in large stacks."""
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(count, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    x, y, z, w = q.T
    rot = np.stack(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    ).transpose(2, 0, 1)
    out = np.zeros((count, 4, 4))
    out[:, :3, :3] = rot * rng.uniform(0.5, 2.0, size=(count, 1, 3))
    out[:, :3, 3] = rng.uniform(-10, 10, size=(count, 3))
    out[:, 3, 3] = 1.0
    if count >= 100:
        out[:5, :3, 0] = 0.0  # no X axis
        out[5:10] = np.nan
    return out


def node_dicts(nodes, m: np.ndarray) -> list[dict]:
    """glTF nodes of the matrices' TRS (``nodes.exact_trs_many`` of one tree; a matrix it cannot hold reads as the
    identity), each odd node the child of the one before it, as a joint file's bodies. Made once: every tree is timed
    on the same nodes."""
    with np.errstate(all="ignore"):
        t, q, s, ok = nodes.exact_trs_many(m)
    out = [
        {"translation": t[i], "rotation": q[i], "scale": s[i]} if ok[i] else {"translation": [0.0, 0.0, 0.0]}
        for i in range(len(m))
    ]
    for i in range(1, len(out), 2):
        out[i - 1]["children"] = [i]
    return out


def cases(tree: dict, m: np.ndarray, gltf_nodes: list[dict]) -> dict:
    nodes, transforms, values, frames = tree["nodes"], tree["transforms"], tree["values"], tree["frames"]
    parents = [None if i % 2 else row.tolist() for i, row in enumerate(m)]
    worlds = [row.tolist() for row in m[::-1]]
    pairs = [(None, 0)] + [(i - 1, i) for i in range(1, len(m))]
    return {
        "nodes.local_matrices": lambda: nodes.local_matrices(gltf_nodes),
        "node_frames.WorldFrames + relative_many": lambda: frames.WorldFrames(gltf_nodes).relative_many(pairs),
        "transforms.matrix_to_quat": lambda: transforms.matrix_to_quat(m[:, :3, :3]),
        "transforms.quat_to_matrix": lambda: transforms.quat_to_matrix(m[:, 0, :]),
        "nodes.rigid": lambda: nodes.rigid(m),
        "nodes.affine_inverses": lambda: nodes.affine_inverses(m),
        "nodes.decompositions": lambda: nodes.decompositions(m),
        "nodes.exact_trs_many": lambda: nodes.exact_trs_many(m),
        "values_to_gltf.gltf_locals": lambda: values.gltf_locals(parents, worlds),
        "values_to_gltf.attachment_frames": lambda: values.attachment_frames(parents, worlds),
    }


def per_call(func, repeat: int) -> float:
    calls = 1
    while True:  # enough calls per round for 20 ms of CPU
        start = time.process_time()
        for _ in range(calls):
            func()
        if time.process_time() - start >= 0.02:
            break
        calls *= 4
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(calls):
            func()
        best = min(best, (time.process_time() - start) / calls)
    return best


def same(a, b) -> bool:
    if dataclasses.is_dataclass(a):  # the two trees' classes differ: compare the fields
        return same(dataclasses.astuple(a), dataclasses.astuple(b))
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return a == b or (a != a and b != b)  # NaN equals NaN here


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="also time this git revision's files (and compare their results)")
    parser.add_argument("--small", type=int, default=3)
    parser.add_argument("--large", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    trees = {"working tree": load_tree("frame_math_now", ROOT)}
    with tempfile.TemporaryDirectory() as scratch:
        if args.rev:
            trees[args.rev] = load_tree("frame_math_then", archive(args.rev, pathlib.Path(scratch)))
        for count in (args.small, args.large):
            m = matrices(count)
            gltf_nodes = node_dicts(trees["working tree"]["nodes"], m)
            timed = {label: cases(tree, m, gltf_nodes) for label, tree in trees.items()}
            print(f"\n{count} matrices, best CPU µs per call: " + " | ".join(trees))
            for name in timed["working tree"]:
                with np.errstate(all="ignore"):
                    times = [per_call(timed[label][name], args.repeat) * 1e6 for label in trees]
                    agree = (
                        ""
                        if not args.rev
                        else ("  same bits" if same(*(timed[t][name]() for t in trees)) else "  DIFFERENT")
                    )
                print(f"  {name:36s} " + " | ".join(f"{t:9.1f}" for t in times) + agree)


if __name__ == "__main__":
    main()
