"""32-bit float values as the exporter writes them: the one home of ``r7`` (bpy-free)."""

from __future__ import annotations


def r7(value: float) -> float:
    """A 32-bit float value (Blender property or mesh coordinate) written with 7 significant digits (``.7g``).

    Seven digits drop the float32 → float64 noise (0.1f reads as 0.10000000149…) but are not always enough to read
    back as the same float32 (that can take 9); the exported files depend on exactly this form.
    """
    return float(f"{float(value):.7g}")
