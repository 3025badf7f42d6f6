"""What Blender cannot reproduce in a joint description (bpy-free): the limits whose meaning has no Blender
counterpart, each with its reason. Blender's GENERIC constraint limits each axis separately (linear per axis,
angular as Euler angles), and its springs pull toward the rest pose.

* a 2- or 3-axis linear limit with a range (a distance limit: a sphere / cylinder, not a box);
* a 2- or 3-axis angular limit with a range (a cone or a total-angle limit, not per-axis Euler angles);
* a soft limit (``stiffness``) with a range: the spring would have to act only beyond the range.

A multi-axis limit whose maximum is 0 locks every listed axis and is exact; a soft limit without a range is a spring
toward the rest pose (approximated, reported by the joint step).
"""

from __future__ import annotations

EPS = 1e-9


def _has_range(limit) -> bool:
    lo, hi = limit.min, limit.max
    axes = limit.linear_axes or limit.angular_axes or ()
    if len(axes) > 1:
        return hi is None or hi > EPS
    return lo is None or hi is None or hi - lo > EPS


def joint_limits(description) -> list[tuple[int, str]]:
    """(limit index, reason) for each limit of ``description`` Blender cannot hold as the file means."""
    out = []
    for n, limit in enumerate(description.limits):
        axes = limit.linear_axes or limit.angular_axes or ()
        ranged = _has_range(limit)
        if len(axes) > 1 and ranged and (limit.max is not None or (limit.min or 0.0) > EPS):
            if limit.linear_axes:
                out.append((n, f"a {len(axes)}-axis distance limit with a range (Blender limits each axis separately)"))
            else:
                what = "cone" if len(axes) == 2 else "total-angle"
                out.append((n, f"a {what} limit (Blender limits Euler angles about each axis separately)"))
        if limit.stiffness is not None and ranged:
            out.append((n, "a soft limit with a range (Blender's spring pulls toward the rest pose, not beyond it)"))
    return out
