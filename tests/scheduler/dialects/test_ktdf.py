"""Building ktdf IR from Python, its accessors, verifiers, effects, folds and round trips."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    f16,
    f32,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.printer import Printer
from xdsl.traits import MemoryEffectKind, get_effects
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import is_trivially_dead, would_be_trivially_dead
from xdsl.utils.exceptions import VerifyException

from ktir.context import make_context, parse_module
from ktir.diagnostics import KtirDiagnostic
from ktir.dialects.ktdp import MemoryKind, MemorySpaceAttr
from scheduler.dialects.ktdf import (
    BufferPhaseOp,
    CreateTokenOp,
    DataTransferOp,
    FifoAllocateOp,
    FifoSlotType,
    IndDataTransferOp,
    LoopType,
    LoopTypeAttr,
    OpaqueOp,
    ParallelOp,
    PipelineOp,
    PrivateOp,
    PrivateYieldOp,
    ReadFromFifoOp,
    SelectMemrefOp,
    StageOp,
    TilingDeriveSizeOp,
    TilingLinearizeIndexOp,
    TilingReserveSizeOp,
    TokenType,
    WriteToFifoOp,
)

IDX = IndexType()
DDR = MemRefType(f16, [96, 64], memory_space=StringAttr("DDR"))
L1 = MemRefType(f16, [1, 64], memory_space=StringAttr("L1"))
IN_SLOT = FifoSlotType("L1LU", "SFU", 64, f16)
OUT_SLOT = FifoSlotType("SFU", "L1SU", 64, f16)


def roundtrip(module: ModuleOp) -> str:
    """Verify, print, parse back and check the text is stable; returns it."""
    module.verify()
    text = str(module)
    again = parse_module(text)
    assert str(again) == text
    generic = parse_module(_generic(again))
    assert str(generic) == text
    return text


def _generic(module: ModuleOp) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def build_three_stage(modulo: int | None = 2) -> tuple[ModuleOp, dict]:
    """C[i] = opaque EXP(A[i]) as Load -> Compute -> Store with FIFO slots, from Python."""
    block = Block(arg_types=[DDR, DDR, IDX])
    a, c, i = block.args
    priv_body = Block()
    with ImplicitBuilder(priv_body):
        slots = FifoAllocateOp([IN_SLOT, OUT_SLOT])
        toks = [CreateTokenOp() for _ in range(2)]
        PrivateYieldOp(*slots.slots, *(t.result for t in toks))
    private = PrivateOp([IN_SLOT, OUT_SLOT, TokenType(), TokenType()], priv_body)
    s_in, s_out, t0, t1 = private.res
    load = StageOp([], [t0], [DataTransferOp(a, [i, 0], None, [1, 64], s_in, (), None, [64])],
                   applicable_units=["L1LU"])
    cblock = Block()
    with ImplicitBuilder(cblock):
        x = ReadFromFifoOp(s_in, TensorType(f16, [64]))
        out = OpaqueOp("EXP", [x.result], [x.result])
        WriteToFifoOp(out.res[0], s_out)
    compute = StageOp([t0], [t1], cblock, applicable_units=["SFU"])
    store = StageOp([t1], [], [DataTransferOp(s_out, (), None, None, c, [i, 0], None, [1, 64])])
    pipe = PipelineOp([private, load, compute, store], modulo=modulo)
    block.add_ops([pipe, func.ReturnOp()])
    parts = {"pipeline": pipe, "private": private, "load": load, "compute": compute,
             "store": store, "out": out}
    f = func.FuncOp("three_stage", ((DDR, DDR, IDX), ()), Region(block))
    return ModuleOp([f]), parts


def test_build_three_stage_pipeline():
    module, p = build_three_stage()
    text = roundtrip(module)
    assert "ktdf.pipeline modulo(size : 2) {" in text
    assert 'ktdf.read_from_fifo %3 : <"L1LU" -> "SFU", 64xf16> -> tensor<64xf16>' in text
    assert "ktdf.data_transfer from %0[%2, 0] size [1, 64] to %3 size [64]" in text
    assert "ktdf.data_transfer from %4 to %1[%2, 0] size [1, 64]" in text
    assert "%EXP = ktdf.opaque \"EXP\"" in text
    pipe: PipelineOp = p["pipeline"]
    assert pipe.modulo == 2
    assert pipe.stages == [p["load"], p["compute"], p["store"]]
    assert pipe.private_op is p["private"]
    assert p["private"].yield_op.values[0] is p["private"].body.block.first_op.results[0]
    assert p["load"].applicable_units == ["L1LU"]
    assert p["store"].applicable_units == []
    assert p["out"].res[0].name_hint == "EXP"


def test_accessor_setters():
    _, p = build_three_stage(modulo=None)
    pipe, store = p["pipeline"], p["store"]
    assert pipe.modulo is None
    pipe.modulo = 3
    assert pipe.modulo == 3
    assert "modulo(size : 3)" in str(pipe)
    pipe.modulo = None
    assert "modulo" not in str(pipe)
    store.applicable_units = ["L1SU"]
    assert store.attributes["applicable_units"] == parse_module(
        'func.func @f() attributes {u = ["L1SU"]} {\n return\n}').body.block.first_op.attributes["u"]
    store.applicable_units = None
    assert "applicable_units" not in store.attributes


def test_fifo_slot_type():
    assert IN_SLOT.num_elements == 64
    assert not IN_SLOT.is_dynamic
    assert IN_SLOT.src_kind == "L1LU"
    assert IN_SLOT.dst_kind == "SFU"
    dyn = FifoSlotType("L1LU", "SFU", None, f32)
    assert dyn.is_dynamic
    assert dyn.num_elements is None
    assert FifoSlotType("A", "B", [2, 32], f16) == FifoSlotType("A", "B", 64, f16)
    assert FifoSlotType("A", "B", [DYNAMIC_INDEX, 4], f16).is_dynamic
    glob = FifoSlotType(MemorySpaceAttr(MemoryKind.GLOBAL), "SFU", 8, f16)
    assert glob.src_kind is None
    assert str(glob) == '!ktdf.fifo.slot<#ktdp.memory_space<global> -> "SFU", 8xf16>'
    assert str(dyn) == '!ktdf.fifo.slot<"L1LU" -> "SFU", ?xf32>'
    with pytest.raises(VerifyException, match="at least one element"):
        FifoSlotType("A", "B", 0, f16)
    with pytest.raises(VerifyException, match="unit-kind string or a ktdp memory space"):
        FifoSlotType(f16, "B", 4, f16)
    with pytest.raises(VerifyException, match="element type must be a type"):
        FifoSlotType("A", "B", 4, StringAttr("x"))


def test_loop_type_attr():
    attr = LoopTypeAttr(LoopType.REDUCTION_LOOP)
    assert str(attr) == "#ktdf.loop_type<reduction_loop>"
    m = parse_module("func.func @f() attributes {t = #ktdf.loop_type<parallel_loop>} {\n"
                     " return\n}")
    assert m.body.block.first_op.attributes["t"] == LoopTypeAttr(LoopType.PARALLEL_LOOP)


def test_data_transfer_builder_and_accessors():
    block = Block(arg_types=[DDR, L1, IDX, IDX])
    a, l1, i, n = block.args
    with ImplicitBuilder(block):
        slot = FifoAllocateOp([IN_SLOT]).slots[0]
        dma = DataTransferOp(a, [i, 0], None, [1, n], l1, [0, 0], None, [1, n])
        load = DataTransferOp(l1, [0, 0], None, [1, 1], slot, (), None, [64],
                              transfer_mode="splat")
        sq = DataTransferOp(a, [i], AffineMap(1, 0, (AffineExpr.dimension(0) * 2,
                                                     AffineExpr.constant(3))), [1, 64],
                            l1, [0, 0], None, [1, 64])
        func.ReturnOp()
    module = ModuleOp([func.FuncOp("t", ((DDR, L1, IDX, IDX), ()), Region(block))])
    text = roundtrip(module)
    assert "ktdf.data_transfer from %0[%2, 0] size [1, %3] to %1[0, 0] size [1, %3]" in text
    assert "from %0[%2 * 2, 3] size [1, 64]" in text
    assert dma.kind == "memref_to_memref"
    assert load.kind == "memref_to_fifo"
    assert load.dest_is_fifo
    assert not load.source_is_fifo
    assert load.source_is_memref
    assert dma.mixed_source_sizes == [1, n]
    assert dma.source_count is None
    assert load.source_count == 1
    assert load.dest_count == 64
    assert load.transfer_mode == "splat"
    load.transfer_mode = None
    with pytest.raises(VerifyException, match=r"different element counts \(1 vs 64\)"):
        load.verify()
    load.transfer_mode = "splat"
    load.verify()
    assert sq.source_map is not None
    assert sq.source_map.data.num_dims == 1
    with pytest.raises(TypeError, match="integer indices"):
        DataTransferOp(a, [0, i], AffineMap.identity(2), [1, 64], l1, [0, 0], None, [1, 64])


def test_data_transfer_drops_indices_its_map_does_not_read():
    """A builder mapping every loop of a nest leaves an index a side does not read: the op
    keeps only the ones read (what its text says), so a pass asking what it depends on
    (broadcast-promotion hoisting an x row out of a loop over n blocks) sees the truth."""
    block = Block(arg_types=[DDR, L1, IDX, IDX, IDX])
    a, l1, v0, v1, v2 = block.args
    d = [AffineExpr.dimension(k) for k in range(3)]
    with ImplicitBuilder(block):
        t = DataTransferOp(a, [v0, v1, v2], AffineMap(3, 0, (d[0] * 4, d[1] * 64)), [1, 64],
                           l1, [v2, v0], AffineMap(2, 0, (d[1], AffineExpr.constant(0))),
                           [1, 64])
        func.ReturnOp()
    assert list(t.source_indices) == [v0, v1]
    assert t.source_map is not None and t.source_map.data == AffineMap(
        2, 0, (d[0] * 4, d[1] * 64))
    assert list(t.dest_indices) == [v0]
    assert t.dest_map is not None and t.dest_map.data.num_dims == 1
    module = ModuleOp([func.FuncOp("t", ((DDR, L1, IDX, IDX, IDX), ()), Region(block))])
    text = roundtrip(module)
    assert "from %0[%2 * 4, %3 * 64] size [1, 64] to %1[%2, 0] size [1, 64]" in text


def test_fifo_rules_from_python():
    block = Block(arg_types=[IDX])
    with ImplicitBuilder(block):
        alloc = FifoAllocateOp([FifoSlotType("A", "B", None, f16), IN_SLOT], [block.args[0]])
        good = ReadFromFifoOp(alloc.slots[1], MemRefType(f16, [2, 32]))
        bad = ReadFromFifoOp(alloc.slots[1], TensorType(f16, [63]))
        wrong_type = WriteToFifoOp(good.result, alloc.slots[0])
    alloc.verify()
    good.verify()
    with pytest.raises(VerifyException, match=r"data total elements \(63\)"):
        bad.verify()
    with pytest.raises(VerifyException, match="both be dynamic or both be static"):
        wrong_type.verify()
    with pytest.raises(VerifyException, match="dynamic size operands"):
        FifoAllocateOp([IN_SLOT], [block.args[0]]).verify()


def test_ind_data_transfer_builder():
    x_t = MemRefType(f16, [1000, 8, 128], memory_space=StringAttr("DDR"))
    idx_t = MemRefType(i32, [16], memory_space=StringAttr("L1"))
    dst_t = MemRefType(f16, [1, 1, 128], memory_space=StringAttr("L1"))
    block = Block(arg_types=[x_t, idx_t, dst_t, IDX, IDX])
    x, ib, dst, b, h = block.args
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    with ImplicitBuilder(block):
        op = IndDataTransferOp(x, [b, h], [(ib, [d0 + 1]), d1 * 2, AffineExpr.constant(0)],
                               [1, 1, 128], dst, [0, 0, 0], None, [1, 1, 128])
        func.ReturnOp()
    module = ModuleOp([func.FuncOp("g", ((x_t, idx_t, dst_t, IDX, IDX), ()), Region(block))])
    text = roundtrip(module)
    assert "from %0[ind(%1[%3 + 1]), (%4 * 2), (0)] size [1, 1, 128] to %2[0, 0, 0]" in text
    subs = op.subscripts
    assert subs[0][0] is ib
    assert subs[0][1] == (d0 + 1,)
    assert subs[1] == d1 * 2
    assert op.source_count == 128
    assert op.dest_count == 128
    assert op.dest_is_memref
    effects = get_effects(op)
    assert effects is not None
    assert {(e.kind, e.value) for e in effects} == {
        (MemoryEffectKind.READ, x), (MemoryEffectKind.READ, ib), (MemoryEffectKind.WRITE, dst)}


def test_ind_data_transfer_scatter_builder():
    y_t = MemRefType(f16, [64, 64], memory_space=StringAttr("DDR"))
    idx_t = MemRefType(i32, [2], memory_space=StringAttr("LX"))
    buf_t = MemRefType(f16, [1, 64], memory_space=StringAttr("LX"))
    block = Block(arg_types=[y_t, idx_t, buf_t, IDX])
    y, ib, buf, v = block.args
    d0 = AffineExpr.dimension(0)
    with ImplicitBuilder(block):
        op = IndDataTransferOp(buf, [], [AffineExpr.constant(0)] * 2, [1, 64], y, [v], None,
                               [1, 64], dest_subscripts=[(ib, [AffineExpr.constant(0)]), d0])
        func.ReturnOp()
    module = ModuleOp([func.FuncOp("s", ((y_t, idx_t, buf_t, IDX), ()), Region(block))])
    text = roundtrip(module)
    assert "from %2[0, 0] size [1, 64] to %0[ind(%1[0]), (%3)] size [1, 64]" in text
    assert op.is_scatter
    assert not op.source_is_fifo
    assert op.subscripts == [AffineExpr.constant(0)] * 2
    dsubs = op.dest_subscripts
    assert dsubs is not None
    assert dsubs[0][0] is ib
    assert dsubs[1] == d0
    effects = get_effects(op)
    assert effects is not None
    assert {(e.kind, e.value) for e in effects} == {
        (MemoryEffectKind.READ, buf), (MemoryEffectKind.READ, ib), (MemoryEffectKind.WRITE, y)}


def test_stage_token_rules():
    _, p = build_three_stage()
    load: StageOp = p["load"]
    load.operands = [Block(arg_types=[TokenType()]).args[0]]  # depends_out: a block argument
    with pytest.raises(VerifyException, match="depends_out operand must originate"):
        load.verify()
    PipelineOp([PrivateOp(), StageOp()]).verify()
    f = func.FuncOp("x", ((), ()), Region(Block([StageOp(), func.ReturnOp()])))
    with pytest.raises(VerifyException, match=r"expects parent op 'ktdf.pipeline'"):
        f.verify()
    with pytest.raises(VerifyException, match=r"at most one immediate 'ktdf.private'"):
        PipelineOp([PrivateOp(), PrivateOp()]).verify()


def test_pipeline_cycle_detected():
    toks = [CreateTokenOp(), CreateTokenOp()]
    t0, t1 = toks[0].result, toks[1].result
    stages = [StageOp([t1], [t0]), StageOp([t0], [t1])]
    pipe = PipelineOp(stages)
    Block([*toks, pipe])
    with pytest.raises(VerifyException, match="form a cycle"):
        pipe.verify()
    stages[0].operands = [t0, t0]  # stage 0 now waits on its own token: still a cycle
    with pytest.raises(VerifyException, match="form a cycle"):
        pipe.verify()


def test_unique_ids_survive_cse_and_clone():
    a, b = CreateTokenOp(), CreateTokenOp()
    ids = {a.unique_id.value.data, b.unique_id.value.data}
    assert len(ids) == 2
    clone = a.clone()
    assert clone.unique_id.value.data not in ids
    r1, r2 = TilingReserveSizeOp(), TilingReserveSizeOp(4, 2)
    assert r1.unique_id != r2.unique_id
    assert (r2.min_value, r2.divisibility) == (4, 2)
    # a parsed generic id is kept, and later ids are above it
    m = parse_module('func.func @f() -> !ktdf.token {\n  %t = "ktdf.create_token"() '
                     '<{unique_id = 900000 : index}> : () -> !ktdf.token\n'
                     '  return %t : !ktdf.token\n}')
    tok = next(op for op in m.walk() if isinstance(op, CreateTokenOp))
    assert tok.unique_id.value.data == 900000
    assert CreateTokenOp().unique_id.value.data > 900000
    # CSE keeps both tokens and both reserve_size ops; DCE drops an unused token
    text = ("func.func @f() -> (!ktdf.token, !ktdf.token, index, index) {\n"
            "  %a = ktdf.create_token : !ktdf.token\n  %b = ktdf.create_token : !ktdf.token\n"
            "  %c = ktdf.create_token : !ktdf.token\n"
            "  %x = ktdf.tiling.reserve_size {min_value = 1 : index, divisibility = 1 : index} : index\n"
            "  %y = ktdf.tiling.reserve_size {min_value = 1 : index, divisibility = 1 : index} : index\n"
            "  return %a, %b, %x, %y : !ktdf.token, !ktdf.token, index, index\n}")
    m = parse_module(text)
    CommonSubexpressionElimination().apply(make_context(), m)
    CanonicalizePass().apply(make_context(), m)
    kinds = [op.name for op in m.walk()]
    assert kinds.count("ktdf.create_token") == 2
    assert kinds.count("ktdf.tiling.reserve_size") == 2


def test_effects_keep_side_effecting_ops():
    module, p = build_three_stage()
    ops = {op.name: op for op in module.walk()}
    for name in ("ktdf.data_transfer", "ktdf.read_from_fifo", "ktdf.write_to_fifo",
                 "ktdf.stage", "ktdf.pipeline", "ktdf.private"):
        assert not would_be_trivially_dead(ops[name]), name
    # a slot allocation only allocates its slots: dead once nothing uses them
    assert would_be_trivially_dead(ops["ktdf.fifo.allocate"])
    assert not is_trivially_dead(ops["ktdf.fifo.allocate"])
    read = ops["ktdf.read_from_fifo"]
    effects = get_effects(read)
    assert effects is not None
    assert {e.kind for e in effects} == {MemoryEffectKind.READ,
                                                                 MemoryEffectKind.WRITE}
    # an unused read still pops its slot: not dead
    lone = ReadFromFifoOp(p["private"].res[0], TensorType(f16, [64]))
    assert not is_trivially_dead(lone)
    assert is_trivially_dead(CreateTokenOp())
    pure = p["out"]
    assert get_effects(pure) == set()


def test_opaque_effects_and_dps():
    block = Block(arg_types=[MemRefType(f16, [4]), MemRefType(f16, [4]), TensorType(f16, [4])])
    m_in, m_out, t = block.args
    with ImplicitBuilder(block):
        side = OpaqueOp("COPY", [m_in], [m_out])
        pure = OpaqueOp("ADD", [t, t], [t])
        bad = OpaqueOp("BAD", [t], [t], result_types=[])
    assert side.res == ()
    assert len(pure.res) == 1
    kinds = {(e.kind, e.value) for e in get_effects(side) or ()}
    assert kinds == {(MemoryEffectKind.READ, m_in), (MemoryEffectKind.READ, m_out),
                     (MemoryEffectKind.WRITE, m_out)}
    pure.verify()
    with pytest.raises(VerifyException, match="number of tensor results"):
        bad.verify()


def test_tiling_and_folds():
    text = ("func.func @f(%iv: index) -> (index, index, index, index, memref<4xf16>) {\n"
            "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
            "  %c5 = arith.constant 5 : index\n  %c23 = arith.constant 23 : index\n"
            "  %a = memref.alloc() : memref<4xf16>\n  %b = memref.alloc() : memref<4xf16>\n"
            "  %d = ktdf.tiling.derive_size [%c0 : %c5], total_size = %c23 : index\n"
            "  %l = ktdf.tiling.linearize_index [%iv : %c5], [%c1 : %c1] : index\n"
            "  %p = ktdf.buffer_phase(%c1, %iv) {num_phases = 2 : i64} : index\n"
            "  %q = ktdf.buffer_phase(%c1) {num_phases = 2 : i64} : index\n"
            "  %s = ktdf.select_memref %q[%a, %b] : memref<4xf16>\n"
            "  return %d, %l, %p, %q, %s : index, index, index, index, memref<4xf16>\n}")
    m = parse_module(text)
    CanonicalizePass().apply(make_context(), m)
    ret = m.body.block.first_op.body.block.last_op
    d, lin, p, q, s = ret.operands
    assert isinstance(d.owner, arith.ConstantOp)
    assert d.owner.value.value.data == 5
    assert isinstance(lin.owner, TilingLinearizeIndexOp)
    assert isinstance(p.owner, BufferPhaseOp)
    assert len(p.owner.ivs) == 1
    assert isinstance(q.owner, arith.ConstantOp)
    assert q.owner.value.value.data == 0
    first_alloc = next(op for op in m.walk() if op.name == "memref.alloc")
    assert s is first_alloc.results[0]
    with pytest.raises(VerifyException, match=r"min_value must be >= 1"):
        TilingReserveSizeOp(0).verify()
    n = Block(arg_types=[IDX]).args[0]
    with pytest.raises(VerifyException, match="at least one"):
        TilingDeriveSizeOp([], [], n).verify()


def test_parallel_builder():
    block = Block(arg_types=[IDX, IDX, IDX])
    lo, hi, step = block.args
    with ImplicitBuilder(block):
        par = ParallelOp([lo, lo], [hi, hi], [step, step], 2)
        func.ReturnOp()
    assert par.num_loops == 2
    assert par.num_instances == 2
    assert len(par.induction_vars) == 2
    assert par.instance_id is par.body.block.args[2]
    add = arith.AddiOp(par.induction_vars[0], par.instance_id)
    par.body.block.insert_op_before(add, par.body.block.last_op)
    module = ModuleOp([func.FuncOp("p", ((IDX, IDX, IDX), ()), Region(block))])
    text = roundtrip(module)
    assert ("ktdf.parallel (%3, %4, %5) = (%0, %0) to (%1, %1) step (%2, %2) "
            "distribute(num_instances = 2) {") in text
    bad = ParallelOp([lo], [hi], [step], 0)
    with pytest.raises(VerifyException, match="num_instances >= 1"):
        bad.verify()


def test_select_memref_rules():
    t = MemRefType(f16, [4])
    block = Block(arg_types=[IDX, t, t, MemRefType(f16, [8])])
    iv, a, b, c = block.args
    with ImplicitBuilder(block):
        phase = BufferPhaseOp([iv], 3)
        two = SelectMemrefOp(phase.result, [a, b])
        mixed = SelectMemrefOp(iv, [a, c])
    assert two.result.type == t
    with pytest.raises(VerifyException, match=r"num_phases \(3\) must equal candidate count"):
        two.verify()
    with pytest.raises(VerifyException, match="candidate #1 has type"):
        mixed.verify()


def test_located_errors_from_text():
    with pytest.raises(KtirDiagnostic, match=r"<string>:2:\d+: error: FIFO slot type needs"):
        parse_module('func.func @f(\n  %s: !ktdf.fifo.slot<"A" -> "B", 4>) {\n  return\n}')
    with pytest.raises(KtirDiagnostic, match=r"<string>:3:5: error: 'ktdf.stage' op"):
        parse_module("func.func @f(%t: !ktdf.token) {\n  ktdf.pipeline {\n"
                     "    ktdf.stage depends_in(%t) depends_out(none) {\n    }\n  }\n"
                     "  return\n}")


# --------------------------------------------------------------------------------------------
# property: random transfers survive print -> parse -> print
# --------------------------------------------------------------------------------------------

_NAMES = ["%i", "%j", "%k"]


@st.composite
def _expr(draw) -> str:
    name = draw(st.sampled_from(_NAMES))
    form = draw(st.integers(0, 4))
    c = draw(st.integers(1, 9))
    return [name, f"{name} + {c}", f"{name} * {c}", f"{c}",
            f"{name} - {draw(st.sampled_from(_NAMES))}"][form]


@st.composite
def _side(draw, rank: int) -> tuple[str, list[str]]:
    subs = [draw(_expr()) for _ in range(rank)]
    sizes = [draw(st.sampled_from(["1", "2", "%n"])) for _ in range(rank)]
    return f"[{', '.join(subs)}] size [{', '.join(sizes)}]", sizes


@given(st.integers(1, 3), st.data())
def test_transfer_roundtrip_property(rank: int, data):
    src, ssizes = data.draw(_side(rank))
    dst, dsizes = data.draw(_side(rank))
    shape = "x".join(["16"] * rank)
    t = f'memref<{shape}xf16, "L1">'
    text = (f"func.func @f(%a: {t}, %b: {t}, %i: index, %j: index, %k: index, %n: index) {{\n"
            f"  ktdf.data_transfer from %a{src} to %b{dst} : {t}, {t}\n  return\n}}")
    static = "%n" not in ssizes + dsizes
    counts_equal = not static or \
        math.prod(map(int, ssizes)) == math.prod(map(int, dsizes))
    if not counts_equal:
        with pytest.raises(KtirDiagnostic, match="different element counts"):
            parse_module(text)
        return
    first = str(parse_module(text))
    assert str(parse_module(first)) == first
    assert str(parse_module(_generic(parse_module(first)))) == first
