"""ktir-cpu's latency-model estimate beside our emulated cycles on `spyre`, same kernel files,
same inputs, one run.

    python bench/peer_latency.py [--ktir-cpu PATH] [--only NAME] [--device spyre] [--quick]

ktir-cpu estimates a kernel's cycles from the ops its interpreter executes (its
`HardwareConfig` defaults: 32 cores at 1 GHz, HBM shared, ring, SIMD lanes; compute, memory
and communication added with no overlap and no memory latency; docs/latency.md of its
repository). For each of its example kernels listed in CALLS, the inputs are drawn once
(this project's argument plan and seeded inputs, or the shapes ktir-cpu's tests use for the
large kernels, bench/interpreter.py's makers) and saved to one .npz; then

- ktir-cpu: `KTIRInterpreter(latency_config=HardwareConfig())` runs the kernel in a child
  process with its sources first on sys.path, and its report's `kernel_cycles` is read;
- ours: `ktir run FILE -d DEVICE --inputs IN.npz --arg SCALAR=V ... --json` (compile, emulate,
  check against the reference interpreter), its `cycles`, `roofline_cycles` and match.

The table gives both, our cycles over theirs, and the share of our cycles that one round trip
of the device's latency accounts for (small kernels are latency-bound on a pipelined machine;
ktir-cpu's model has no latency). The issue's bar (schedule quality): ours <= theirs on
every kernel they estimate at >= 10,000 cycles. A kernel we cannot run yet shows our
diagnostic's first line. `--quick` leaves out the kernels of more than a minute of emulation.

Measured 2026-12-06 (ktir-cpu at its mirror's HEAD 9e03d63; `--quick`, then the slow rows'
cycles from the same day's kernel sweep on the same files; cycles are the emulator's, so the
machine's load does not change them):

    kernel                         ktir-cpu       ours ours/theirs     bound latency share  match
    vector_add_ktir                     194        367       1.89x       348          60%  match
    softmax_small                       144        475       3.30x       284          46%  match
    matmul_small                        392        639       1.63x       300          34%  match
    rmsnorm_4core_4x1                 82950      49625       0.60x     49152           0%  match
    softmax_fwd_ktir 4096x1024       147456     131180       0.89x    131072           0%  match
    layernorm_fwd_ktir 1151x8192     925060     589624       0.64x    589348           0%  match
    rope_fwd_4x2 163840x128          794624     671960       0.85x    663552           0%  match
    matmul_fwd_ktir                  634880     570271       0.90x    272384*          0%  match
    paged_attention                   18928          -   ('linalg.index' op: no DataflowIR lowering)
    ffn_swiglu                          453       1888       4.17x       605          12%  match
    ffn_swiglu_4core                  14256      14429       1.01x     12524           2%  match
    sdpa_2d                             528       4150       7.86x       348           5%  match
    sdpa_pv_ksplit                    16813      19861       1.18x     16732           1%  match

(*: compulsory traffic; the traffic any per-tile schedule of it moves, each tile's B and A
once, takes 565,248 cycles of DDR.) ffn_swiglu_4core was 15,869 before `fuse-compute-groups` (its two phases, and its
all-reduce and final add, now share launches). sdpa_pv_ksplit cannot come under 16,813 on
this machine: its DDR traffic alone takes 16,514 cycles and its cross-core sum can only start
after the last partial, where ktir-cpu's model has no latency. The 2026-12-02 table (before
the contraction and cross-core work): rmsnorm_4core_4x1 49,840, softmax_fwd_ktir 131,539,
layernorm_fwd_ktir 589,682; matmul_small, matmul_fwd_ktir did not run.

Earlier, before the reduction passes: softmax_small 485, rmsnorm_4core_4x1 100,876, softmax_fwd_ktir
132,080, layernorm_fwd_ktir 591,772; before issue 14's schedule work: softmax_fwd_ktir
227,584, rope_fwd_4x2 2,594,400, rmsnorm_4core_4x1 490,752 (layernorm_fwd_ktir did not
run). The small kernels are latency-bound on a pipelined machine (ktir-cpu's model has no
memory latency).

ktir-cpu is read as bench/interpreter.py reads it (a checkout, or a bare mirror whose HEAD is
exported to a temporary folder); nothing of it is imported here.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.interpreter import (
    MIRROR,
    ktir_cpu_sources,
    layernorm_inputs,
    matmul_inputs,
    paged_attention_inputs,
    rope_inputs,
    softmax_inputs,
)

THRESHOLD = 10_000  # cycles: the bar applies to kernels ktir-cpu estimates at least this long

KTIR_CPU_CHILD = """
import sys, json
import numpy as np
src, kernel, function, given = sys.argv[1:5]
sys.path.insert(0, src)
from ktir_cpu import KTIRInterpreter
from ktir_cpu.latency import HardwareConfig
kwargs = {k: (v.item() if v.ndim == 0 else v) for k, v in np.load(given).items()}
interp = KTIRInterpreter(latency_config=HardwareConfig())
interp.load(kernel)
interp.execute_function(function, **kwargs)
print(json.dumps({"cycles": float(interp.get_latency_report().kernel_cycles)}))
"""


@dataclass(frozen=True)
class Call:
    name: str
    path: str                                   # in ktir-cpu's examples/
    function: str
    scalars: dict[str, int | float] = field(default_factory=dict)
    make: Any = None                            # () -> all inputs; None: this project draws them
    slow: bool = False                          # more than a minute of emulation


CALLS = (
    Call("vector_add_ktir", "triton-ktir/vector_add_ktir.mlir", "add_kernel",
         {"BLOCK_SIZE": 128}),
    Call("softmax_small", "latency/softmax_small.mlir", "softmax_kernel_small",
         {"n_rows": 64}),
    Call("matmul_small", "latency/matmul_small.mlir", "matmul_kernel_small",
         {"K": 64, "BLOCK_SIZE_M": 8, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32}),
    Call("rmsnorm_4core_4x1", "latency/rmsnorm_4core_4x1.mlir", "rmsnorm_4x1",
         {"N": 4096, "eps": 1e-5, "BLOCK_SIZE": 1024}),
    Call("softmax_fwd_ktir 4096x1024", "triton-ktir/softmax_fwd_ktir.mlir", "softmax_kernel",
         make=softmax_inputs, slow=True),
    Call("layernorm_fwd_ktir 1151x8192", "triton-ktir/layernorm_fwd_ktir.mlir",
         "_layer_norm_fwd_fused", make=layernorm_inputs, slow=True),
    Call("rope_fwd_4x2 163840x128", "latency/rope_fwd_4x2.mlir", "rope_fwd_kernel",
         make=rope_inputs(False), slow=True),
    Call("matmul_fwd_ktir", "triton-ktir/matmul_fwd_ktir.mlir", "matmul_kernel",
         make=matmul_inputs, slow=True),
    Call("paged_attention", "triton-ktir/paged_attention.mlir",
         "kernel_unified_attention_spyre_2d", make=paged_attention_inputs),
    Call("ffn_swiglu", "ktir/ffn_swiglu.mlir", "ffn_swiglu"),
    Call("ffn_swiglu_4core", "ktir/ffn_swiglu_4core.mlir", "ffn_swiglu_4core"),
    Call("sdpa_2d", "triton-ktir/sdpa_2d.mlir", "sdpa_kernel_2d"),
    Call("sdpa_pv_ksplit", "sdsc/sdpa_pv_ksplit.mlir", "sdpa_pv_ksplit"),
)


def _function_name(kernel: Path, wanted: str) -> str:
    """`wanted` when the file defines it, else the file's only kernel (the names in CALLS
    follow ktir-cpu's tests; a file may have been renamed since)."""
    from xdsl.dialects import func

    from ktir.context import load_module

    fns = [op.sym_name.data for op in load_module(kernel).walk() if isinstance(op, func.FuncOp)]
    return wanted if wanted in fns or len(fns) != 1 else fns[0]


