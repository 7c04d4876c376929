"""The `dataflow` dialect from Python: builders, accessors, verifiers, effects, round trip."""

import re

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, MemRefType, VectorType, f16, i8
from xdsl.ir import Block
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import VerifyException

from ktir.context import make_context, parse_module
from ktir.diagnostics import KtirDiagnostic
from spyrecode.dialects.dataflow import (
    CreateGroupOp,
    CreateMulticastGroupOp,
    GetLogicalMemoryViewOp,
    GetPagedLogicalMemoryViewOp,
    GetUnitOp,
    OpaqueOp,
    ProgramUnitOp,
    ReceiveOp,
    ReturnOp,
    SendOp,
    SyncRecvOp,
    SyncSendOp,
)
from spyrecode.dialects.dataflow_types import (
    CustomVectorType,
    MXType,
    element_bit_width,
    element_type,
    lanes,
)

IDX = IndexType()
V64 = VectorType(f16, [64])


def test_build_program_prints_upstream_syntax_and_roundtrips(kernel, roundtrip):
    def build(_):
        lu = [GetUnitOp(f"C{c}-L1LU", "L1LU", core=c) for c in range(2)]
        sfu = GetUnitOp("C0-SFU", "SFU", core=0)
        mem = GetUnitOp("C0-L1", "L1", core=0)
        start = arith.ConstantOp.from_int_and_width(128, IDX)
        body = Block(arg_types=[IDX])
        with ImplicitBuilder(body):
            view = GetLogicalMemoryViewOp(mem.unit, start.result,
                                          AffineMap.from_callable(lambda i, j: (i * 64 + j,)),
                                          MemRefType(f16, [4, 64]))
            SyncRecvOp(sfu.unit)
            SendOp(sfu.unit, ReceiveOp(sfu.unit, V64).data, dir="Clockwise")
            SyncSendOp(sfu.unit, dbg_name="done")
            del view
        prog = ProgramUnitOp([u.unit for u in lu], body, precision="fp16")
        assert prog.iter_arg is body.args[0]
        assert isinstance(body.last_op, ReturnOp)

    text = roundtrip(kernel(build))
    assert 'dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index' in text
    assert re.search(r"dataflow.program_unit iter_arg : %\w+ -> \(%\w+, %\w+\) "
                     r"{precision = \"fp16\"} : {", text)
    assert "dataflow.send %" in text
    assert "{dir = #dataflow<direction Clockwise>}" in text
    assert "{dbgName = \"done\", wait_immediately_for_async_transfers = true} : index" in text
    assert "{layout_map = affine_map<(d0, d1) -> (((d0 * 64) + d1))>} : index, index, " \
           "memref<4x64xf16>" in text
    assert "dataflow.return" not in text


def test_program_unit_forms_and_accessors():
    m = parse_module("""
    %u0 = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1", type = "L1LU"} : index
    %u1 = dataflow.get_unit {name = "C1-L1LU", type = "L1LU"} : index
    dataflow.program_unit %u0 : {
      dataflow.sync_send %u1 : index
      dataflow.sync_send %u1 {wait_immediately_for_async_transfers = false} : index
    }
    """)
    u0, u1, prog = list(m.body.block.ops)
    assert (u0.unit_name, u0.kind, u0.core, u0.corelet) == ("C0-L1LU-CL1", "L1LU", 0, 1)
    assert (u1.core, u1.corelet) == (None, None)
    assert isinstance(prog, ProgramUnitOp)
    assert prog.iter_arg is None
    assert [u.unit_name for u in prog.unit_ops()] == ["C0-L1LU-CL1"]
    first, second, _ = list(prog.block.ops)
    assert first.waits_for_transfers
    assert not second.waits_for_transfers
    assert "dataflow.program_unit %u0 : {" in str(m)


def test_groups_views_and_opaque_builders(kernel, roundtrip):
    def build(_):
        units = [GetUnitOp(f"C{c}-MNILU", "MNILU", core=c).unit for c in range(3)]
        mem = GetUnitOp("DDR", "DDR").unit
        CreateGroupOp(units[1:])
        CreateMulticastGroupOp(units[0], units[1:], group_id=1)
        c0 = arith.ConstantOp.from_int_and_width(0, IDX).result
        c4096 = arith.ConstantOp.from_int_and_width(4096, IDX).result
        box = "affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>"
        ctx = make_context()
        s0 = Parser(ctx, box).parse_attribute().data
        s1 = Parser(ctx, box.replace("d0 >= 0", "d0 - 64 >= 0").replace("63", "127"))\
            .parse_attribute().data
        GetPagedLogicalMemoryViewOp(mem, c0, AffineMap.identity(1), [(s0, c0), (s1, c4096)],
                                    MemRefType(f16, [128]))
        OpaqueOp("reciprocal", parameters={})

    text = roundtrip(kernel(build))
    assert "dataflow.create_multicast_group(%" in text
    assert "{count = 0 : i32, group_id = 1 : i32, num_consumers = 2 : i32} : index" in text
    assert "page1: (idx_set = affine_set<(d0) : ((d0 + -64) >= 0" in text
    op = next(o for o in parse_module(text).walk() if isinstance(o, OpaqueOp))
    assert op.routine == "reciprocal"


