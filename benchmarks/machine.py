"""Which CPU a benchmark ran on, for its record and its table's header.

Speed figures and, above all, ratios between JAX and PyTorch paths depend on the CPU's vector and
matrix units: the compiled trainer's ``matmul_dtype="auto"`` computes in bfloat16 only where the CPU
has bfloat16 matrix instructions (Intel AMX, AVX512-BF16), and float32 products run on AVX-512 or
AVX2. The same command gave Haste Bock?'s trainer 42.6× SB3 on an Intel CPU with AMX (session 28)
and 18–20× on an AMD EPYC with AVX2 only (session 29), so every record says which it was.
"""

from __future__ import annotations

from meadowzoo.training.jax_config import BFLOAT16_CPU_FLAGS, cpu_flags

#: the widest vector instruction set a CPU reports, widest first (Linux /proc/cpuinfo flags)
VECTOR_FLAGS = (("avx512f", "AVX-512"), ("avx2", "AVX2"), ("avx", "AVX"), ("sse4_2", "SSE4.2"))


def cpu_info(cpuinfo: str = "/proc/cpuinfo") -> dict:
    """The CPU's model name, its widest vector instruction set and whether it has bfloat16 matrix
    instructions; ``"unknown"`` (None for the units) where ``cpuinfo`` cannot be read (off Linux)."""
    flags = cpu_flags(cpuinfo)
    if flags is None:
        return {"model": "unknown", "vector": "unknown", "bfloat16_units": None}
    with open(cpuinfo) as handle:
        model = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), "unknown")
    vector = next((name for flag, name in VECTOR_FLAGS if flag in flags),
                  "none of " + ", ".join(name for _, name in VECTOR_FLAGS))
    return {"model": model, "vector": vector, "bfloat16_units": any(flag in flags for flag in BFLOAT16_CPU_FLAGS)}


def describe_cpu(info: dict | None = None) -> str:
    """A few words for a table's header, e.g. ``"AMD EPYC: AVX2, no bfloat16 matrix units"``."""
    info = cpu_info() if info is None else info
    units = {True: "bfloat16 matrix units", False: "no bfloat16 matrix units", None: "bfloat16 units unknown"}
    return f"{info['model']}: {info['vector']}, {units[info['bfloat16_units']]}"
