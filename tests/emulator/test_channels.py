"""FIFOs, signals and deadlocks on hand-written DataflowIR (shared/spec/dataflow-ir.md §7
E7, E8, E12): back-pressure, signal counting, deadlock reports, leftovers, type checks."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import (
    ChannelTypeError,
    DeadlockError,
    LeftoverError,
    WiringError,
    emulate,
)
from tests.emulator.programs import (
    compute_rows,
    device,
    load_rows,
    module,
    store_rows,
)


def _rows(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).random((n, 64)).astype(np.float16)


def test_pipeline_computes_with_numpy_rounding() -> None:
    a = _rows(32)
    m = module(load_rows(32) + compute_rows(16, "mul") + store_rows(16), nargs=2)
    r = emulate(m, device(), entry="k", args=[0, 4096], memory_init={"GM": [(0, a)]})
    assert np.array_equal(r.read("GM", 4096, (16, 64), np.float16), a[0::2] * a[1::2])
    assert set(r.units) == {"C0-LU", "C0-CU", "C0-SU"}
    assert r.units["C0-CU"].events == 16 * 4  # 2 receives, 1 op, 1 send per row
    assert r.bytes_per_datapath["LU->CU"] == 32 * 128


def _sender_only(n: int) -> str:
    return f"""  dataflow.program_unit %lu : {{
    %z = vectorchain.constant_bitstream {{value = [{', '.join(['0x3C00'] * 64)}]}} : vector<64xf16>
    %n = arith.constant {n} : index
    scf.for %i = %c0 to %n step %c1 {{
      dataflow.send %cu, %z : vector<64xf16>
    }}
  }}
"""


def test_full_fifo_blocks_the_sender() -> None:
    m = module(_sender_only(3))
    with pytest.raises(DeadlockError) as e:
        emulate(m, device(depth=2), entry="k", args=[0])
    text = e.value.text
    assert "C0-LU" in text
    assert "waits to send to C0-CU" in text
    assert "FIFO C0-LU -> C0-CU holds 2/2" in text
    assert "prog.mlir:" in text  # the op's location


def test_a_fifo_of_few_bytes_blocks_the_sender() -> None:
    """Depth 4 but 200 bytes: a second 128-byte message does not fit while one waits."""
    with pytest.raises(DeadlockError) as e:
        emulate(module(_sender_only(2)), device(depth=4, queue_bytes=200), entry="k",
                args=[0])
    assert "FIFO C0-LU -> C0-CU holds 1/4, 128/200 bytes" in e.value.text
    r = emulate(module(_sender_only(1)), device(depth=4, queue_bytes=200), entry="k", args=[0])
    assert any("holds 1/4, 128/200 bytes at the end" in w for w in r.warnings)


def test_messages_left_in_a_fifo_warn_or_fail_strictly() -> None:
    m = module(_sender_only(3))
    r = emulate(m, device(depth=4), entry="k", args=[0])
    assert any("holds 3/4" in w for w in r.warnings)
    with pytest.raises(LeftoverError, match="holds 3/4"):
        emulate(m, device(depth=4), entry="k", args=[0], strict=True)


def test_back_pressure_delays_the_producer() -> None:
    """A slow store side fills the FIFOs; with depth 2 the load unit stalls on sends far
    more than with depth 16, and the result is the same."""
    a = _rows(64)
    m = module(load_rows(64) + compute_rows(32) + store_rows(32), nargs=2)
    runs = {d: emulate(m, device(depth=d, store_bandwidth=2), entry="k", args=[0, 8192],
                       memory_init={"GM": [(0, a)]}) for d in (2, 16)}
    shallow, deep = runs[2].units["C0-LU"], runs[16].units["C0-LU"]
    assert shallow.stalled["send"] > deep.stalled["send"]
    assert shallow.end > deep.end
    for r in runs.values():
        assert np.array_equal(r.read("GM", 8192, (32, 64), np.float16), a[0::2] + a[1::2])


def _signals(sends: int, recvs: int) -> str:
    return f"""  dataflow.program_unit %lu : {{
    %n = arith.constant {sends} : index
    scf.for %i = %c0 to %n step %c1 {{
      dataflow.sync_send %cu {{wait_immediately_for_async_transfers = true}} : index
    }}
  }}
  dataflow.program_unit %cu : {{
    %n = arith.constant {recvs} : index
    scf.for %i = %c0 to %n step %c1 {{
      dataflow.sync_recv %lu : index
    }}
  }}
