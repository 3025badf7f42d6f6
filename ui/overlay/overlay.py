"""Viewport overlay: a ``gpu`` draw handler (POST_VIEW) drawing the glTF physics of the selected objects, and its
toggles in the 3D viewport's sidebar tab **glTF Physics** (``WindowManager.gltf_physics_overlay``); the on/off switch
is also in the viewport's Overlays popover (Objects section).

The lines come from ``overlay_collect.py`` (cached per object); this module only turns them into one batch per
layer and draws them. Without a GPU (``bpy.app.background``) nothing is drawn and no shader is made: the collection
of lines is what the headless tests check.
"""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, PointerProperty

from ...io.diagnostics import printable
from ..adopt import adopt
from .overlay_collect import LineCache

COLORS = {
    "collider": (0.10, 0.85, 1.00, 1.0),  # cyan: collider shape
    "trigger": (1.00, 0.65, 0.10, 1.0),  # orange: trigger shape
    "axis_x": (1.00, 0.20, 0.20, 1.0),  # red / green / blue: glTF X / Y / Z of joint frames
    "axis_y": (0.30, 1.00, 0.30, 1.0),
    "axis_z": (0.30, 0.50, 1.00, 1.0),
    "limit": (1.00, 0.30, 0.90, 1.0),  # magenta: limit ranges
    "drive": (1.00, 1.00, 0.30, 1.0),  # yellow: drive targets
    "mass": (1.00, 1.00, 1.00, 1.0),  # white: centre of mass
    "velocity": (0.60, 1.00, 0.40, 1.0),  # light green: initial velocities
}
LINE_WIDTH = 2.0
CACHE = LineCache()
_HANDLE = None  # the SpaceView3D draw handler while registered
_BATCHES = None  # (the lines dict, its batches): GPU batches are made again only for new lines
_REPORTED: set[str] = set()  # draw errors already printed


class GLTF_PHYSICS_PG_overlay(bpy.types.PropertyGroup):
    """Overlay toggles (window manager: per session, not saved in the .blend)."""

    show: BoolProperty(
        name="Show glTF Physics",
        default=True,
        description="Draw the glTF physics of the selected objects in the 3D viewport (collision shapes as the file "
        "means them, joint frames and limits, drive targets, centre of mass, initial velocities)",
    )
    show_shapes: BoolProperty(
        name="Shapes",
        default=True,
        description="Collider (cyan) and trigger (orange) shapes: the stored KHR_implicit_shapes parameters, else "
        "the primitive export derives from the mesh bounds",
    )
    show_joints: BoolProperty(
        name="Joints",
        default=True,
        description="Joint attachment frames A and B (glTF X red, Y green, Z blue), limit ranges (magenta, metres "
        "and radians of the joint's limits) and drive targets (yellow)",
    )
    show_mass: BoolProperty(
        name="Centre of Mass", default=True, description="motion.centerOfMass (white star, node space, metres)"
    )
    show_velocity: BoolProperty(
        name="Velocities",
        default=True,
        description="motion.linearVelocity (arrow: metres travelled in 1 s) and motion.angularVelocity (arc: "
        "radians turned in 1 s about the spin axis)",
    )

    def flags(self) -> dict[str, bool]:
        return {
            "shapes": self.show_shapes,
            "joints": self.show_joints,
            "mass": self.show_mass,
            "velocity": self.show_velocity,
        }


class GLTF_PHYSICS_PT_overlay(bpy.types.Panel):
    """Sidebar (N) tab of the 3D viewport."""

    bl_label = "glTF Physics Overlay"
    bl_idname = "GLTF_PHYSICS_PT_overlay"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "glTF Physics"

    @classmethod
    def poll(cls, context):
        return getattr(context.window_manager, "gltf_physics_overlay", None) is not None

    def draw_header(self, context):
        self.layout.prop(context.window_manager.gltf_physics_overlay, "show", text="")

    def draw(self, context):
        settings = context.window_manager.gltf_physics_overlay
        col = self.layout.column(align=True)
        col.active = settings.show
        for name in ("show_shapes", "show_joints", "show_mass", "show_velocity"):
            col.prop(settings, name)
        selected = len(context.selected_objects) if hasattr(context, "selected_objects") else 0
        self.layout.label(text=bpy.app.translations.pgettext_iface("Selected objects: {}").format(selected))
        if adopt.PENDING:  # the last file load found settings of the other glTF-physics add-on
            text = bpy.app.translations.pgettext_iface("Other add-on's settings on {} object(s)")
            self.layout.label(text=text.format(len(adopt.PENDING)), icon="INFO")
            self.layout.operator("gltf_physics.adopt_settings")


