"""glTF (+Y up) ↔ Blender (+Z up): the one home of the axis swizzles (bpy-free, numpy + stdlib).

The glTF importer turns glTF node axes (x, y, z) into Blender axes (x, −z, y): the rotation ``C`` (+90° about X).
Everything that crosses between the two frames goes through this module:

* vectors and pseudovectors (positions, velocities, centres of mass): ``C·v``, back with ``Cᵀ``;
* scales, inertia diagonals and box sizes (no sign): (x, y, z) → (x, z, y), the same both ways;
* quaternions: glTF xyzw ↔ Blender wxyz of the same rotation in the other frame (``C·q·C⁻¹``);
* 4×4 transforms: ``C·M·Cᵀ`` (``axis_change`` gives ``Cᵀ``, or the identity for a +Z-up export);
* implicit shapes stand along glTF +Y, Blender primitives along local +Z: a shape is placed in a Blender object by
  ``SHAPE_TO_BLENDER`` (``C`` as a quaternion) with its scale swizzled by ``shape_scale``.

Values going to the file lose their negative zeros (``clean_zero``): ``-0.0`` would be written as ``-0.0``.
"""

from __future__ import annotations

import math

import numpy as np

# Blender = C · glTF: (x, y, z)glTF → (x, −z, y)Blender.
AXIS_CHANGE = np.array([[1.0, 0, 0, 0], [0, 0, -1.0, 0], [0, 1.0, 0, 0], [0, 0, 0, 1.0]])
# glTF = Cᵀ · Blender: (x, y, z)Blender → (x, z, −y)glTF.
BLENDER_TO_GLTF = AXIS_CHANGE.T.copy()

_H = math.sqrt(0.5)
SHAPE_TO_BLENDER = (_H, 0.0, 0.0, _H)  # C as a quaternion (xyzw, +90° about X): shape +Y → Blender +Z, +Z → −Y


def clean_zero(v) -> float:
    """``float(v)`` with ``-0.0`` turned into ``0.0`` (no negative zero in the file)."""
    x = float(v)
    return 0.0 if x == 0.0 else x


# --- glTF → Blender -------------------------------------------------------------------------------------------------


def vec_to_blender(v) -> tuple[float, float, float]:
    """Vector / pseudovector (x, y, z)glTF → (x, −z, y)Blender."""
    x, y, z = map(float, v)
    return (x, -z, y)


def scale_to_blender(s) -> tuple[float, float, float]:
    """Scale, inertia diagonal or box size (x, y, z)glTF → (x, z, y)Blender (no sign change)."""
    x, y, z = map(float, s)
    return (x, z, y)


def quat_to_blender(q) -> tuple[float, float, float, float]:
    """Quaternion glTF (x, y, z, w) → Blender (w, x, y, z) of the same rotation in Blender axes."""
    x, y, z, w = map(float, q)
    return (w, x, -z, y)


def points_to_blender(points) -> np.ndarray:
    """Many glTF points (x, y, z) at once → an ``(N, 3)`` array of Blender points (x, −z, y)."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    return np.stack([p[:, 0], -p[:, 2], p[:, 1]], axis=1)


def matrix_to_blender(m) -> np.ndarray:
    """A glTF 4x4 transform expressed in Blender axes: C·M·C⁻¹."""
    return AXIS_CHANGE @ np.asarray(m, dtype=float) @ AXIS_CHANGE.T


# --- Blender → glTF -------------------------------------------------------------------------------------------------


def vec_to_gltf(v) -> tuple[float, float, float]:
    """Vector / pseudovector (x, y, z)Blender → (x, z, −y)glTF, without negative zeros."""
    x, y, z = map(float, v)
    return (clean_zero(x), clean_zero(z), clean_zero(-y))


def scale_to_gltf(s) -> tuple[float, float, float]:
    """Scale, inertia diagonal or box extents (x, y, z)Blender → (x, z, y)glTF (no sign change)."""
    x, y, z = map(float, s)
    return (x, z, y)


def quat_to_gltf(q) -> tuple[float, float, float, float]:
    """Blender (w, x, y, z) → glTF xyzw of the same rotation in glTF axes, without negative zeros."""
    w, x, y, z = map(float, q)
    return (clean_zero(x), clean_zero(z), clean_zero(-y), clean_zero(w))


def axis_change(yup: bool) -> np.ndarray:
    """Blender world → exported world: ``Cᵀ`` for a +Y-up export, else the identity."""
    return BLENDER_TO_GLTF if yup else np.eye(4)


# --- shapes in Blender objects --------------------------------------------------------------------------------------


def shape_scale(scale_blender) -> tuple[float, float, float]:
    """A Blender-axes scale (x, y, z) as the scale of a shape placed by ``SHAPE_TO_BLENDER``: (|x|, |z|, |y|)."""
    return scale_to_gltf(abs(float(s)) for s in scale_blender)
