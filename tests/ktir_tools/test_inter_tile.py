"""End to end: inter-tile communication (`inter_tile_produce` / `reduce` / `consume`)
compiles through inter-tile-exchange, runs on the emulator and matches the reference
interpreter bit for bit (the fold starts at the identity and takes the partials in ascending
producer tile id on both sides); the partials cross the ring, device memory sees only the
kernel's own traffic. On devices whose cores share only device memory the slots are in a
workspace the runner places after the kernel's buffers (the kernel's last argument)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ktir.interpreter import run_kernel
from ktir_tools.run import run_and_check

ROOT = Path(__file__).resolve().parents[2]
KERNELS = Path(__file__).resolve().parent / "kernels"


def _matches(path: Path, device: str = "spyre"):
    report = run_and_check(path, device)
    assert report.checks, report.to_json()
    assert report.match, report.to_json()
    assert not [w for w in report.emulation.warnings if "at the end" in w]
    return report


def test_allreduce_sums_each_group_over_the_ring() -> None:
    report = _matches(ROOT / "examples" / "kernels" / "allreduce.mlir")
    moved = report.emulation.bytes_per_datapath
    row = 256 * 4
    # X read once and Out written once: the exchange moves no device-memory byte
    assert report.to_json()["bytes_per_memory"] == {"DDR": 2 * 8 * row}
    # per group: its 4 partials read over the ring once, the sum written to its 4 consumers
    assert moved["LX->RING"] == 2 * (4 + 4) * row
    assert moved["RING->LX"] == moved["LX->RING"]


def test_reduces_in_a_carried_loop_with_one_writer_per_group() -> None:
    report = _matches(KERNELS / "intertile_loop_writers.mlir")
    out = report.outputs["Out"]
    assert out.shape == (2, 64)
    assert (out != 0).any()


def test_consume_delivers_the_partial_the_dependency_names() -> None:
    report = _matches(KERNELS / "intertile_consume.mlir")
    ref = run_kernel(KERNELS / "intertile_consume.mlir")
    x = ref.inputs["X"]
    assert (report.outputs["Out"] == (x + x)[::-1]).all()


@pytest.mark.parametrize("device", ["sample_device", "stream_device"])
@pytest.mark.parametrize("kernel", ["allreduce", "loop_writers", "consume", "leaders"])
def test_without_a_ring_the_slots_are_in_a_device_memory_workspace(kernel: str,
                                                                  device: str) -> None:
    path = (ROOT / "examples" / "kernels" / "allreduce.mlir" if kernel == "allreduce"
            else KERNELS / f"intertile_{kernel}.mlir")
    report = _matches(path, device)
    moved = report.emulation.bytes_per_datapath
    assert not [k for k in moved if "RING" in k]


def test_the_workspace_is_the_kernels_last_argument() -> None:
    from ktir.context import load_module
    from scheduler.driver import compile_module
    from scheduler.transforms.inter_tile_exchange import WORKSPACE_ATTR

    compiled = compile_module(load_module(ROOT / "examples" / "kernels" / "allreduce.mlir"),
                              "sample_device")
    host = next(f for f in compiled.module.walk()
                if getattr(f, "sym_name", None) is not None and f.sym_name.data == "allreduce"
                and not f.is_declaration)
    assert [a.name_hint for a in host.args] == ["X", "Out", "workspace"]
    ws = host.arg_attrs.data[-1].data[WORKSPACE_ATTR].data
    # a partial slot and a result slot per tile, 1 KiB each
    assert ws["bytes"].value.data == 2 * 8 * 1024
    assert ws["element_bytes"].value.data == 4


@pytest.mark.parametrize("device", ["spyre", "sample_device"])
def test_distributed_views_with_one_layout_are_plain_views(device: str) -> None:
    report = _matches(KERNELS / "column_halves.mlir", device)
    if device == "spyre":  # (sample_device's memories report no bytes)
        assert report.to_json()["bytes_per_memory"] == {"DDR": 3 * 4 * 128 * 2}  # X, W, Y once


def test_tiles_outside_the_consumer_set_receive_the_identity() -> None:
    report = _matches(KERNELS / "intertile_leaders.mlir")
    out = report.outputs["Out"]
    assert not out[[1, 2, 3, 5, 6, 7]].any()
    assert out[[0, 4]].any()
