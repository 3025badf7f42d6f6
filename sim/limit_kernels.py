"""Chunked numpy kernels behind ``limits.limit_metric``: only the components a metric needs, cache-sized blocks.

Complex-pair trick: view a quaternion row (x, y, z, w) as two complex numbers c0 = x + iy, c1 = z + iw. For
q_rel = conj(a) ⊗ b,

    P = c0a·c̄0b + c1a·c̄1b = w_rel + i·z_rel        X = c1a·c0b − c0a·c1b = −y_rel + i·x_rel

so a twist about Z needs one (n, 2) complex product instead of eight strided real ones. For a twist about X or Y the
rows are first reordered by a small matrix product (BLAS, in cache) into a layout where the same P gives w + i·v_x
(resp. w + i·v_y). A frame-A coordinate uses the same idea: with c0 = q_j + i·q_k, c1 = q_i + i·w and δ = Δ_j + i·Δ_k,
``d_i·|q|² = Δ_i·(|c1|² − |c0|²) + 2·Re(c0·conj(c1·δ))`` (i, j, k cyclic).
"""

from __future__ import annotations

import numpy as np

CHUNK = 32768  # samples per block: inputs and scratch stay in cache; few, large numpy calls


def _matrix(pairs: list[tuple[int, int, float]], shape: tuple[int, int]) -> np.ndarray:
    m = np.zeros(shape)
    for row, col, value in pairs:
        m[row, col] = value
    return m


# ã = a @ M: (v_j, v_k, w, −v_i) for the twist axis i, so that P(ã, b̃) = w_rel + i·v_i (Z is the natural layout).
TWIST_LAYOUT = {
    0: _matrix([(1, 0, 1), (2, 1, 1), (3, 2, 1), (0, 3, -1)], (4, 4)),  # (y, z, w, −x)
    1: _matrix([(2, 0, 1), (0, 1, 1), (3, 2, 1), (1, 3, -1)], (4, 4)),  # (z, x, w, −y)
    2: None,
}
# cyclic reorderings (q_j, q_k, q_i, w) and (Δ_j, Δ_k, Δ_i) for a frame-A coordinate along axis i
CYCLE_Q = {
    i: None if i == 2 else _matrix([((i + 1) % 3, 0, 1), ((i + 2) % 3, 1, 1), (i, 2, 1), (3, 3, 1)], (4, 4))
    for i in range(3)
}
CYCLE_T = {
    i: None if i == 2 else _matrix([((i + 1) % 3, 0, 1), ((i + 2) % 3, 1, 1), (i, 2, 1)], (3, 3)) for i in range(3)
}
NORMS = np.array([[-1.0, 1.0], [-1.0, 1.0], [1.0, 1.0], [1.0, 1.0]])  # |q|² terms → (|c1|² − |c0|², |q|²)


class Scratch:
    """Preallocated block buffers (allocating inside the chunk loop costs more than the arithmetic)."""

    def __init__(self, size: int):
        self.qa = np.empty((size, 4))
        self.qb = np.empty((size, 4))
        self.pair = np.empty((size, 2), np.complex128)
        self.cross = np.empty((size, 2), np.complex128)
        self.rows = np.empty((4, size))
        self.delta = np.empty((size, 3))
        self.delta_p = np.empty((size, 3))
        self.norms = np.empty((2, size))
        self.e = np.empty(size, np.complex128)


def _layout(src: np.ndarray, matrix: np.ndarray | None, buffer: np.ndarray) -> np.ndarray:
    """``src @ matrix`` into ``buffer``, or ``src`` itself if it is already a C-contiguous float64 block."""
    n = len(src)
    if matrix is not None:
        return np.matmul(src, matrix, out=buffer[:n])
    if src.dtype == np.float64 and src.flags.c_contiguous:
        return src
    np.copyto(buffer[:n], src)
    return buffer[:n]


def _w_and_z(ca: np.ndarray, cb: np.ndarray, s: Scratch, w: np.ndarray, z: np.ndarray) -> np.ndarray:
    """P = Σ c_a·c̄_b into real rows ``w`` (real part) and ``z`` (imaginary part); returns the (n, 2) products."""
    m = s.pair[: len(ca)]
    np.conjugate(cb, out=m)
    np.multiply(ca, m, out=m)
    np.add(m[:, 0].real, m[:, 1].real, out=w)
    np.add(m[:, 0].imag, m[:, 1].imag, out=z)
    return m


def _cross_part(ca: np.ndarray, cb: np.ndarray, s: Scratch) -> np.ndarray:
    """X = c1a·c0b − c0a·c1b (complex, length n)."""
    n = len(ca)
    x, t = s.cross[:n, 0], s.cross[:n, 1]
    np.multiply(ca[:, 1], cb[:, 0], out=x)
    np.multiply(ca[:, 0], cb[:, 1], out=t)
    x -= t
    return x


