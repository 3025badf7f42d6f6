"""Benchmark (not a test): the cost of ``io.gltf.files``' JSON depth check against ``json.loads`` itself.

    .venv/bin/python -P tests/bench/bench_json_depth.py [--nodes 100000] [--repeat 5]

Builds a document of N physics nodes (each with a body and a collider, like the scaling fixtures), then reports the
best CPU time of ``json.loads`` on its text and of ``files.json_depth_exceeds`` on the parsed value (the extra work
``files.load`` does to refuse JSON nested deeper than ``files.MAX_JSON_DEPTH``), and their ratio.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # for testkit only; the repository root never goes on sys.path

from testkit import submodule  # noqa: E402

files = submodule("io.gltf.files")


def document(nodes: int) -> str:
    body = {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}
    items = [
        {"name": f"n{i}", "translation": [1, 2, 3], "extensions": {"KHR_physics_rigid_bodies": body}}
        for i in range(nodes)
    ]
    return json.dumps({"asset": {"version": "2.0"}, "nodes": items})


def best(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    text = document(args.nodes)
    value = json.loads(text)
    loads = best(lambda: json.loads(text), args.repeat)
    walk = best(lambda: files.json_depth_exceeds(value), args.repeat)
    print(
        f"{args.nodes} nodes, {len(text) / 1e6:.1f} MB: json.loads {loads:.3f} s, depth check {walk:.3f} s "
        f"({walk / loads:.0%} of json.loads)"
    )


if __name__ == "__main__":
    main()
