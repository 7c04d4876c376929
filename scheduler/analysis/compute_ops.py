"""The one table of element-wise compute the scheduler supports, shared by
`ktir-legality-check` (what it accepts) and the DataflowIR lowering (what it emits), so that
"accepted" always means "lowerable" (an upstream v1 limit, pipeline.md §4).

Each entry maps a scalar op of a `linalg.generic` body (or the same op applied to whole
tensors) to its `vectorchain` lowering and its latency class (arch.md §8).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VectorOp:
    """How one scalar op becomes a vector op: `kind` is the vectorchain op name; for
    `binary` the `operator` is its `binary_operator`."""

    kind: str
    operator: str | None
    arity: int
    latency_class: str


ELEMENTWISE: dict[str, VectorOp] = {
    "arith.addf": VectorOp("binary", "add", 2, "simple"),
    "arith.subf": VectorOp("binary", "sub", 2, "simple"),
    "arith.mulf": VectorOp("binary", "mul", 2, "mul"),
    "arith.maximumf": VectorOp("binary", "max", 2, "simple"),
    "arith.minimumf": VectorOp("binary", "min", 2, "simple"),
    "arith.negf": VectorOp("neg", None, 1, "simple"),
}

# Named linalg element-wise ops and the scalar op their body applies.
NAMED_LINALG: dict[str, str] = {
    "linalg.add": "arith.addf",
    "linalg.sub": "arith.subf",
    "linalg.mul": "arith.mulf",
    "linalg.max": "arith.maximumf",
    "linalg.min": "arith.minimumf",
}


def supported_list() -> str:
    return ", ".join(sorted(ELEMENTWISE) + sorted(NAMED_LINALG))