def test_types_both_mx_spellings_and_custom_vector():
    ctx = make_context()

    def t(s: str):
        return Parser(ctx, s).parse_type()

    assert t("!dataflow.mxfp<4>") == t("!dataflow.custom<mxfp4>") == MXType("mxfp", 4)
    assert t("!dataflow.mxint<4>") == MXType("mxint", 4)
    assert str(MXType("mxfp", 8)) == "!dataflow.custom<mxfp8>"
    cv = t("!dataflow.custom_vector<32x!dataflow.mxfp<4>>")
    assert cv == CustomVectorType(MXType("mxfp", 4), 32)
    assert str(cv) == "!dataflow.custom_vector<32x!dataflow.custom<mxfp4>>"
    assert (lanes(cv), element_bit_width(cv)) == (32, 4)
    assert element_type(VectorType(i8, [2, 8])) == i8
    assert lanes(VectorType(i8, [2, 8])) == 16
    with pytest.raises(VerifyException, match="unsupported MX type 'mxint8'"):
        MXType("mxint", 8)


@pytest.mark.parametrize(("text", "bad", "message"), [
    ("!dataflow.mxfp<6>", "6", "unsupported MX type 'mxfp6'"),
    ("!dataflow.custom<fp8>", "fp8", "expected one of mxfp4, mxfp8, mxint4, got 'fp8'"),
    ("!dataflow.custom_vector<2x3xf16>", "2x3", "a custom vector has one positive dimension"),
])
def test_bad_types_are_located(text, bad, message):
    src = f'"test.op"() : () -> {text}'
    with pytest.raises(KtirDiagnostic) as e:
        parse_module(src, "t.mlir")
    assert e.value.text.startswith(f"t.mlir:1:{src.index(bad) + 1}: error: {message}")


def test_verifier_rules_from_python(kernel):
    def one_program(extra):
        def build(_):
            u = GetUnitOp("C0-SFU", "SFU", core=0)
            body = Block(arg_types=[IDX])
            with ImplicitBuilder(body) as (me,):
                extra(u, me)
            ProgramUnitOp([u.unit], body)
        return kernel(build)

    def send_to_me(_, me):
        SendOp(me, ReceiveOp(GetUnitOp("C0-L1LU", "L1LU").unit, V64).data)

    with pytest.raises(VerifyException, match="a unit may not send to itself"):
        one_program(send_to_me).verify()
    with pytest.raises(VerifyException, match="a unit may not receive from itself"):
        one_program(lambda u, me: ReceiveOp(u.unit, V64)).verify()
    with pytest.raises(VerifyException, match=r"must be inside a dataflow\.program_unit"):
        kernel(lambda _: SyncRecvOp(GetUnitOp("C0-SFU", "SFU").unit)).verify()
    with pytest.raises(VerifyException, match="unit 'c0-sfu' is listed twice"):
        kernel(lambda _: ProgramUnitOp([GetUnitOp("C0-SFU", "SFU").unit,
                                        GetUnitOp("c0-sfu", "SFU").unit])).verify()
    with pytest.raises(VerifyException, match=r"already runs another dataflow\.program_unit"):
        kernel(lambda _: [ProgramUnitOp([GetUnitOp("C0-SFU", "SFU").unit]) for _ in "ab"]
               ).verify()


def test_side_effecting_ops_survive_dce():
    m = parse_module("""
    func.func @k() {
      %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
      %p = dataflow.get_unit {name = "C0-L1LU", type = "L1LU"} : index
      %unused = dataflow.get_unit {name = "C1-L1LU", type = "L1LU"} : index
      dataflow.program_unit iter_arg : %me -> (%u) : {
        %v = dataflow.receive %p : vector<64xf16>
        dataflow.sync_recv %p : index
        dataflow.opaque {func_name = "f", read_write_register_dictionary = {}, read_only_register_dictionary = {}, parameter_dictionary = {}}
      }
      return
    }""")
    DeadCodeElimination().apply(Context(), m)
    names = [o.name for o in m.walk()]
    for kept in ("dataflow.program_unit", "dataflow.receive", "dataflow.sync_recv",
                 "dataflow.opaque"):
        assert kept in names
    assert names.count("dataflow.get_unit") == 2  # the unused handle is pure and goes
