"""Times the KTIR reference interpreter on three workloads and compares with ktir-cpu.

    python bench/interpreter.py [--repeat 3] [--ktir-cpu-examples DIR]

The workloads are this project's example kernels (examples/kernels/) at benchmark sizes:
softmax of 4096 x 1024 fp16 over 32 tiles, layer norm of 1151 x 8192 fp16 over 32 tiles, and
a 64 x 2048 . 2048 x 8192 fp16 matmul on a 2 x 16 grid. Inputs are generated before timing;
a timing covers what `ktir.interpret` does with given arrays: planning the arguments,
compiling, running every tile and reading the outputs back (best of `--repeat`; wall time,
and the process's CPU time, which other jobs on a shared machine disturb less). With
`--ktir-cpu-examples` pointing at ktir-cpu's `examples/triton-ktir/`, its own kernels for the
same workloads are timed too. The reference figures are ktir-cpu's times on a 2-core machine
like ours. BLAS runs single-threaded: on two shared cores the 32 x 128 x 512 products gain
nothing from threads and lose much to contention.

Measured on the project's 2-core machine while other jobs kept its load average at 4-6 (wall
seconds vary with that load; CPU seconds much less):

    workload     wall s (best runs)   CPU s   ktir-cpu s   speed-up (wall)
    softmax      0.62 - 0.81          0.40    11.8         15-19x
    layernorm    1.23 - 1.89          0.79-0.95  15.0      8-12x
    matmul       0.37 - 0.66          0.31-0.32  7.7       12-21x
    peak memory (max RSS) 186-291 MiB

ktir-cpu's own three kernels run at about the same speed here (0.8 s, 1.8-2.6 s, 0.6-0.9 s).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "examples" / "kernels"


@dataclass(frozen=True)
class Workload:
    name: str
    kernel: str
    args: dict[str, object]
    elements: int  # elements of the main tensor (for elements per second)
    reference_s: float  # ktir-cpu on this machine
    cpu_kernel: str
    cpu_args: dict[str, object]


WORKLOADS = (
    Workload("softmax 4096x1024 fp16, 32 tiles", "softmax.mlir", {"M": 4096}, 4096 * 1024,
             11.8, "softmax_fwd_ktir.mlir", {"n_rows": 4096}),
    Workload("layernorm 1151x8192 fp16, 32 tiles", "layernorm.mlir",
             {"M": 1151, "N": 8192, "eps": 1e-5}, 1151 * 8192, 15.0,
             "layernorm_fwd_ktir.mlir", {"N": 8192, "eps": 1e-5, "BLOCK_SIZE": 1024}),
    Workload("matmul 64x2048 . 2048x8192 fp16, 2x16 grid", "matmul.mlir", {"K": 2048},
             64 * 8192, 7.7, "matmul_fwd_ktir.mlir",
             {"K": 2048, "BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 512, "BLOCK_SIZE_K": 128}),
)


def time_kernel(path: Path, args: dict[str, object], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time of `repeat` runs with fixed inputs."""
    from ktir.context import load_module
    from ktir.interpreter import make_inputs, plan_arguments, run_kernel, select_kernel

    module = load_module(path)
    fn = select_kernel(module)
    inputs = make_inputs(plan_arguments(fn, {k: str(v) for k, v in args.items()}), seed=0)
    best = cpu = float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        run_kernel(module, args=args, inputs=inputs)
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return best, cpu


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--ktir-cpu-examples", type=Path, default=None,
                   help="ktir-cpu's examples/triton-ktir/ folder, to time its kernels too")
    a = p.parse_args(argv)
    print(f"{'workload':46} {'kernel':10} {'seconds':>8} {'cpu s':>6} {'Melem/s':>8} "
          f"{'ktir-cpu s':>10} {'speed-up':>8}")
    ok = True
    for w in WORKLOADS:
        runs = [("ours", KERNELS / w.kernel, w.args)]
        if a.ktir_cpu_examples is not None:
            runs.append(("ktir-cpu's", a.ktir_cpu_examples / w.cpu_kernel, w.cpu_args))
        for label, path, args in runs:
            secs, cpu = time_kernel(path, args, a.repeat)
            ratio = w.reference_s / secs
            ok &= label != "ours" or ratio >= 10
            print(f"{w.name:46} {label:10} {secs:8.3f} {cpu:6.3f} {w.elements / secs / 1e6:8.1f} "
                  f"{w.reference_s:10.1f} {ratio:7.1f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MiB")
    print("target: each of our timings at most one tenth of ktir-cpu's, peak memory < 2 GiB: "
          + ("met" if ok and peak < 2048 else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
