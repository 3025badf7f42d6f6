"""The world's boxes bucketed by the x / y cells their footprints cover (bpy-free, numpy + stdlib).

The initial-velocity pre-roll asks, per moving body, whether it rests on another box (``initial_velocity.
rests_on_something``): against every box of the world that is O(boxes) per body, quadratic over an import (10,000
moving boxes: 1.3 s of a 6 s import). A support must overlap the body's footprint (open intervals on x and y), and two
overlapping intervals share a cell (``floor`` is monotone), so only the boxes in the cells the body's footprint
covers can answer: the same result from a few boxes. Boxes that would cover more than ``MAX_CELLS`` cells (a ground)
or have non-finite bounds are read by every query.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from .initial_velocity import rests_on_something

MAX_CELLS = 64


class SupportGrid:
    """``boxes``: an (N, 2, 3) array of world axis-aligned boxes ((min x, y, z), (max x, y, z))."""

    def __init__(self, boxes) -> None:
        self.boxes = np.asarray(boxes, dtype=float).reshape(-1, 2, 3)
        finite = np.isfinite(self.boxes).all(axis=(1, 2))
        extents = (self.boxes[:, 1, :2] - self.boxes[:, 0, :2])[finite].ravel()
        extents = extents[extents > 0.0]
        cell = float(np.median(extents)) if len(extents) else 1.0
        self.cell = cell if math.isfinite(cell) and cell > 0.0 else 1.0
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.always: list[int] = []
        for i, (lo, hi) in enumerate(self.boxes[:, :, :2].tolist()):
            ranges = self._ranges(lo, hi) if finite[i] else None
            if ranges is None:
                self.always.append(i)
                continue
            for x in ranges[0]:
                for y in ranges[1]:
                    self.cells.setdefault((x, y), []).append(i)

    def _ranges(self, lo, hi) -> tuple[range, range] | None:
        """The cell columns and rows a footprint covers; None when they are more than ``MAX_CELLS``."""
        if not all(map(math.isfinite, (*lo, *hi))):
            return None
        x0, x1 = math.floor(lo[0] / self.cell), math.floor(hi[0] / self.cell) + 1
        y0, y1 = math.floor(lo[1] / self.cell), math.floor(hi[1] / self.cell) + 1
        # counted as Python ints: ``len(range)`` raises OverflowError beyond ``sys.maxsize`` cells (a 3.5e38 m box)
        if max(x1 - x0, 0) * max(y1 - y0, 0) > MAX_CELLS:
            return None
        return range(x0, x1), range(y0, y1)

    def candidates(self, box) -> list[int]:
        """Indices of the boxes whose footprint may overlap ``box``'s (every box for a huge or non-finite one)."""
        ranges = self._ranges(box[0][:2], box[1][:2])
        if ranges is None:
            return list(range(len(self.boxes)))
        found = set(self.always)
        for x in ranges[0]:
            for y in ranges[1]:
                found.update(self.cells.get((x, y), ()))
        return sorted(found)

    def rests_on_something(self, box, exclude: Iterable[int], velocity, gravity, seconds: float) -> bool:
        """``initial_velocity.rests_on_something(box, others, …)`` with ``others`` every box but ``exclude``."""
        skip = set(exclude)
        near = [i for i in self.candidates(box) if i not in skip]
        return rests_on_something(box, self.boxes[near], velocity, gravity, seconds)
