"""Training of the bots' ONNX policies: search teacher, imitation, export, tournament (torch: the
`train` extra; nothing under workers/bots or services imports this package).

Reproducible across machines: torch, MKL and OpenBLAS each pick their float kernels by the CPU's
instruction set, and kernels of different widths sum in different orders, so the same training run
gave a different network on an AVX-512 machine than on an AVX2 one (measured: torch's
`ATEN_CPU_CAPABILITY` alone changed the imitation student's weights; OpenBLAS picks SkylakeX kernels
on Intel's AVX-512 and Haswell's here). Every entry point of this package (`python -m
workers.training.<tool>`) runs the package first, so the kernels are pinned here to the AVX2 ones
every x86-64 machine of the last decade has, before numpy or torch load; a variable already set
wins, and the model card records what was in force (`float_kernels`).
"""

import os
import platform

FLOAT_KERNELS = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "AVX2", "OPENBLAS_CORETYPE": "Haswell"}

if platform.machine().lower() in ("x86_64", "amd64"):
    for _name, _value in FLOAT_KERNELS.items():
        os.environ.setdefault(_name, _value)
