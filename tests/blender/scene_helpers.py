"""Scenes authored natively in Blender for the Blender-tier tests: box meshes, rigid bodies and constraints."""

from __future__ import annotations

import bpy

BOX_FACES = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]


def box_mesh(name: str, size=(1.0, 1.0, 1.0), offset=(0.0, 0.0, 0.0)):
    """A closed box mesh of ``size`` centred on ``offset`` (object-local)."""
    hx, hy, hz = (s / 2 for s in size)
    ox, oy, oz = offset
    verts = [(ox + x * hx, oy + y * hy, oz + z * hz) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], BOX_FACES)
    return mesh


def box_object(name: str, size=(1.0, 1.0, 1.0), offset=(0.0, 0.0, 0.0), location=(0.0, 0.0, 0.0)):
    """A box mesh object linked to the current scene (no rigid body)."""
    ob = bpy.data.objects.new(name, box_mesh(name, size, offset))
    ob.location = location
    bpy.context.scene.collection.objects.link(ob)
    return ob


def rigid_body_world(scene=None):
    """The scene's rigid-body world with its body and constraint collections."""
    scene = scene or bpy.context.scene
    if scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=scene):
            bpy.ops.rigidbody.world_add()
    rbw = scene.rigidbody_world
    rbw.collection = rbw.collection or bpy.data.collections.new("RigidBodyWorld")
    rbw.constraints = rbw.constraints or bpy.data.collections.new("RigidBodyConstraints")
    return rbw


def rigid_box(rbw, name, size=(1, 1, 1), shape="BOX", kind="ACTIVE", location=(0, 0, 0), parent=None, mass=1.0):
    """A box mesh object with a rigid body of ``kind`` and collision ``shape`` in ``rbw``."""
    ob = box_object(name, size, location=location)
    if parent is not None:
        ob.parent = parent
    rbw.collection.objects.link(ob)
    ob.rigid_body.type = kind
    ob.rigid_body.collision_shape = shape
    ob.rigid_body.mass = mass
    return ob


def constraint(rbw, name, a, b, kind, location=(0, 0, 0), rotation=(0, 0, 0)):
    """A rigid-body constraint of ``kind`` between ``a`` and ``b`` on a new Empty."""
    empty = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(empty)
    empty.location = location
    empty.rotation_euler = rotation
    rbw.constraints.objects.link(empty)
    c = empty.rigid_body_constraint
    c.type, c.object1, c.object2 = kind, a, b
    return c


def count_children_scans(monkeypatch) -> dict[str, int]:
    """Count reads of ``Object.children`` / ``Object.children_recursive`` (each scans every object of the file:
    asked per body, an import or export grows with the square of the objects) until ``monkeypatch`` undoes it."""
    import bpy

    counts = {"children": 0, "children_recursive": 0}
    for name in counts:
        original = getattr(bpy.types.Object, name)

        def counted(self, original=original, name=name):
            counts[name] += 1
            return original.fget(self)

        monkeypatch.setattr(bpy.types.Object, name, property(counted))
    return counts
