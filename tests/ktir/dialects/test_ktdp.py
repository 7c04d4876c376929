"""Building ktdp IR from Python, verifying it, and printing/parsing it back."""

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp, TensorType, f16
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineMap
from xdsl.utils.exceptions import VerifyException

from ktir.context import make_context, parse_module
from ktir.diagnostics import KtirDiagnostic
from ktir.dialects.ktdp import (
    AccessTileType,
    ConstructAccessTileOp,
    ConstructMemoryViewOp,
    GetComputeTileIdOp,
    LoadOp,
    MemoryKind,
    MemorySpaceAttr,
    RuntimeArgType,
    StoreOp,
    box_set,
)
from ktir.dialects.ktdp_types import kernel_grid


def build_copy_kernel(rows: int = 3, load_rows: int | None = None) -> ModuleOp:
    """C[3*id : 3*id+3, :] = A[...] over a 32-tile grid, built op by op."""
    idx = IndexType()
    view_t = MemRefType(f16, [96, 64])
    tile_t = AccessTileType([rows, 64])
    block = Block(arg_types=[idx, idx])
    with ImplicitBuilder(block):
        c0 = arith.ConstantOp.from_int_and_width(0, idx)
        c3 = arith.ConstantOp.from_int_and_width(rows, idx)
        tid = GetComputeTileIdOp()
        row = arith.MuliOp(tid.ids[0], c3)
        views = [ConstructMemoryViewOp(a, [96, 64], [64, 1], view_t,
                                       MemorySpaceAttr(MemoryKind.GLOBAL))
                 for a in block.args]
        tset = box_set([rows, 64])
        tiles = [ConstructAccessTileOp(v.result, [row.result, c0.result],
                                       AffineMap.identity(2), tset, AffineMap.identity(2),
                                       tile_t) for v in views]
        data = LoadOp(tiles[0].result, TensorType(f16, [load_rows or rows, 64]))
        StoreOp(data.result, tiles[1].result)
        func.ReturnOp()
    f = func.FuncOp("copy", ((idx, idx), ()), Region(block))
    f.attributes["grid"] = parse_module("func.func @g() attributes {grid = [32]} {\n return\n}"
                                        ).body.block.first_op.attributes["grid"]
    return ModuleOp([f])


def test_build_verify_roundtrip():
    module = build_copy_kernel()
    module.verify()
    text = str(module)
    assert "ktdp.construct_access_tile %" in text
    assert "-> !ktdp.access_tile<3x64xindex>" in text
    again = parse_module(text)
    assert str(again) == text
    assert kernel_grid(next(o for o in again.walk() if isinstance(o, LoadOp))) == (32,)


def test_built_shape_mismatch_is_rejected():
    module = build_copy_kernel(load_rows=4)
    load = next(o for o in module.walk() if isinstance(o, LoadOp))
    with pytest.raises(VerifyException, match="access tile shape must match"):
        load.verify()


def test_legacy_memory_space_is_converted():
    m = parse_module("func.func @f(%a: memref<4xf16, #ktdp.spyre_memory_space<LX, core = 2>>,"
                     " %b: memref<4xf16, #ktdp.spyre_memory_space<HBM>>) {\n  return\n}")
    text = str(m)
    assert "#ktdp.memory_space<ct_local, ct_id = 2>" in text
    assert "#ktdp.memory_space<global>" in text
    assert "spyre_memory_space" not in text


def test_types_parse_and_print():
    ctx = make_context()
    from xdsl.parser import Parser

    t = Parser(ctx, "!ktdp.runtime_arg<index, upperbound=300, granularity=32>").parse_type()
    assert isinstance(t, RuntimeArgType)
    assert (t.granularity_value, t.upperbound_value) == (32, 300)
    assert str(t) == "!ktdp.runtime_arg<index, granularity=32, upperbound=300>"
    assert str(AccessTileType([])) == "!ktdp.access_tile<index>"
    assert str(AccessTileType([-(2**63), 64])) == "!ktdp.access_tile<?x64xindex>"


def test_parse_error_is_located():
    with pytest.raises(KtirDiagnostic) as e:
        parse_module("func.func @f(%t: !ktdp.access_tile<4xf16>) {\n  return\n}", "k.mlir")
    assert e.value.text.startswith("k.mlir:1:38: error: tile element type must be 'index'")


def test_members_by_group_is_group_members_for_every_group() -> None:
    # the verifiers and the interpreter enumerate a future's groups at once (a fuzzed set of
    # 5.5 million groups over 8 tiles took minutes one group at a time)
    from xdsl.parser import Parser

    from ktir.context import make_context
    from ktir.dialects.ktdp_intertile import group_members, members_by_group

    groups_of_4 = Parser(make_context(), "affine_set<(i)[g] : (i - 4 * g >= 0, "
                         "-i + 4 * g + 3 >= 0)>").parse_attribute().data  # type: ignore
    groups = list(range(-2, 100_000))
    got = members_by_group(groups_of_4, groups, 8)
    assert got == {k: group_members(groups_of_4, k, 8) for k in (0, 1)}
    assert got == {0: [0, 1, 2, 3], 1: [4, 5, 6, 7]}
