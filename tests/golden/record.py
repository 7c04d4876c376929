"""Record what the compiler and the emulator produce today, so a restructure can prove that
nothing changed (issue 10: "a test compares against results recorded before the change").

For each case (the supported example kernels on every shipped device, and a fixed set of
random element-wise kernels) it stores the kernel text, the DataflowIR in custom and generic
form, the scheduled ScheduleIR, and the emulation: cycles, the bound and its binding
resource, per-unit statistics, bytes per datapath, per link and per shared memory, events,
warnings and the SHA-256 of every output buffer.

    python -m tests.golden.record          # rewrites tests/golden/recorded/*.json.gz
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = HERE / "recorded"
EXAMPLES = ["add_96x64", "bias_add", "eltwise_chain", "mul_max"]
DEVICES = ["sample_device", "spyre", "stream_device"]
N_RANDOM = 24


def random_specs():
    from tests.strategies.kernels import OPS, ElementwiseSpec

    rng = random.Random(20261201)
    for i in range(N_RANDOM):
        grid = rng.choice([1, 2, 4, 8, 16, 32])
        rows = grid * rng.randint(1, 3)
        cols = 64 * rng.randint(1, 3)
        n_inputs = rng.randint(1, 3)
        broadcast = n_inputs > 1 and rng.random() < 0.5
        chain = []
        for k in range(rng.randint(1, 4)):
            avail = n_inputs + k
            chain.append((rng.choice(sorted(OPS)), rng.randrange(avail), rng.randrange(avail)))
        form = ["named", "generic", "arith"][i % 3]
        yield (f"random_{i:02d}", DEVICES[i % 3],
               ElementwiseSpec(rows, cols, grid, tuple(chain), n_inputs, broadcast, form))


def cases():
    """(case name, kernel text, device)."""
    for k in EXAMPLES:
        text = (ROOT / "examples" / "kernels" / f"{k}.mlir").read_text()
        for d in DEVICES:
            yield f"{k}@{d}", text, d
    from tests.strategies.kernels import elementwise_kernel

    for name, device, spec in random_specs():
        yield f"{name}@{device}", elementwise_kernel(spec), device


def observe(text: str, device: str, tmp: Path) -> dict:
    """Everything recorded for one case, from the current code."""
    from xdsl.printer import Printer

    from ktir.context import load_module
    from ktir_tools.run import run_and_check
    from scheduler.driver import compile_module

    path = tmp / "kernel.mlir"
    path.write_text(text)
    ktdf = compile_module(load_module(path), device, emit="ktdf").module
    dfir = compile_module(load_module(path), device).module

    def generic(module) -> str:
        buf = io.StringIO()
        Printer(stream=buf, print_generic_format=True).print_op(module)
        return buf.getvalue()

    report = run_and_check(path, device)
    em = report.emulation
    return {
        "kernel": text,
        "device": device,
        "ktdf": str(ktdf),
        "dfir": str(dfir),
        "dfir_generic": generic(dfir),
        "ktdf_generic": generic(ktdf),
        "match": report.match,
        "cycles": em.cycles,
        "roofline": [em.roofline_cycles, em.binding_resource],
        "bytes_per_memory": {k: n for k, (n, _) in sorted(em.memory_ports.items())},
        "events": em.events,
        "warnings": list(em.warnings),
        "bytes_per_datapath": dict(em.bytes_per_datapath),
        "bytes_per_link": dict(em.bytes_per_link),
        "units": {n: [u.kind, u.busy, dict(sorted(u.stalled.items())), u.events, u.start, u.end]
                  for n, u in sorted(em.units.items())},
        "outputs": {n: hashlib.sha256(a.tobytes()).hexdigest()
                    for n, a in sorted(report.outputs.items())},
    }


def main() -> int:
    import tempfile

    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        for name, text, device in cases():
            rec = observe(text, device, Path(t))
            data = (json.dumps(rec, indent=1, sort_keys=True) + "\n").encode()
            (OUT / f"{name}.json.gz").write_bytes(gzip.compress(data, mtime=0))
            print(name, rec["cycles"], "match" if rec["match"] else "MISMATCH")
    return 0


if __name__ == "__main__":
    sys.exit(main())