def inputs_of(call: Call, kernel: Path, function: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(buffers, scalars) for one call: the call's maker, or this project's argument plan
    and seeded inputs (seed 0) for the scalars the call binds."""
    if call.make is not None:
        given = call.make()
        return ({k: v for k, v in given.items() if np.ndim(v)},
                {k: v for k, v in given.items() if not np.ndim(v)})
    from xdsl.dialects import func

    from ktir.context import load_module
    from ktir.interpreter.arguments import make_inputs, plan_kernel

    fn = next(op for op in load_module(kernel).walk()
              if isinstance(op, func.FuncOp) and op.sym_name.data == function)
    specs, fixed = plan_kernel(fn, {k: repr(v) for k, v in call.scalars.items()})
    return make_inputs(specs + fixed, 0), dict(call.scalars)


def theirs(src: Path, kernel: Path, function: str, npz: Path) -> float | str:
    cmd = [sys.executable, "-c", KTIR_CPU_CHILD, str(src), str(kernel), function, str(npz)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=os.environ.copy())
    if done.returncode:
        return (done.stderr.strip().splitlines() or ["failed"])[-1][:60]
    return float(json.loads(done.stdout.strip().splitlines()[-1])["cycles"])


def ours(kernel: Path, function: str, buffers: Path, scalars: dict[str, Any],
         device: str) -> dict[str, Any]:
    exe = shutil.which("ktir", path=str(Path(sys.executable).parent)) or "ktir"
    cmd = [exe, "run", str(kernel), "-d", device, "--function", function, "--inputs",
           str(buffers), "--json", "-q", "--rtol", "1e-2", "--atol", "1e-2"]
    for k, v in scalars.items():
        cmd += ["--arg", f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        err = next((ln for ln in done.stderr.splitlines() if "error" in ln), done.stderr)
        return {"error": err.split("error:", 1)[-1].strip()[:70]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ktir-cpu", type=Path, default=MIRROR,
                   help="ktir-cpu's sources: a checkout or a bare git repository")
    p.add_argument("--only", action="append", default=None,
                   help="calls whose name contains this text (repeatable)")
    p.add_argument("--device", default="spyre")
    p.add_argument("--quick", action="store_true", help="leave out the slow calls")
    a = p.parse_args(argv)
    if not a.ktir_cpu.exists():
        p.error(f"--ktir-cpu: {a.ktir_cpu} does not exist")
    calls = [c for c in CALLS if (a.only is None or any(s in c.name for s in a.only))
             and not (a.quick and c.slow)]
    print(f"{'kernel':30} {'ktir-cpu':>10} {'ours':>10} {'ours/theirs':>11} "
          f"{'bound':>9} {'latency share':>13}  match / why not")
    met = True
    with tempfile.TemporaryDirectory(prefix="bench-peer-") as tmp:
        scratch = Path(tmp)
        src = ktir_cpu_sources(a.ktir_cpu, scratch)
        for call in calls:
            kernel = src / "examples" / call.path
            function = _function_name(kernel, call.function)
            buffers, scalars = inputs_of(call, kernel, function)
            npz = scratch / "in.npz"
            np.savez(npz, **{k: np.asarray(v) for k, v in {**buffers, **scalars}.items()})
            bufs = scratch / "buffers.npz"
            np.savez(bufs, **buffers)
            est = theirs(src, kernel, function, npz)
            got = ours(kernel, function, bufs, scalars, a.device)
            cyc = got.get("cycles")
            if isinstance(est, str):
                print(f"{call.name:30} {'-':>10}  ktir-cpu: {est}")
                continue
            if cyc is None:
                print(f"{call.name:30} {est:10.0f} {'-':>10} {'':11} {'':9} {'':13}  "
                      f"{got.get('error', 'no cycles')}")
                met &= est < THRESHOLD
                continue
            rt = got.get("round_trip_cycles") or 0
            ok = cyc <= est or est < THRESHOLD
            met &= ok
            print(f"{call.name:30} {est:10.0f} {cyc:10d} {cyc / est:10.2f}x "
                  f"{got.get('roofline_cycles', 0):9.0f} {rt / cyc:12.0%}  "
                  f"{'match' if got.get('match') else 'MISMATCH'}"
                  f"{'' if ok else '  (over the bar)'}", flush=True)
    print(f"bar: ours <= ktir-cpu's estimate on every kernel it estimates at >= {THRESHOLD} "
          "cycles: " + ("met" if met else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
