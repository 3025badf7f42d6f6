"""The order of an export, run in ``gather_gltf_extensions_hook`` once node indices are final: every object's
body / collider / trigger (``bodies``) → collision filters of native collision collections → joints (``joints``) →
nested bodies back under their file parents → notes for Blender settings glTF cannot hold (``unwritten``) →
collider-only meshes off their nodes. The document is written with
the project's writers (``gltf.write.write_target``) and merged into io_scene_gltf2's plan as plain dicts, which
io_scene_gltf2 encodes and writes once with the rest of the file.
"""

from __future__ import annotations

from .. import gltf_addon
from ..diagnostics import pointer
from ..gltf.write import write_target
from ..mapping.passthrough import extension_names
from . import bodies, joints, unwritten
from .context import Builder, ExportSession


def apply_output(plan, output) -> list[str]:
    """Merge a writer's ``WriteOutput`` into the gltf2_io plan (plain dicts); returns the extension names used."""
    used = [name for _, exts in sorted(output.nodes.items()) for name in exts]
    used.extend(output.root)
    # extensions nested in kept extras / extensions / unknown keys
    used.extend(
        sorted(extension_names([list(output.root.values()), [list(e.values()) for e in output.nodes.values()]]))
    )
    names = list(plan.extensions_used or [])
    for name in used:
        if name not in names:
            names.append(name)
    for node in output.new_nodes:
        plan.nodes.append(gltf_addon.node_from_dict(node))
    for parent, child in output.new_children:
        parent_node = plan.nodes[parent]
        parent_node.children = [*(parent_node.children or []), child]
    for index, exts in sorted(output.nodes.items()):
        node = plan.nodes[index]
        if node.extensions is None:
            node.extensions = {}
        node.extensions.update(exts)
    if output.root:
        if plan.extensions is None:
            plan.extensions = {}
        for name, value in output.root.items():
            existing = plan.extensions.get(name)
            if isinstance(existing, dict):
                existing.update(value)
            else:
                plan.extensions[name] = value
    plan.extensions_used = names
    return sorted(set(used))


def build(session: ExportSession, plan) -> None:
    """Everything gathered and flattened: build the physics document and put it into ``plan``."""
    builder = Builder(session, plan)
    nodes_ptr = pointer("nodes")
    for name, ob in list(session.objects.items()):
        builder.guarded(nodes_ptr, f"object {name!r}", bodies.add_object, builder, ob)
    builder.guarded("", "collision filters", bodies.assign_native_filters, builder)
    builder.guarded("", "joints", joints.add_joints, builder)
    builder.guarded("", "joint nodes", joints.restore_nodes, builder)
    builder.guarded("", "unused joint descriptions", joints.drop_unused_descriptions, builder)
    builder.guarded("", "restoring nested bodies", builder.restore_parents)
    builder.guarded("", "settings without a glTF field", unwritten.note_unwritten, builder)
    builder.finish_nodes()
    counts = session.report.counts
    counts["rigid_bodies"] = sum(1 for n in builder.doc.nodes.values() if n.motion is not None)
    counts["colliders"] = sum(1 for n in builder.doc.nodes.values() if n.collider is not None)
    counts["triggers"] = sum(1 for n in builder.doc.nodes.values() if n.trigger is not None)
    counts["joints"] = sum(1 for n in builder.doc.nodes.values() if n.joint is not None)
    counts["added_nodes"] = len(builder.new_nodes)
    if builder.doc.is_empty():
        return
    output = write_target(builder.doc, session.revision, builder.context_json())
    for diag in output.diagnostics:
        session.report.add(diag.severity, diag.code, diag.pointer, diag.message)
    counts["added_nodes"] += len(output.new_nodes)
    apply_output(plan, output)

