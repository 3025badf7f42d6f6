"""The one registry of diagnostic codes: every code that ``validate``, the import and export hooks, ``migrate``,
``convert``, ``metrics``, ``check`` and the panels report, with its one severity and its one-line meaning.

The rule: **one severity per problem**, the same in every command and in Blender. ``Diagnostic`` takes the severity
of a registered code from here whatever its emitter passed, so no call site can report a code at another severity;
``tests/unit/test_diagnostic_codes.py`` walks the source for emitters that ask for another one and for codes missing
here. ``loses_physics`` marks the codes that say something of the input's physics did not reach the output (an
object dropped for an ERROR, a value left out): ``convert`` counts a file with one as *converted with losses*, and
``convert --strict`` fails it (docs/diagnostics.md, "What a batch does with each severity").

Codes without a prefix (and ``KHR_*``) are the physics glTF-Validator fork's; ``FILE_*`` / ``GLB_*`` our loaders';
``PHYSICS_PARSE_*`` / ``PHYSICS_WRITE_*`` the model's reader and writers; ``GLTF_PHYSICS_*`` ours; ``CONVERT_*`` a
batch's; ``METRICS_*`` / ``SIM_*`` the reference evaluator's. Imports nothing (``diagnostics`` builds on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Severity(IntEnum):
    """How bad a diagnostic is; ordered so that ``max()`` gives the worst (re-exported by ``io.diagnostics``)."""

    INFO = 0
    HINT = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class CodeInfo:
    """One registered code: its severity, what it means, and whether it says physics was lost on the way."""

    severity: Severity
    meaning: str
    loses_physics: bool = False


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741


def _error(meaning: str) -> CodeInfo:
    """An ERROR in the input's physics: the unit under its pointer is dropped (so it never reaches an output)."""
    return CodeInfo(E, meaning, loses_physics=True)


def _lost(meaning: str) -> CodeInfo:
    """A WARNING that says a part of the physics is left out of what is built or written."""
    return CodeInfo(W, meaning, loses_physics=True)


