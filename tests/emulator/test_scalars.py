"""Scalar integer ops in programs follow the rules the interpreter follows
(ktir/semantics.py): division rounds toward zero, ceildiv up, floordiv down, results wrap."""

from __future__ import annotations

import numpy as np
import pytest

from emulator import emulate
from ktir.semantics import ceildiv, tdiv, trem, wrap_int
from tests.emulator.programs import device, module

CASES = [(-7, 2), (7, 2), (7, -2), (-8, 4), (9223372036854775807, -1)]
OPS = {"arith.divsi": tdiv, "arith.remsi": trem, "arith.ceildivsi": ceildiv,
       "arith.floordivsi": lambda a, b: a // b, "arith.muli": lambda a, b: a * b,
       "arith.addi": lambda a, b: a + b}


@pytest.mark.parametrize(("a", "b"), CASES)
def test_integer_division_and_wrap_around(a: int, b: int) -> None:
    stores = "\n".join(f"""    %r{i} = {name} %x, %y : i64
    %k{i} = arith.constant {i} : index
    memref.store %r{i}, %v[%k{i}] : memref<{len(OPS)}xi64>""" for i, name in enumerate(OPS))
    body = f"""  %du = dataflow.get_unit {{core = 0 : i32, name = "C0-DU", type = "DU"}} : index
  dataflow.program_unit %du : {{
    %a = symbol.create_symbol {{SymbolId = -1 : i64}} : index
    %v = dataflow.get_logical_memory_view %gm, %a {{layout_map = affine_map<(d0) -> (d0)>}} : index, index, memref<{len(OPS)}xi64>
    %x = arith.constant {a} : i64
    %y = arith.constant {b} : i64
{stores}
  }}
"""
    r = emulate(module(body), device(dma=True), entry="k", args=[0])
    got = r.read("GM", 0, len(OPS), np.int64).tolist()
    assert got == [wrap_int(f(a, b), 64) for f in OPS.values()]