"""


def test_signals_count() -> None:
    r = emulate(module(_signals(3, 3)), device(), entry="k", args=[0])
    assert not any("signal C0-LU -> C0-CU" in w for w in r.warnings)
    assert r.units["C0-CU"].events == 3
    r = emulate(module(_signals(3, 2)), device(), entry="k", args=[0])
    assert any("signal C0-LU -> C0-CU count 1" in w for w in r.warnings)


def test_missing_signal_is_a_deadlock() -> None:
    with pytest.raises(DeadlockError) as e:
        emulate(module(_signals(3, 4)), device(), entry="k", args=[0])
    assert "C0-CU" in e.value.text
    assert "waits for a signal from C0-LU" in e.value.text
    assert "count 0" in e.value.text


DEADLOCK_CYCLE = """  dataflow.program_unit %lu : {
    dataflow.sync_recv %cu : index
    %z = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
    dataflow.send %cu, %z : vector<1xf16>
  }
  dataflow.program_unit %cu : {
    %x = dataflow.receive %lu : vector<1xf16>
    dataflow.sync_send %lu : index
  }
"""


def test_deadlock_of_a_receive_cycle_names_both_units() -> None:
    """How fast this is reported is measured in bench/emulator.py."""
    with pytest.raises(DeadlockError) as e:
        emulate(module(DEADLOCK_CYCLE), device(), entry="k", args=[0])
    lines = e.value.text.splitlines()
    assert "2 of them" in lines[0]
    assert any("C0-LU" in x and "a signal from C0-CU" in x and "prog.mlir:19:5" in x
               for x in lines)
    assert any("C0-CU" in x and "receive from C0-LU" in x and "FIFO C0-LU -> C0-CU holds 0/2"
               in x for x in lines)


def test_receiving_another_type_than_sent_fails() -> None:
    body = load_rows(1) + """  dataflow.program_unit %cu : {
    %x = dataflow.receive %lu : vector<32xf16>
  }
"""
    with pytest.raises(ChannelTypeError) as e:
        emulate(module(body), device(), entry="k", args=[0], memory_init={"GM": [(0, _rows(1))]})
    assert "received vector<32xf16> from C0-LU, but it sent vector<64xf16>" in e.value.text
    assert "unit C0-CU" in e.value.text
    assert "prog.mlir:" in e.value.text


def test_units_without_a_datapath_cannot_exchange_vectors() -> None:
    body = load_rows(1, to="%su")
    with pytest.raises(WiringError, match="no datapath from C0-LU to C0-SU"):
        emulate(module(body), device(), entry="k", args=[0], memory_init={"GM": [(0, _rows(1))]})


def test_unknown_unit_kind_and_core_are_reported() -> None:
    bad_kind = module("  %x = dataflow.get_unit {core = 0 : i32, name = \"C0-XU\", "
                      "type = \"XU\"} : index\n")
    with pytest.raises(WiringError, match="no unit or memory of kind 'XU'"):
        emulate(bad_kind, device(), entry="k", args=[0])
    bad_core = module("  %x = dataflow.get_unit {core = 3 : i32, name = \"C3-LU\", "
                      "type = \"LU\"} : index\n")
    with pytest.raises(WiringError, match="core 3 does not exist"):
        emulate(bad_core, device(), entry="k", args=[0])


def test_prelude_errors_are_located() -> None:
    bad = module("  %x = dataflow.get_unit {core = 0 : i32, name = \"C0-CU\", "
                 "type = \"LU\"} : index\n")
    with pytest.raises(WiringError) as e:
        emulate(bad, device(), entry="k", args=[0])
    assert "unit name 'C0-CU' does not match its type 'LU'" in e.value.text
    assert e.value.text.startswith("prog.mlir:")