def selected_lines(context) -> dict:
    """World-space lines per layer of the selected objects (empty when the overlay is off or nothing is
    selected: the cost of a redraw without a selection is this check; the cache is emptied then)."""
    settings = getattr(context.window_manager, "gltf_physics_overlay", None)
    objects = getattr(context, "selected_objects", None)
    if settings is None or not settings.show or not objects:
        if CACHE.entries:
            CACHE.clear()  # the cache only holds the current selection
        return {}
    return CACHE.collect(objects, settings.flags())


def batches(lines: dict):
    """One ``LINES`` batch per layer with its colour: [(shader, batch, colour)], made again only when ``lines`` is a
    new dict (``LineCache.collect`` returns the same one while nothing changed); [] without a GPU (background)."""
    global _BATCHES
    if bpy.app.background or not lines:
        return []
    if _BATCHES is not None and _BATCHES[0] is lines:
        return _BATCHES[1]
    import gpu
    from gpu_extras.batch import batch_for_shader

    shader = gpu.shader.from_builtin("POLYLINE_UNIFORM_COLOR")
    made = [(shader, batch_for_shader(shader, "LINES", {"pos": v}), COLORS[k]) for k, v in lines.items() if len(v)]
    _BATCHES = (lines, made)
    return made


def draw() -> None:
    """The POST_VIEW callback: never raises (a failing draw callback would be called and fail on every redraw)."""
    try:
        context = bpy.context
        made = batches(selected_lines(context))
        if not made:
            return
        import gpu

        region = context.region
        gpu.state.blend_set("ALPHA")
        gpu.state.depth_test_set("LESS_EQUAL")
        for shader, batch, color in made:
            shader.uniform_float("viewportSize", (region.width, region.height))
            shader.uniform_float("lineWidth", LINE_WIDTH)
            shader.uniform_float("color", color)
            batch.draw(shader)
        gpu.state.depth_test_set("NONE")
        gpu.state.blend_set("NONE")
    except Exception as exc:  # a draw callback must not raise
        message = printable(f"glTF Physics overlay: {type(exc).__name__}: {exc}")
        if message not in _REPORTED:  # once per message, not on every redraw
            _REPORTED.add(message)
            print(message)


CLASSES = (GLTF_PHYSICS_PG_overlay, GLTF_PHYSICS_PT_overlay)


def register_properties() -> None:
    bpy.types.WindowManager.gltf_physics_overlay = PointerProperty(type=GLTF_PHYSICS_PG_overlay)


def unregister_properties() -> None:
    if hasattr(bpy.types.WindowManager, "gltf_physics_overlay"):
        del bpy.types.WindowManager.gltf_physics_overlay


def overlay_popover(self, context) -> None:
    """The switch in the viewport's Overlays popover (Objects section), next to Blender's own overlays."""
    settings = getattr(context.window_manager, "gltf_physics_overlay", None)
    if settings is not None:
        self.layout.prop(settings, "show", text="glTF Physics")


def register_module() -> None:
    global _HANDLE
    if _HANDLE is None:
        _HANDLE = bpy.types.SpaceView3D.draw_handler_add(draw, (), "WINDOW", "POST_VIEW")
    bpy.types.VIEW3D_PT_overlay_object.append(overlay_popover)


def unregister_module() -> None:
    global _HANDLE, _BATCHES
    bpy.types.VIEW3D_PT_overlay_object.remove(overlay_popover)
    if _HANDLE is not None:
        bpy.types.SpaceView3D.draw_handler_remove(_HANDLE, "WINDOW")
        _HANDLE = None
    CACHE.clear()
    _BATCHES = None


def handle():
    """The registered draw handler (None when unregistered), for tests."""
    return _HANDLE
