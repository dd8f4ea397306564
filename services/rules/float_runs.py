"""Precomputed float32 runs for observation builders.

An observation builder that joins byte runs made at import (`b"".join(runs)`, then one
`np.frombuffer`) writes a whole tensor for the cost of a list append per field, far less than
numpy item writes. Each value is its float64 expression rounded once to float32, exactly as storing
it into a float32 array rounds it, so a tensor built from runs equals one written field by field.
"""

from __future__ import annotations

import numpy as np


def floats(*values: float) -> bytes:
    """The float32 bytes of values (each a float64 rounded once)."""
    return np.array(values, dtype=np.float64).astype(np.float32).tobytes()


def one_hot(index: int | None, size: int) -> bytes:
    """size floats, 1.0 at index and 0.0 elsewhere (all zeros for None)."""
    return floats(*(1.0 if j == index else 0.0 for j in range(size)))
