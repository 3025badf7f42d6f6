"""Benchmark (not a test): the least any implementation of the import's rules can add to a plain import in Python —
writing the Blender state our import leaves, with nothing read, checked or computed (issue 32, "import ≤ 1.3×").

Run: ``.venv/bin/python -P tests/bench/bench_import_floor.py [--bodies 2000] [--pairs 5] [--rev REV]``

The scene is ``bench_fair.py``'s (``bench_import.make_scene``: ``--bodies`` box bodies, half as many joints). The
script imports it once with physics and records, per object, the Blender state the physics import made that a plain
import does not have: the rigid-body world and its two collections, each object's collection links, every writable
``rigid_body`` and ``rigid_body_constraint`` setting that differs from Blender's default, the constraint objects the
plain import has no node for (drive helpers, the world anchor) with their pose, the joint nodes' turned poses, and
each object's stored text (``Object.gltf_physics.values_json``) and joint node pointers.

Then ``--pairs`` times, interleaved in this process with the same collector treatment (none): a plain import
(``import_physics`` off), then **the floor**: the recorded state written onto that plain scene by the simplest Python
(pre-computed values, one ``setattr`` per setting, one link per membership, objects found in one dict of the scene's
objects, the world made as our import makes it: :func:`world_cost`), timed with ``time.process_time``; and a physics
import with our hooks' own CPU (``bench_fair``'s wrapped hooks). The report gives medians: the plain import, the floor,
our hooks, and the ratio ``(plain + floor) / plain`` — no Python import of these rules can be faster than that ratio,
whatever it reads or computes, because every write of the floor is a write the result needs. The budget line is what
1.3× leaves for everything else (parsing, validating, planning joints, the stored values' texts, the outside cost
Blender pays for the rigid bodies while io_scene_gltf2 finishes, which ``bench_fair.py`` prints as "outside").

Nothing about time is asserted.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bench_fair  # beside this file

SKIPPED_SETTINGS = {"rna_type", "object1", "object2"}  # pointers: written by name below


def _default(prop):
    if getattr(prop, "is_array", False) or getattr(prop, "array_length", 0):
        return tuple(prop.default_array)
    if prop.type == "ENUM" and prop.is_enum_flag:
        return set(prop.default_flag)
    return prop.default


def changed_settings(struct) -> list[tuple[str, object]]:
    """Writable, non-pointer RNA properties of ``struct`` whose value differs from the property's default, in RNA
    order (the order Blender lists them, which the setters accept)."""
    out = []
    for prop in struct.bl_rna.properties:
        name = prop.identifier
        if prop.is_readonly or name in SKIPPED_SETTINGS or prop.type in ("POINTER", "COLLECTION"):
            continue
        value = getattr(struct, name)
        if getattr(prop, "is_array", False) or getattr(prop, "array_length", 0):
            value = tuple(value)
        if value != _default(prop):
            out.append((name, value))
    return out


def record(bpy, plain_names: set[str]) -> dict:
    """The state the physics import left that a plain import of the same file does not have."""
    scene = bpy.context.scene
    world = scene.rigidbody_world
    bodies, constraints, new_objects, poses, texts, pointers = [], [], [], [], [], []
    for ob in scene.objects:
        fresh = ob.name not in plain_names
        if fresh:
            if ob.type != "EMPTY":
                raise SystemExit(f"{ob.name}: a new {ob.type} object (this script makes new Empties only)")
            new_objects.append(
                (ob.name, [c.name for c in ob.users_collection if c not in (world.collection, world.constraints)],
                 ob.empty_display_type, ob.empty_display_size, ob.matrix_world.copy())
            )  # fmt: skip
        else:
            poses.append((ob.name, ob.matrix_basis.copy()))
        if ob.rigid_body is not None:
            bodies.append((ob.name, changed_settings(ob.rigid_body)))
        if ob.rigid_body_constraint is not None:
            rbc = ob.rigid_body_constraint
            names = (rbc.object1.name if rbc.object1 else None, rbc.object2.name if rbc.object2 else None)
            constraints.append((ob.name, names, changed_settings(rbc)))
        pg = getattr(ob, "gltf_physics", None)
        if pg is not None and pg.values_json:
            texts.append((ob.name, pg.values_json))
        if pg is not None and (pg.joint.node_a or pg.joint.node_b):
            pointers.append((ob.name, pg.joint.node_a.name if pg.joint.node_a else None,
                             pg.joint.node_b.name if pg.joint.node_b else None))  # fmt: skip
    return {
        "world": changed_settings(world),
        "collections": (world.collection.name, world.constraints.name),
        "bodies": bodies,
        "constraints": constraints,
        "new_objects": new_objects,
        "poses": poses,
        "texts": texts,
        "pointers": pointers,
    }


def drop_unchanged_poses(bpy, state: dict) -> None:
    """Keep only the poses the physics import changed (read on a plain scene)."""
    objects = bpy.data.objects
    state["poses"] = [(n, m) for n, m in state["poses"] if objects[n].matrix_basis != m]


def world_cost(bpy) -> float:
    """CPU seconds of ``bpy.ops.rigidbody.world_add`` in an empty scene: what our import pays for the world, which it
    creates before io_scene_gltf2 makes the nodes (``importer.pipeline.create_world_early``). The same operator on
    the plain scene of 4,000 objects costs ≈ 190 ms (bpy 5.3), so the floor adds the world on an untimed call and
    counts this instead."""
    with bench_fair.quiet():
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
    start = time.process_time()
    bpy.ops.rigidbody.world_add()
    return time.process_time() - start


def write_floor(bpy, state: dict) -> float:
    """Write ``state`` onto the current (plain) scene; the CPU seconds it took (the world's creation not counted:
    :func:`world_cost`)."""
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    start = time.process_time()
    objects = {ob.name: ob for ob in bpy.data.objects}  # one pass: the import knows its objects from its hooks
    world = scene.rigidbody_world
    bodies_name, constraints_name = state["collections"]
    world.collection = bodies = bpy.data.collections.new(bodies_name)
    world.constraints = links = bpy.data.collections.new(constraints_name)
    for name, value in state["world"]:
        setattr(world, name, value)
    collections = bpy.data.collections
    for name, in_collections, display, size, matrix in state["new_objects"]:
        ob = objects[name] = bpy.data.objects.new(name, None)
        ob.empty_display_type = display
        ob.empty_display_size = size
        ob.matrix_world = matrix
        for collection in in_collections:
            (scene.collection if collection == scene.collection.name else collections[collection]).objects.link(ob)
    for name, matrix in state["poses"]:
        objects[name].matrix_basis = matrix
    link = bodies.objects.link
    for name, settings in state["bodies"]:
        ob = objects[name]
        link(ob)
        rb = ob.rigid_body
        for setting, value in settings:
            setattr(rb, setting, value)
    link = links.objects.link
    for name, (first, second), settings in state["constraints"]:
        ob = objects[name]
        link(ob)
        rbc = ob.rigid_body_constraint
        for setting, value in settings:
            setattr(rbc, setting, value)
        rbc.object1 = objects[first] if first else None
        rbc.object2 = objects[second] if second else None
    for name, text in state["texts"]:
        objects[name].gltf_physics.values_json = text
    for name, first, second in state["pointers"]:
        joint = objects[name].gltf_physics.joint
        if first:
            joint.node_a = objects[first]
        if second:
            joint.node_b = objects[second]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bodies", type=int, default=2000)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--rev", default=None, help="build the extension from git archive REV")
    args = parser.parse_args()
    harness = bench_fair.Harness(args.rev, "off")
    bpy = harness.bpy
    path = bench_fair.write_generated(harness, args.bodies, "generated")

    harness.import_file(path, False, False)
    plain_names = {ob.name for ob in bpy.context.scene.objects}
    harness.import_file(path, True, False)
    state = record(bpy, plain_names)
    harness.import_file(path, False, False)
    drop_unchanged_poses(bpy, state)
    writes = (
        sum(len(s) + 1 for _, s in state["bodies"]) + sum(len(s) + 3 for _, _, s in state["constraints"])
        + len(state["texts"]) + 2 * len(state["pointers"]) + len(state["poses"]) + 5 * len(state["new_objects"])
    )  # fmt: skip
    print(
        f"bpy {bpy.app.version_string}; {args.bodies:,} bodies: the physics import's state is "
        f"{len(state['bodies']):,} rigid bodies, {len(state['constraints']):,} constraints, "
        f"{len(state['new_objects']):,} new Empties, {len(state['poses']):,} turned poses, "
        f"{len(state['texts']):,} stored texts; ≈ {writes:,} RNA writes and links"
    )

    plain, floor, hooks, physics = [], [], [], []
    for pair in range(args.pairs):
        for side in bench_fair.pair_order(pair):
            if side == "plain":
                plain.append(harness.import_file(path, False, False)["cpu"])
                floor.append(write_floor(bpy, state) + world_cost(bpy))
            else:
                run = harness.import_file(path, True, False)
                hooks.append(run["hooks"])
                physics.append(run["cpu"])
    ms = {k: 1000 * statistics.median(v) for k, v in
          (("plain", plain), ("floor", floor), ("hooks", hooks), ("physics", physics))}  # fmt: skip
    best = 1000 * min(floor)
    print(f"CPU ms, medians of {args.pairs}: plain import {ms['plain']:.0f}, floor {ms['floor']:.0f} "
          f"(best {best:.0f}), our hooks {ms['hooks']:.0f}, physics import {ms['physics']:.0f}")  # fmt: skip
    print(f"ratio with the floor alone: {(ms['plain'] + ms['floor']) / ms['plain']:.2f}x "
          f"(the physics import: {ms['physics'] / ms['plain']:.2f}x)")  # fmt: skip
    budget = 0.3 * ms["plain"] - ms["floor"]
    print(
        f"1.3x leaves {budget:.0f} ms for reading, validating, planning, the texts and Blender's outside cost "
        f"(our hooks spend {ms['hooks'] - ms['floor']:.0f} ms beyond the floor)"
    )


if __name__ == "__main__":
    main()