REGISTRY: dict[str, CodeInfo] = {
    # -- the validator fork's core codes ---------------------------------------------------------------------------
    "TYPE_MISMATCH": _error("A value has the wrong JSON type (also: the document is not an object)."),
    "UNDEFINED_PROPERTY": _error("A required property is missing (pointer: the object that lacks it)."),
    "UNEXPECTED_PROPERTY": CodeInfo(W, "A property the schema does not define."),
    "VALUE_NOT_IN_RANGE": _error(
        "A number outside its schema range or not finite: negative mass, friction, restitution, stiffness, "
        "damping, maxForce, size or radius; drive axis > 2."
    ),
    "VALUE_NOT_IN_LIST": _lost("A string outside its enum where a default applies (combine modes): not kept."),
    "ARRAY_LENGTH_NOT_IN_LIST": _error("A vector has the wrong length (float3, quaternion)."),
    "EMPTY_ENTITY": _error("An array that must not be empty is empty (empty limit axes count as absent)."),
    "DUPLICATE_ELEMENTS": _error("An array that must be unique repeats an element."),
    "INVALID_INDEX": _error("An index is negative (OMI: below -1)."),
    "UNRESOLVED_REFERENCE": _error(
        "An index points past the end of its array (shape, material, filter, joint, node, mesh, skin, OMI collider)."
    ),
    "UNSATISFIED_DEPENDENCY": _error(
        "A node references a document-level object (shapes, materials, filters, joints) but that root extension "
        "object is missing."
    ),
    "ONE_OF_MISMATCH": _error(
        "Exactly one of two properties must be present: trigger geometry|shape vs nodes, nodes with "
        "collisionFilter, limit linearAxes vs angularAxes."
    ),
    "ROTATION_NON_UNIT": _error("inertiaOrientation is not a unit quaternion."),
    # -- the validator fork's physics codes ------------------------------------------------------------------------
    "KHR_IMPLICIT_SHAPES_COMPOUND_SHAPE": _error("A shape carries more than one shape sub-object."),
    "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE": CodeInfo(
        I,
        "Zero sphere radius, box size, capsule/cylinder height, both radii zero, zero capsule extent, zero plane size.",
    ),
    "KHR_COLLISION_SHAPES_COMPOUND_SHAPE": _error("2024-07 spelling of the compound-shape code."),
    "KHR_COLLISION_SHAPES_DEGENERATE_SHAPE": CodeInfo(I, "2024-07 spelling of the degenerate-shape code."),
    "KHR_COLLISION_SHAPES_DUPLICATE_WEIGHTS": _error("A 2024-07 mesh shape has both weights and useNodeWeights."),
    "KHR_IMPLICIT_SHAPES_DUPLICATE_WEIGHTS": _error("Same as above, for mesh shapes found in KHR_implicit_shapes."),
    "SHAPE_WEIGHTS_INVALID": _error("A mesh shape's weights length differs from the mesh's morph-target count."),
    "KHR_RIGID_BODIES_JOINT_INVALID_RANGE": _error("A joint limit has min > max (also OMI lowerLimit > upperLimit)."),
    "KHR_RIGID_BODIES_JOINT_LIMITS_INCORRECT_SIZE": _error("A limit axes array has more than 3 entries."),
    "KHR_RIGID_BODIES_JOINT_LIMITS_INVALID_AXIS": _error("A limit axis index is outside 0..2."),
    "KHR_RIGID_BODIES_COLLISION_FILTER_INVALID_FILTER_SET": _error(
        "A collision filter has both collideWithSystems and notCollideWithSystems."
    ),
    "KHR_RIGID_BODIES_TRIGGER_NODES_INVALID": _error(
        "A compound trigger lists a node that does not carry a simple trigger."
    ),
    # -- our validator codes ---------------------------------------------------------------------------------------
    "GLTF_PHYSICS_INTERNAL_ERROR": _error(
        "Our validator or a glTF hook failed on this object (a bug): the object is reported instead of raising."
    ),
    "GLTF_PHYSICS_VALUE_NOT_USABLE": _error(
        "A string outside its enum where no default applies: drive type / mode, OMI motion, body, shape and "
        "collider types (the validator fork: VALUE_NOT_IN_LIST, a warning)."
    ),
    "GLTF_PHYSICS_EXTENSION_NOT_DECLARED": CodeInfo(W, "A physics extension is used but not listed in extensionsUsed."),
    "GLTF_PHYSICS_INFINITE_MASS": CodeInfo(
        I, "mass is 0: infinite mass per the KHR README (schema says > 0); accepted."
    ),
    "GLTF_PHYSICS_INFINITE_INERTIA": CodeInfo(
        I, "An inertiaDiagonal component is 0: that axis cannot rotate (KHR README)."
    ),
    "GLTF_PHYSICS_JOINT_SELF_CONNECTED": _error(
        "A joint's connectedNode is its own node (OMI legacy: nodeA == nodeB)."
    ),
    "GLTF_PHYSICS_TRIGGER_NODE_NOT_DESCENDANT": CodeInfo(
        W, "A compound trigger lists a node that is not its descendant."
    ),
    "GLTF_PHYSICS_GEOMETRY_NOT_EXACTLY_ONE": _error("A geometry has none or more than one of shape / node / mesh."),
    "GLTF_PHYSICS_GEOMETRY_NODE_WITHOUT_MESH": CodeInfo(
        W, "geometry.node points at a node without a mesh in its subtree."
    ),
    "GLTF_PHYSICS_LEGACY_COLLIDER_SHAPE": CodeInfo(
        I, "collider/trigger uses 'shape' (2024-07 form) where 'geometry' is expected; read as geometry.shape."
    ),
    "GLTF_PHYSICS_COLLIDER_ZERO_SCALE": CodeInfo(
        W, "A collider or trigger sits on a node whose scale is all zero (disabled)."
    ),
    "GLTF_PHYSICS_MOTION_IN_SKIN_JOINTS": CodeInfo(
        W, "A motion sits on a skin joint or inside a skin joint hierarchy."
    ),
    "GLTF_PHYSICS_UNKNOWN_SHAPE_TYPE": CodeInfo(
        W,
        "A KHR shape type we do not know (allowed by the schema, so other extensions can add types; the shape "
        "cannot be simulated).",
    ),
    "GLTF_PHYSICS_SHAPE_TYPE_MISMATCH": _error(
        "A shape carries a sub-object of another type but not the one of its type."
    ),
    "GLTF_PHYSICS_SHAPE_PARAMETERS_MISSING": CodeInfo(
        I, "A 2024-07 or OMI primitive shape lacks its sub-object; defaults apply."
    ),
    "GLTF_PHYSICS_CONVEX_HULL_IGNORED": CodeInfo(I, "convexHull is set on a non-mesh shape, where it has no effect."),
    "GLTF_PHYSICS_DEGENERATE_SHAPE": CodeInfo(
        I, "An OMI_physics_shape / OMI_collider shape has a zero size, radius or height."
    ),
    "GLTF_PHYSICS_OMI_LEGACY_CAPSULE_HEIGHT": CodeInfo(
        W, "A legacy OMI capsule {radius, height=total} has height < 2·radius."
    ),
    "GLTF_PHYSICS_OMI_LIMIT_BOTH_AXES": CodeInfo(
        W, "An OMI joint limit carries both linearAxes and angularAxes (weld-style); read as two limits."
    ),
    "GLTF_PHYSICS_OMI_LEGACY_FORM": CodeInfo(
        I,
        "A legacy OMI form (body 'type', OMI_collider, node-level OMI_physics_shape, joint constraints/nodeA/nodeB) "
        "was recognised.",
    ),
    "GLTF_PHYSICS_DRIVE_TARGET_WITHOUT_GAIN": CodeInfo(
        I,
        "A drive has positionTarget without stiffness, velocityTarget without damping or the reverse (KHR 2024-10 "
        "schema dependencies).",
    ),
    "GLTF_PHYSICS_OMI_EMPTY_TRIGGER": CodeInfo(
        W,
        "An OMI trigger has neither shape nor nodes (used by OMI's own examples to group descendant triggers); "
        "read as such a grouping.",
    ),
    "GLTF_PHYSICS_OMI_MOTION_TYPE_MISSING": CodeInfo(
        W, "An OMI motion lacks the required 'type' (OMI's triggers example does this); read as dynamic."
    ),
    "GLTF_PHYSICS_FLOAT32_OVERFLOW": CodeInfo(
        W,
        "A number is beyond the 32-bit float range glTF stores (|v| > 3.4028235e38); importers and writers "
        "clamp it to ±3.4028235e38.",
    ),
    "GLTF_PHYSICS_OMI_NO_SHAPE": CodeInfo(
        I, "An OMI collider, trigger or node-level shape writes 'shape': -1 (the schema default: no shape) explicitly."
    ),
    # -- files and resources (loaders, migrate, convert) -----------------------------------------------------------
    "FILE_UNREADABLE": CodeInfo(E, "The file cannot be read (missing, permissions)."),
    "FILE_INVALID_JSON": CodeInfo(E, "The file (or the GLB JSON chunk) is not UTF-8 JSON."),
    "FILE_JSON_LIMIT": CodeInfo(E, "JSON nested deeper than 400 levels or an integer longer than Python reads."),
    "GLB_INVALID_HEADER": CodeInfo(E, "GLB version other than 2, or a length past the end of the file."),
    "GLB_INVALID_CHUNK": CodeInfo(E, "A truncated GLB chunk, or no JSON chunk."),
    "FILE_UNWRITABLE": CodeInfo(E, "The output cannot be encoded as JSON or written; any previous file is kept."),
    "FILE_RESOURCE_OUTSIDE": CodeInfo(
        E, "A resource URI leaves the input's folder or would be written outside the output's folder."
    ),
    "FILE_RESOURCE_NOT_REGULAR": CodeInfo(E, "A resource is a folder, FIFO, device or other non-regular file."),
    "FILE_RESOURCE_OVERSIZED": CodeInfo(E, "A buffer file is longer than its byteLength: refused unread."),
    "FILE_RESOURCE_MISSING": CodeInfo(E, "A buffer (or, for migrate, any resource) does not exist or cannot be read."),
    "FILE_IMAGE_MISSING": CodeInfo(W, "An image file does not exist: Blender imports the glTF without it."),
    "FILE_REFERENCE_MISSING": CodeInfo(W, "A file a .blend references does not exist: Blender opens it without."),
    "FILE_RESOURCE_NOT_COPIED": CodeInfo(E, "Copying a resource failed, or it would overwrite the output."),
    "FILE_RESOURCE_REPLACED": CodeInfo(W, "A different file of the same name in the output's folder was replaced."),
    "FILE_RESOURCE_RENAMED": CodeInfo(
        I, "An image of another output had the same name: this one is written under a name with its hash."
    ),
    # -- the model's reader (io/gltf/read) -------------------------------------------------------------------------
    "PHYSICS_PARSE_INVALID_TYPE": _error("A value the reader needs has the wrong JSON type: its object is dropped."),
    "PHYSICS_PARSE_MISSING_PROPERTY": _error("A property the reader needs is missing: its object is dropped."),
    "PHYSICS_PARSE_UNRESOLVED_REFERENCE": _error("An index points at nothing: its object is dropped."),
    "PHYSICS_PARSE_GEOMETRY": _error("A geometry needs exactly one of shape, mesh and node: dropped."),
    "PHYSICS_PARSE_TRIGGER": _error("A trigger needs exactly one of geometry (or shape) and nodes: dropped."),
    "PHYSICS_PARSE_INTERNAL_ERROR": _error(
        "The reader or the validator failed (a bug): the physics read so far is kept."
    ),
    "PHYSICS_PARSE_IGNORED": _lost("A value of the wrong type or an unknown kind: read without it."),
    "PHYSICS_PARSE_MIXED_FAMILIES": _lost("A node mixes KHR and OMI physics: one family is read, the other ignored."),
    "PHYSICS_PARSE_REFERENCE_TO_DROPPED": _lost("A reference to an object dropped for its errors: left out."),
    "PHYSICS_PARSE_OUT_OF_RANGE": _lost("A computed value glTF cannot store: not kept."),
    "PHYSICS_PARSE_DROPPED": CodeInfo(I, "An object dropped from the model because of the errors reported inside it."),
    "PHYSICS_PARSE_CONVERTED": CodeInfo(I, "A legacy or split form read as its current equivalent."),
    # -- the model's writers (io/gltf/write) -----------------------------------------------------------------------
    "PHYSICS_WRITE_LOSSY": _lost("A value the target revision cannot hold: not written."),
    "PHYSICS_WRITE_CONVERTED": CodeInfo(I, "A value written in another form with the same meaning."),
    "PHYSICS_WRITE_SEMANTICS": CodeInfo(W, "A value kept, but the target revision may interpret it differently."),
    "PHYSICS_WRITE_INVALID_VALUE": CodeInfo(W, "A value written as read, but the target schema forbids it."),
    # -- the import into Blender -----------------------------------------------------------------------------------
    "GLTF_PHYSICS_IMPORT_FAILED": _lost("A step or an object could not be built (the reason is said)."),
    "GLTF_PHYSICS_IMPORT_SKIPPED": _lost("Physics data with nothing to attach to in Blender: not built."),
    "GLTF_PHYSICS_IMPORT_DISABLED": CodeInfo(I, "A collider the file disables (zero scale) is not built."),
    "GLTF_PHYSICS_IMPORT_PLACEHOLDER_FAILED": CodeInfo(
        I, "A placeholder mesh for an Empty with a collider could not be set: the Empty is replaced later."
    ),
    "GLTF_PHYSICS_IMPORT_APPROXIMATED": CodeInfo(I, "Blender cannot hold the value exactly: the nearest is used."),
    "GLTF_PHYSICS_IMPORT_STORED_ONLY": CodeInfo(I, "Kept on the object for export, not simulated by Blender."),
    "GLTF_PHYSICS_IMPORT_NOT_REPRODUCIBLE": CodeInfo(W, "Blender cannot play what the file means (named setting)."),
    "GLTF_PHYSICS_IMPORT_REPRODUCED": CodeInfo(I, "Rebuilt with reproduction helpers or world settings."),
    # -- the export from Blender -----------------------------------------------------------------------------------
    "GLTF_PHYSICS_EXPORT_SKIPPED": _lost("Physics that could not be written: left out of the file."),
    "GLTF_PHYSICS_EXPORT_PLAYS_DIFFERENTLY": CodeInfo(
        W, "A Blender setting changes how the scene plays and the file cannot say it (named setting and objects)."
    ),
    "GLTF_PHYSICS_BLENDER_SETTING_INVALID": CodeInfo(
        W, "A Blender-only setting kept in extras is not usable: skipped, Blender's default stays."
    ),
    "GLTF_PHYSICS_EXPORT_FAILED": _lost("One object or step raised while exporting: left out of the file."),
    "GLTF_PHYSICS_EXPORT_EDITED": CodeInfo(I, "Stored file values overridden by edited Blender settings."),
    "GLTF_PHYSICS_EXPORT_STORED_UNREADABLE": CodeInfo(
        W, "A stored value was broken (by a script or an old file): written from what Blender simulates instead."
    ),
    "GLTF_PHYSICS_EXPORT_APPROXIMATED": CodeInfo(I, "A Blender value written in an approximate form."),
    "GLTF_PHYSICS_EXPORT_Y_UP_OFF": CodeInfo(
        W, "+Y Up is off in the export dialog: physics is still written for +Y up (the glTF convention)."
    ),
    "GLTF_PHYSICS_EXPORT_INSTANCED": CodeInfo(I, "An object exported several times (instancing): physics on each."),
    "GLTF_PHYSICS_EXPORT_DISABLED_JOINT": CodeInfo(I, "A disabled rigid-body constraint (no effect) is not written."),
    # -- stored values checked by the panels and Check Simulation ---------------------------------------------------
    "GLTF_PHYSICS_STORED_BAD_VALUE": CodeInfo(E, "A stored value the schema forbids: export cannot write it as is."),
    "GLTF_PHYSICS_STORED_NOT_SIMULATED": CodeInfo(W, "Stored, but Blender has nothing that simulates it."),
    "GLTF_PHYSICS_STORED_DEPENDENCY": CodeInfo(W, "A KHR 2024-10 schema dependency is not met."),
    "GLTF_PHYSICS_STORED_MEANING": CodeInfo(I, "Valid, with a special meaning worth knowing."),
    "GLTF_PHYSICS_CHECK_EXPORT_FAILED": CodeInfo(W, "The check could not export the scene."),
    # -- batch conversion (convert) --------------------------------------------------------------------------------
    "CONVERT_IMPORT_FAILED": CodeInfo(E, "Blender could not import the glTF or open the .blend."),
    "CONVERT_EXPORT_FAILED": CodeInfo(E, "Blender's glTF export did not finish."),
    "CONVERT_GLTF_ADDON_ERROR": CodeInfo(E, "io_scene_gltf2 logged an error during the export."),
    "CONVERT_TIMEOUT": CodeInfo(E, "No answer within --timeout seconds: the worker was killed and replaced."),
    "CONVERT_WORKER_CRASHED": CodeInfo(E, "The worker process died on this file, twice."),
    "CONVERT_WORKER_BROKEN": CodeInfo(W, "Blender was unusable after this file, twice; the file's result is kept."),
    "CONVERT_RETRIED": CodeInfo(I, "The first worker crashed or broke on this file; a new worker converted it."),
    "CONVERT_IMAGE_RENAMED": CodeInfo(W, "An image named like a path is renamed before a .gltf export."),
    "CONVERT_INTERNAL_ERROR": CodeInfo(E, "An unexpected exception while converting this file (the worker goes on)."),
    "CONVERT_CONTENT_NOT_KEPT": CodeInfo(
        W, "The input uses non-physics extensions io_scene_gltf2 does not carry: the output has none of their data."
    ),
    "CONVERT_SAME_ASSET_SKIPPED": CodeInfo(
        I, "X.gltf and X.glb side by side would be written to one output: the other one is converted."
    ),
    "CONVERT_STRICT_LOSS": CodeInfo(E, "convert --strict: the file's physics lost something, so no output."),
    "CONVERT_LIBRARIES_UNCHECKED": CodeInfo(
        W, "A compressed .blend's libraries could not be read before opening it (no zstd module): checked after."
    ),
    "CHECK_TOO_LARGE": CodeInfo(E, "check: frames x tracked objects exceed the sampling budget; nothing stepped."),
    "REPORT_NON_FINITE": CodeInfo(W, "A value of a report is not finite: written as null (strict JSON)."),
    # -- joint metrics and the reference evaluator (sim/) ----------------------------------------------------------
    "METRICS_UNREADABLE": CodeInfo(E, "The samples file cannot be read."),
    "METRICS_UNKNOWN_FORMAT": CodeInfo(E, "The samples file is not .json, .csv or .npz."),
    "METRICS_NO_MATPLOTLIB": CodeInfo(E, "--plot needs matplotlib."),
    "METRICS_NO_JOINTS": CodeInfo(E, "The samples file holds no joint samples."),
    "METRICS_BAD_LIMITS_FILE": CodeInfo(E, "The limits file is not an object with a joints array."),
    "METRICS_BAD_JOINT": CodeInfo(E, "A joint entry lacks its name."),
    "METRICS_BAD_LIMIT": CodeInfo(E, "A limit entry is malformed."),
    "METRICS_BAD_SAMPLES": CodeInfo(E, "Sample arrays are missing, not numeric, of unequal length or not finite."),
    "METRICS_BAD_CSV": CodeInfo(E, "A CSV header or row is malformed."),
    "METRICS_TIME_ORDER": CodeInfo(W, "A joint's sample times are not sorted."),
    "METRICS_NO_LIMITS": CodeInfo(W, "A joint has no limits to evaluate."),
    "SIM_BAD_SHAPE": CodeInfo(E, "Shape parameters the reference evaluator cannot use (degenerate)."),
}


def severity_of(code: str, asked: Severity) -> Severity:
    """The registered severity of ``code``; ``asked`` only for a code the registry does not know (tests' own)."""
    info = REGISTRY.get(code)
    return asked if info is None else info.severity


def loses_physics(code: str) -> bool:
    """True when ``code`` says part of the input's physics did not reach the output."""
    info = REGISTRY.get(code)
    return info is not None and info.loses_physics
