"""A generated library of physics assets (``.glb``): what ``bench_convert.py --library assets`` converts.

Run: ``.venv/bin/python -P tests/bench/asset_library.py OUT [--files 500] [--seed 0]``

Each file is one asset of five kinds, chosen round-robin, with sizes and counts drawn from a seeded random source
(the same library for the same ``--files`` and ``--seed``): a **crate stack** (static ground, dynamic crates sharing
one mesh, a trigger zone), a **door** (static frame, dynamic panel on a limited hinge), a **chain** (static anchor,
capsule links on point joints), a **vehicle** (chassis with a convex-hull collider from a low-poly mesh no node
renders, four wheels on hinges with velocity drives) and a **rock field** (static triangle-mesh terrain from its
render mesh, dynamic rocks with convex hulls of their render meshes). Render meshes carry positions, normals, UVs and
indices and use materials with factors only (no images); colliders use physics materials and collision filters.
Written as KHR_physics_rigid_bodies + KHR_implicit_shapes (2026 revision: ``geometry.mesh``), Y up, in metres.

The unit fixtures of ``bench_convert.py --library fixtures`` are the other extreme: a few nodes and triangles, where
physics is most of the file.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import random
import struct

import numpy as np

KINDS = ("crates", "door", "chain", "vehicle", "rocks")
RIGID = "KHR_physics_rigid_bodies"
SHAPES = "KHR_implicit_shapes"


class Asset:
    """One glTF document under construction: binary buffer, meshes, nodes and the physics extensions."""

    def __init__(self, name: str):
        self.name = name
        self.blob = bytearray()
        self.doc: dict = {
            "asset": {"version": "2.0", "generator": "gltf_physics tests/bench/asset_library.py"},
            "extensionsUsed": [RIGID, SHAPES],
            "scene": 0,
            "scenes": [{"name": name, "nodes": []}],
            "nodes": [],
            "meshes": [],
            "materials": [],
            "accessors": [],
            "bufferViews": [],
            "buffers": [],
            "extensions": {
                RIGID: {
                    "physicsMaterials": [
                        {"staticFriction": 0.6, "dynamicFriction": 0.5, "restitution": 0.1},
                        {
                            "staticFriction": 0.9,
                            "dynamicFriction": 0.8,
                            "restitution": 0.4,
                            "frictionCombine": "maximum",
                        },
                    ],
                    "collisionFilters": [
                        {"collisionSystems": ["world"]},
                        {"collisionSystems": ["props"], "collideWithSystems": ["world", "props"]},
                        {"collisionSystems": ["sensor"], "collideWithSystems": ["props"]},
                    ],
                    "physicsJoints": [],
                },
                SHAPES: {"shapes": []},
            },
        }

    # --- binary data -------------------------------------------------------------------------------------------
    def _view(self, data: bytes, target: int | None) -> int:
        self.blob.extend(b"\0" * (-len(self.blob) % 4))
        view = {"buffer": 0, "byteOffset": len(self.blob), "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self.blob.extend(data)
        self.doc["bufferViews"].append(view)
        return len(self.doc["bufferViews"]) - 1

    def _accessor(self, array: np.ndarray, kind: str, component: int, target: int, bounds: bool = False) -> int:
        accessor = {
            "bufferView": self._view(array.tobytes(), target),
            "componentType": component,
            "count": int(array.shape[0]),
            "type": kind,
        }
        if bounds:
            accessor["min"] = [float(v) for v in array.min(axis=0)]
            accessor["max"] = [float(v) for v in array.max(axis=0)]
        self.doc["accessors"].append(accessor)
        return len(self.doc["accessors"]) - 1

    def mesh(self, name: str, geometry: tuple, material: int | None = None, render: bool = True) -> int:
        """A mesh of one triangle primitive; ``render=False``: positions and indices only (a collision mesh)."""
        positions, normals, uvs, indices = geometry
        attributes = {"POSITION": self._accessor(positions.astype("<f4"), "VEC3", 5126, 34962, bounds=True)}
        if render:
            attributes["NORMAL"] = self._accessor(normals.astype("<f4"), "VEC3", 5126, 34962)
            attributes["TEXCOORD_0"] = self._accessor(uvs.astype("<f4"), "VEC2", 5126, 34962)
        wide = positions.shape[0] > 65535
        index_array = indices.astype("<u4" if wide else "<u2").ravel()
        primitive = {
            "attributes": attributes,
            "indices": self._accessor(index_array, "SCALAR", 5125 if wide else 5123, 34963),
        }
        if material is not None and render:
            primitive["material"] = material
        self.doc["meshes"].append({"name": name, "primitives": [primitive]})
        return len(self.doc["meshes"]) - 1

    def material(self, name: str, color: tuple, metallic: float, roughness: float) -> int:
        self.doc["materials"].append(
            {
                "name": name,
                "pbrMetallicRoughness": {
                    "baseColorFactor": [*color, 1.0],
                    "metallicFactor": metallic,
                    "roughnessFactor": roughness,
                },
            }
        )
        return len(self.doc["materials"]) - 1

    # --- nodes and physics -------------------------------------------------------------------------------------
    def node(self, name: str, parent: int | None = None, **fields) -> int:
        self.doc["nodes"].append({"name": name, **{k: v for k, v in fields.items() if v is not None}})
        index = len(self.doc["nodes"]) - 1
        if parent is None:
            self.doc["scenes"][0]["nodes"].append(index)
        else:
            self.doc["nodes"][parent].setdefault("children", []).append(index)
        return index

    def physics(self, node: int, **values) -> None:
        self.doc["nodes"][node].setdefault("extensions", {})[RIGID] = values

    def shape(self, kind: str, **params) -> int:
        self.doc["extensions"][SHAPES]["shapes"].append({"type": kind, kind: params})
        return len(self.doc["extensions"][SHAPES]["shapes"]) - 1

    def joint(self, limits: list, drives: list | None = None) -> int:
        joints = self.doc["extensions"][RIGID]["physicsJoints"]
        joints.append({"limits": limits, **({"drives": drives} if drives else {})})
        return len(joints) - 1

    def connect(self, body_a: int, body_b: int, at_a: list, at_b: list, joint: int, name: str) -> None:
        """A joint node under ``body_a`` at ``at_a`` connected to a frame node under ``body_b`` at ``at_b``."""
        frame_b = self.node(f"{name}Frame", body_b, translation=at_b)
        joint_node = self.node(name, body_a, translation=at_a)
        self.physics(joint_node, joint={"connectedNode": frame_b, "joint": joint})

    def glb(self) -> bytes:
        doc = self.doc
        doc["buffers"] = [{"byteLength": len(self.blob)}]
        for key in ("meshes", "materials", "accessors", "bufferViews"):
            if not doc[key]:
                del doc[key]
        if not doc["extensions"][RIGID]["physicsJoints"]:
            del doc["extensions"][RIGID]["physicsJoints"]
        if not doc["extensions"][SHAPES]["shapes"]:  # a rock field has mesh colliders only
            del doc["extensions"][SHAPES]
            doc["extensionsUsed"].remove(SHAPES)
        text = json.dumps(doc, separators=(",", ":")).encode()
        text += b" " * (-len(text) % 4)
        binary = bytes(self.blob) + b"\0" * (-len(self.blob) % 4)
        length = 12 + 8 + len(text) + 8 + len(binary)
        return (
            struct.pack("<III", 0x46546C67, 2, length)
            + struct.pack("<II", len(text), 0x4E4F534A)
            + text
            + struct.pack("<II", len(binary), 0x004E4942)
            + binary
        )


# --- geometry (Y up): (positions, normals, uvs, triangle indices) ------------------------------------------------
def box(size: tuple, steps: int) -> tuple:
    """A box of ``size`` centred on the origin, each face a ``steps`` × ``steps`` grid with its own normals."""
    half = np.asarray(size, dtype=float) / 2
    grid = np.linspace(-1.0, 1.0, steps + 1)
    u, v = np.meshgrid(grid, grid, indexing="ij")
    parts, offset = [], 0
    for axis in range(3):
        for sign in (-1.0, 1.0):
            a, b = (axis + 1) % 3, (axis + 2) % 3
            points = np.zeros((u.size, 3))
            points[:, axis] = sign
            points[:, a], points[:, b] = u.ravel(), v.ravel() * sign
            normals = np.zeros_like(points)
            normals[:, axis] = sign
            uvs = np.stack([(u.ravel() + 1) / 2, (v.ravel() + 1) / 2], axis=1)
            parts.append((points * half, normals, uvs, _grid_triangles(steps, steps) + offset))
            offset += u.size
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(4))


def cylinder(radius: float, height: float, segments: int, axis: int = 1) -> tuple:
    """A capped cylinder along ``axis`` (sides smooth, caps flat)."""
    angles = np.linspace(0.0, 2 * math.pi, segments + 1)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    side = np.concatenate([np.insert(ring * radius, 1, y, axis=1) for y in (-height / 2, height / 2)])
    side_normals = np.concatenate([np.insert(ring, 1, 0.0, axis=1)] * 2)
    side_uvs = np.concatenate([np.stack([angles / (2 * math.pi), np.full_like(angles, v)], axis=1) for v in (0, 1)])
    side_tris = _grid_triangles(segments, 1, order="F")
    parts = [(side, side_normals, side_uvs, side_tris)]
    offset = len(side)
    for y, sign in ((-height / 2, -1.0), (height / 2, 1.0)):
        points = np.insert(np.vstack([[0.0, 0.0], ring * radius]), 1, y, axis=1)
        normals = np.tile([0.0, sign, 0.0], (len(points), 1))
        uvs = np.vstack([[0.5, 0.5], ring / 2 + 0.5])
        fan = np.array([[0, i + 1, i + 2] if sign > 0 else [0, i + 2, i + 1] for i in range(segments)])
        parts.append((points, normals, uvs, fan + offset))
        offset += len(points)
    positions, normals, uvs, tris = (np.concatenate([p[k] for p in parts]) for k in range(4))
    order = {0: [1, 0, 2], 1: [0, 1, 2], 2: [0, 2, 1]}[axis]
    return positions[:, order], normals[:, order], uvs, tris if axis == 1 else tris[:, ::-1]


def sphere(radius: float, segments: int, rings: int, rng: random.Random | None = None, bumps: float = 0.0) -> tuple:
    """A UV sphere; ``bumps`` > 0 scales each vertex by a random factor (a rock)."""
    theta = np.linspace(0.0, math.pi, rings + 1)
    phi = np.linspace(0.0, 2 * math.pi, segments + 1)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    normals = np.stack([np.sin(t) * np.cos(p), np.cos(t), np.sin(t) * np.sin(p)], axis=-1).reshape(-1, 3)
    scale = np.array([1.0 + bumps * (rng.random() - 0.5) for _ in range(len(normals))]) if rng and bumps else 1.0
    positions = normals * radius * np.reshape(scale, (-1, 1))
    uvs = np.stack([p.ravel() / (2 * math.pi), t.ravel() / math.pi], axis=1)
    return positions, normals, uvs, _grid_triangles(rings, segments)


def terrain(size: float, steps: int, rng: random.Random) -> tuple:
    """A ``steps`` × ``steps`` height field of ``size`` metres (gentle random hills)."""
    grid = np.linspace(-size / 2, size / 2, steps + 1)
    x, z = np.meshgrid(grid, grid, indexing="ij")
    waves = [(rng.uniform(0.1, 0.6), rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0)) for _ in range(3)]
    y = sum(a * np.sin(fx * x) * np.cos(fz * z) for a, fx, fz in waves)
    positions = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    gx, gz = np.gradient(y, grid, grid)
    normals = np.stack([-gx.ravel(), np.ones(y.size), -gz.ravel()], axis=1)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    uvs = np.stack([(x.ravel() / size) + 0.5, (z.ravel() / size) + 0.5], axis=1)
    return positions, normals, uvs, _grid_triangles(steps, steps)[:, ::-1]


def _grid_triangles(rows: int, cols: int, order: str = "C") -> np.ndarray:
    """Two counter-clockwise triangles per cell of a (rows + 1) × (cols + 1) vertex grid."""
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    r, c = r.ravel(), c.ravel()
    if order == "F":  # vertices numbered column-major: (cols + 1) per row swapped
        index = lambda i, j: j * (rows + 1) + i  # noqa: E731
    else:
        index = lambda i, j: i * (cols + 1) + j  # noqa: E731
    a, b, c2, d = index(r, c), index(r + 1, c), index(r + 1, c + 1), index(r, c + 1)
    return np.concatenate([np.stack([a, b, c2], axis=1), np.stack([a, c2, d], axis=1)])


# --- the five kinds -----------------------------------------------------------------------------------------------
LOCK_LINEAR = {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}


def crates(asset: Asset, rng: random.Random) -> None:
    wood, stone = asset.material("Wood", (0.55, 0.4, 0.2), 0.0, 0.8), asset.material("Stone", (0.5, 0.5, 0.5), 0.0, 1)
    ground_mesh = asset.mesh("Ground", box((10.0, 0.2, 10.0), 4), stone)
    ground = asset.node("Ground", mesh=ground_mesh, translation=[0.0, -0.1, 0.0])
    asset.physics(
        ground,
        collider={
            "geometry": {"shape": asset.shape("box", size=[10.0, 0.2, 10.0])},
            "physicsMaterial": 0,
            "collisionFilter": 0,
        },
    )
    side = rng.uniform(0.4, 1.0)
    crate_mesh = asset.mesh("Crate", box((side, side, side), 6), wood)
    crate_shape = asset.shape("box", size=[side, side, side])
    for i in range(rng.randint(3, 8)):
        crate = asset.node(
            f"Crate{i}",
            mesh=crate_mesh,
            translation=[rng.uniform(-3, 3), side * (i + 0.5), 0.0],
            rotation=_yaw(rng.uniform(-0.5, 0.5)),
        )
        asset.physics(
            crate,
            motion={"mass": round(rng.uniform(5, 40), 2)},
            collider={"geometry": {"shape": crate_shape}, "physicsMaterial": 0, "collisionFilter": 1},
        )
    zone = asset.node("Zone", translation=[0.0, 1.0, 4.0])
    asset.physics(zone, trigger={"geometry": {"shape": asset.shape("box", size=[4.0, 2.0, 1.0])}, "collisionFilter": 2})


def door(asset: Asset, rng: random.Random) -> None:
    metal, paint = asset.material("Metal", (0.3, 0.3, 0.35), 1.0, 0.4), asset.material("Paint", (0.2, 0.4, 0.7), 0, 0.5)
    width, height = rng.uniform(0.8, 1.4), rng.uniform(1.9, 2.4)
    frame = asset.node("Frame", mesh=asset.mesh("Post", box((0.1, height, 0.1), 4), metal))
    asset.physics(
        frame, collider={"geometry": {"shape": asset.shape("box", size=[0.1, height, 0.1])}, "collisionFilter": 0}
    )
    panel_mesh = asset.mesh("Panel", box((width, height - 0.05, 0.04), 10), paint)
    panel = asset.node("Panel", mesh=panel_mesh, translation=[width / 2 + 0.06, 0.0, 0.0])
    asset.physics(
        panel,
        motion={"mass": round(rng.uniform(10, 30), 2)},
        collider={
            "geometry": {"shape": asset.shape("box", size=[width, height - 0.05, 0.04])},
            "physicsMaterial": 0,
            "collisionFilter": 1,
        },
    )
    hinge = asset.joint(
        [
            LOCK_LINEAR,
            {"angularAxes": [0, 2], "min": 0.0, "max": 0.0},
            {"angularAxes": [1], "min": -1.6, "max": 1.6, "damping": 0.5},
        ]
    )
    asset.connect(frame, panel, [0.06, 0.0, 0.0], [-width / 2, 0.0, 0.0], hinge, "Hinge")


def chain(asset: Asset, rng: random.Random) -> None:
    steel = asset.material("Steel", (0.7, 0.7, 0.72), 1.0, 0.3)
    anchor = asset.node(
        "Anchor", mesh=asset.mesh("AnchorBall", sphere(0.15, 24, 12), steel), translation=[0.0, 5.0, 0.0]
    )
    asset.physics(anchor, collider={"geometry": {"shape": asset.shape("sphere", radius=0.15)}, "collisionFilter": 0})
    length, radius = rng.uniform(0.3, 0.6), 0.05
    link_mesh = asset.mesh("Link", cylinder(radius, length, 24), steel)
    link_shape = asset.shape("capsule", height=length, radiusTop=radius, radiusBottom=radius)
    point = asset.joint([LOCK_LINEAR])
    previous, previous_end = anchor, [0.0, -0.15, 0.0]
    for i in range(rng.randint(4, 10)):
        link = asset.node(f"Link{i}", mesh=link_mesh, translation=[0.0, 5.0 - 0.15 - length * (i + 0.5), 0.0])
        asset.physics(
            link,
            motion={"mass": 0.5},
            collider={"geometry": {"shape": link_shape}, "physicsMaterial": 0, "collisionFilter": 1},
        )
        asset.connect(previous, link, previous_end, [0.0, length / 2, 0.0], point, f"Joint{i}")
        previous, previous_end = link, [0.0, -length / 2, 0.0]


def vehicle(asset: Asset, rng: random.Random) -> None:
    body_paint = asset.material("Body", (rng.random(), rng.random(), rng.random()), 0.3, 0.4)
    rubber = asset.material("Rubber", (0.05, 0.05, 0.05), 0.0, 0.9)
    size = (rng.uniform(1.6, 2.2), 0.6, rng.uniform(3.5, 4.8))
    hull = asset.mesh("ChassisHull", cylinder(1.0, 1.0, 8), render=False)  # low-poly: scaled by its node
    chassis = asset.node("Chassis", mesh=asset.mesh("Chassis", box(size, 8), body_paint), translation=[0, 0.8, 0])
    asset.physics(chassis, motion={"mass": round(rng.uniform(800, 1600), 1), "centerOfMass": [0.0, -0.2, 0.0]})
    hull_node = asset.node("ChassisCollider", chassis, scale=[size[0] / 2, size[1], size[2] / 2])
    asset.physics(
        hull_node, collider={"geometry": {"mesh": hull, "convexHull": True}, "physicsMaterial": 0, "collisionFilter": 1}
    )
    wheel_radius = rng.uniform(0.3, 0.45)
    wheel_mesh = asset.mesh("Wheel", cylinder(wheel_radius, 0.25, 32, axis=0), rubber)
    wheel_shape = asset.shape("cylinder", height=0.25, radiusTop=wheel_radius, radiusBottom=wheel_radius)
    axle = asset.joint(
        [LOCK_LINEAR, {"angularAxes": [1, 2], "min": 0.0, "max": 0.0}],
        [{"type": "angular", "mode": "acceleration", "axis": 0, "velocityTarget": 8.0, "damping": 2.0}],
    )
    for i, (x, z) in enumerate(((-1, -1), (1, -1), (-1, 1), (1, 1))):
        at = [x * (size[0] / 2 + 0.15), -0.3, z * size[2] * 0.35]
        wheel = asset.node(f"Wheel{i}", mesh=wheel_mesh, translation=[at[0], 0.5, at[2]], rotation=_roll(math.pi / 2))
        asset.physics(
            wheel,
            motion={"mass": 20.0},
            collider={"geometry": {"shape": wheel_shape}, "physicsMaterial": 1, "collisionFilter": 1},
        )
        asset.connect(chassis, wheel, at, [0.0, 0.0, 0.0], axle, f"Axle{i}")


def rocks(asset: Asset, rng: random.Random) -> None:
    grass, rock = asset.material("Grass", (0.2, 0.5, 0.15), 0.0, 0.9), asset.material("Rock", (0.4, 0.38, 0.35), 0, 1)
    ground_mesh = asset.mesh("Terrain", terrain(rng.uniform(20, 40), 48, rng), grass)
    ground = asset.node("Terrain", mesh=ground_mesh)
    asset.physics(ground, collider={"geometry": {"mesh": ground_mesh}, "physicsMaterial": 0, "collisionFilter": 0})
    for i in range(rng.randint(3, 7)):
        rock_mesh = asset.mesh(f"Rock{i}", sphere(rng.uniform(0.3, 1.0), 16, 10, rng, bumps=0.4), rock)
        node = asset.node(f"Rock{i}", mesh=rock_mesh, translation=[rng.uniform(-6, 6), 3.0 + i, rng.uniform(-6, 6)])
        asset.physics(
            node,
            motion={"mass": round(rng.uniform(50, 400), 1)},
            collider={"geometry": {"mesh": rock_mesh, "convexHull": True}, "physicsMaterial": 1, "collisionFilter": 1},
        )


def _yaw(angle: float) -> list:
    return [0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2)]


def _roll(angle: float) -> list:
    return [0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)]


BUILDERS = {"crates": crates, "door": door, "chain": chain, "vehicle": vehicle, "rocks": rocks}


def asset_bytes(index: int, seed: int = 0) -> bytes:
    """Asset number ``index`` of the library of ``seed`` as GLB bytes."""
    kind = KINDS[index % len(KINDS)]
    asset = Asset(f"{kind}_{index:04d}")
    BUILDERS[kind](asset, random.Random(seed * 1_000_003 + index))
    return asset.glb()


def generate(folder: pathlib.Path, count: int, seed: int = 0) -> list[pathlib.Path]:
    """Write ``count`` assets under ``folder`` (``set000/crates_0000.glb`` …, 100 per folder); returns the paths."""
    files = []
    for index in range(count):
        target = folder / f"set{index // 100:03d}" / f"{KINDS[index % len(KINDS)]}_{index:04d}.glb"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(asset_bytes(index, seed))
        files.append(target)
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    files = generate(args.out, args.files, args.seed)
    print(f"{len(files)} assets, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB in {args.out}")


if __name__ == "__main__":
    main()
