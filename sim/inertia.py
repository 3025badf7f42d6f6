"""Inertia tensor ↔ (inertiaDiagonal, inertiaOrientation), and the zero-means-infinite / zero-means-auto rules.

Conventions: the body-space tensor is ``R·diag(d)·Rᵀ`` with R the rotation of the quaternion ``inertiaOrientation``
(x, y, z, w) — spec digest §6.2/§8.2. KHR: ``mass`` 0 ⇒ infinite mass (inverse 0), an ``inertiaDiagonal`` component
0 ⇒ infinite inertia about that principal axis. OMI: ``inertiaDiagonal`` zero (or absent) ⇒ computed automatically;
we apply the same "automatic" reading to OMI ``mass`` 0 (not stated by OMI; absent OMI mass is 1 kg).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np

from ..io.gltf.transforms import matrix_to_quat, quat_to_matrix
from .mass import MassProperties
from .shapes import bad_shape

_PERMS = [list(p) for p in permutations(range(3))]


def tensor_from_principal(diagonal, orientation=None) -> np.ndarray:
    """Body-space tensor ``R·diag(d)·Rᵀ`` from ``inertiaDiagonal`` and ``inertiaOrientation`` (xyzw, None = 1)."""
    r = quat_to_matrix(orientation) if orientation is not None else np.eye(3)
    return r @ np.diag(np.asarray(diagonal, dtype=float)) @ r.T


def principal_axes(tensor) -> tuple[np.ndarray, np.ndarray]:
    """(diagonal (3,), quaternion xyzw (4,)) with ``tensor = R·diag·Rᵀ``.

    The rotation is proper (det +1), the quaternion unit with w >= 0. Stable ordering: eigenvectors are assigned to
    the coordinate axes they are closest to, so a diagonal tensor gives its own diagonal and the identity.
    The tensor is divided by its largest magnitude first, so entries near the float64 limit cannot overflow
    into NaN; the eigenvalues are scaled back (they may overflow to ±inf, never to NaN).
    """
    t = np.asarray(tensor, dtype=float)
    scale = float(np.max(np.abs(t))) if t.size else 0.0
    scale = scale if 0.0 < scale < np.inf else 1.0
    t = t / scale
    t = 0.5 * (t + t.T)
    vals, vecs = np.linalg.eigh(t)
    with np.errstate(over="ignore"):
        vals = vals * scale
    perm = max(_PERMS, key=lambda p: float(np.prod(np.abs(np.diag(vecs[:, p]))) + np.abs(np.diag(vecs[:, p])).sum()))
    vals, vecs = vals[perm], vecs[:, perm]
    vecs = vecs * np.where(np.diag(vecs) < 0.0, -1.0, 1.0)
    if np.linalg.det(vecs) < 0.0:
        k = int(np.argmin(np.abs(np.diag(vecs))))
        vecs[:, k] = -vecs[:, k]
    return vals, matrix_to_quat(vecs)


def inverse_mass(mass: float | None) -> float:
    """KHR inverse mass: 0 (or inf) ⇒ infinite mass ⇒ 0; negative is an error; None is not resolvable here."""
    if mass is None:
        raise bad_shape("mass is absent: compute it from the shapes first")
    if mass < 0:
        raise bad_shape(f"mass must be >= 0, got {mass}")
    return 0.0 if mass == 0 or np.isinf(mass) else 1.0 / float(mass)


def inverse_inertia(diagonal, orientation=None) -> np.ndarray:
    """KHR body-space inverse inertia ``R·diag(1/dᵢ)·Rᵀ`` where a 0 (or inf) component contributes 0 (locked axis)."""
    d = np.asarray(diagonal, dtype=float)
    if np.any(d < 0):
        raise bad_shape(f"inertiaDiagonal components must be >= 0, got {d.tolist()}")
    inv = np.divide(1.0, d, out=np.zeros(3), where=(d > 0) & np.isfinite(d))
    return tensor_from_principal(inv, orientation)


@dataclass(frozen=True, eq=False)
class ResolvedMass:
    """What a solver needs, after applying the family's rules. ``*_auto`` flag values taken from the shapes."""

    mass: float  # inf for infinite mass
    inverse_mass: float
    center_of_mass: np.ndarray
    inertia_diagonal: np.ndarray  # may contain 0 (= infinite, KHR) after resolution
    inertia_orientation: np.ndarray
    inverse_inertia: np.ndarray  # body space, about the COM
    mass_auto: bool
    inertia_auto: bool


def resolve_motion(
    mass=None,
    center_of_mass=None,
    inertia_diagonal=None,
    inertia_orientation=None,
    computed: MassProperties | None = None,
    family: str = "KHR",
) -> ResolvedMass:
    """Resolve a ``motion`` object's mass properties (None = absent) against shape-computed ``computed`` ones.

    KHR: absent values come from ``computed`` (its inertia rescaled to the given mass); mass 0 ⇒ infinite (and,
    when the inertia is absent too, infinite inertia); inertia component 0 ⇒ locked axis.
    OMI: absent mass = 1 kg, mass 0 ⇒ automatic; absent COM = origin; inertia absent or with a 0 ⇒ automatic.
    """
    family = family.upper()
    if family not in ("KHR", "OMI"):
        raise bad_shape(f"unknown family {family!r}")
    mass_auto = mass is None if family == "KHR" else mass == 0
    if family == "OMI" and mass is None:
        mass = 1.0
    if mass_auto:
        if computed is None:
            raise bad_shape("mass must be computed from shapes but none have volume")
        mass = computed.mass
    inv_m = inverse_mass(mass)
    if center_of_mass is None:
        if family == "KHR" and computed is not None:
            center_of_mass = computed.center_of_mass
        else:
            center_of_mass = np.zeros(3)
    d = None if inertia_diagonal is None else np.asarray(inertia_diagonal, dtype=float)
    inertia_auto = d is None or (family == "OMI" and np.any(d == 0))
    if inertia_auto:
        if computed is None:
            raise bad_shape("inertia must be computed from shapes but none have volume")
        if inv_m == 0.0:
            d, q = np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0])
        else:
            d, q = principal_axes(computed.with_mass(mass).inertia)
    else:
        q = np.array([0.0, 0.0, 0.0, 1.0]) if inertia_orientation is None else np.asarray(inertia_orientation, float)
    return ResolvedMass(
        mass=np.inf if inv_m == 0.0 else float(mass),
        inverse_mass=inv_m,
        center_of_mass=np.asarray(center_of_mass, dtype=float),
        inertia_diagonal=d,
        inertia_orientation=q,
        inverse_inertia=inverse_inertia(d, q),
        mass_auto=bool(mass_auto),
        inertia_auto=bool(inertia_auto),
    )