def twist(axis: int, a: np.ndarray, b: np.ndarray, out: np.ndarray, s: Scratch) -> None:
    """Signed twist 2·atan(v_i / w) (= 2·atan2(v_i, w) with q_rel in the w ≥ 0 hemisphere; w = 0 gives ±π)."""
    matrix = TWIST_LAYOUT[axis]
    ca = _layout(a, matrix, s.qa).view(np.complex128)
    cb = _layout(b, matrix, s.qb).view(np.complex128)
    w = s.rows[0, : len(out)]
    _w_and_z(ca, cb, s, w, out)
    np.divide(out, w, out=out)  # errors silenced in evaluate()
    np.arctan(out, out=out)
    out *= 2.0
    undefined = np.isnan(out)
    if undefined.any():  # w = v_i = 0: a half-turn swing has no twist (as quat.twist_swing)
        out[undefined & (w == 0.0)] = 0.0


def cone(axes: tuple[int, int], a, b, out, s: Scratch) -> None:
    """Cone about the remaining axis k: 2·atan2(√(v_i² + v_j²), √(w² + v_k²)) = acos(e_k·R(q_rel)·e_k)."""
    k = 3 - sum(axes)
    matrix = TWIST_LAYOUT[k]
    ca = _layout(a, matrix, s.qa).view(np.complex128)
    cb = _layout(b, matrix, s.qb).view(np.complex128)
    n = len(out)
    w, vk, num, den = (s.rows[i, :n] for i in range(4))
    _w_and_z(ca, cb, s, w, vk)
    x = _cross_part(ca, cb, s)  # the two other components, up to sign and order, in this layout
    np.multiply(x.real, x.real, out=num)
    num += x.imag * x.imag
    np.multiply(w, w, out=den)
    den += vk * vk
    np.sqrt(num, out=num)
    np.sqrt(den, out=den)
    np.arctan2(num, den, out=out)
    out *= 2.0


def total(a, b, out, s: Scratch) -> None:
    """Total angle 2·atan2(|v|, |w|) of q_rel (= 2·acos(|w|) for unit quaternions, accurate near 0)."""
    ca = _layout(a, None, s.qa).view(np.complex128)
    cb = _layout(b, None, s.qb).view(np.complex128)
    n = len(out)
    w, vz, num = (s.rows[i, :n] for i in range(3))
    _w_and_z(ca, cb, s, w, vz)
    x = _cross_part(ca, cb, s)
    np.multiply(x.real, x.real, out=num)
    num += x.imag * x.imag
    num += vz * vz
    np.sqrt(num, out=num)
    np.abs(w, out=w)
    np.arctan2(num, w, out=out)
    out *= 2.0


def frame_a_coordinate(axis: int, t_a, a, t_b, out, s: Scratch) -> None:
    """d_i = (R(qA)ᵀ(tB − tA))_i for a quaternion of any length (divided by |qA|²)."""
    n = len(out)
    delta = np.subtract(t_b, t_a, out=s.delta[:n])
    if CYCLE_T[axis] is not None:
        delta = np.matmul(delta, CYCLE_T[axis], out=s.delta_p[:n])
    q = _layout(a, CYCLE_Q[axis], s.qa)
    squares = np.multiply(q, q, out=s.qb[:n])
    norms = np.matmul(NORMS.T, squares.T, out=s.norms[:, :n])  # rows |c1|² − |c0|² and |q|²
    e = s.e[:n]
    cq = q.view(np.complex128)
    np.multiply(cq[:, 1], delta[:, :2].view(np.complex128)[:, 0], out=e)  # c1·δ
    np.conjugate(e, out=e)
    e *= cq[:, 0]  # c0·conj(c1·δ)
    cross = np.add(e.real, e.real, out=s.rows[2, :n])
    np.multiply(delta[:, 2], norms[0], out=out)
    out += cross
    out /= norms[1]


def linear(axes: tuple[int, ...], t_a, a, t_b, out, s: Scratch) -> None:
    n = len(out)
    if len(axes) == 3:
        delta = np.subtract(t_b, t_a, out=s.delta[:n])
        np.einsum("ij,ij->i", delta, delta, out=out)
        np.sqrt(out, out=out)
        return
    frame_a_coordinate(axes[0], t_a, a, t_b, out, s)
    if len(axes) == 2:  # √(dᵢ² + dⱼ²); np.hypot is slower here (tests/bench/bench_limits.py)
        other = s.rows[3, :n]
        frame_a_coordinate(axes[1], t_a, a, t_b, other, s)
        np.multiply(out, out, out=out)
        other *= other
        out += other
        np.sqrt(out, out=out)


def evaluate(kind: str, axes: tuple[int, ...], t_a, q_a, t_b, q_b) -> np.ndarray:
    """Run one metric over all samples in blocks of ``CHUNK`` (inputs already broadcast to (N, 3) / (N, 4))."""
    n = len(q_a)
    out = np.empty(n)
    s = Scratch(min(CHUNK, n))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # once per call: w → 0 gives ±inf → ±π
        for start in range(0, n, CHUNK):
            _block(kind, axes, slice(start, min(start + CHUNK, n)), t_a, q_a, t_b, q_b, out, s)
    return out


def _block(kind, axes, part, t_a, q_a, t_b, q_b, out, s) -> None:
    a, b, o = q_a[part], q_b[part], out[part]
    if kind == "linear":
        linear(axes, t_a[part], a, t_b[part], o, s)
    elif len(axes) == 1:
        twist(axes[0], a, b, o, s)
    elif len(axes) == 2:
        cone(axes, a, b, o, s)
    else:
        total(a, b, o, s)
