"""The custom directives behind the ktir dialects' formats (ktir/dialects/directives.py): what
they accept beyond the printed form, the canonical form they print, and that bad input is
reported at its position."""

import pytest

from ktir.context import parse_module
from ktir.diagnostics import KtirDiagnostic
from ktir.dialects import ktdp, ktdp_intertile, spyreop

BOX = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>"
ID = "affine_map<(d0, d1) -> (d0, d1)>"
FUT = "<(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>>"
SET = "affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>"


def kernel(args: str, body: str, grid: str = "") -> str:
    attrs = f" attributes {{grid = [{grid}]}}" if grid else ""
    return f"func.func @k({args}){attrs} {{\n{body}\n  return\n}}\n"


def error_of(text: str) -> str:
    with pytest.raises(KtirDiagnostic) as e:
        parse_module(text, "k.mlir")
    return e.value.text.splitlines()[0]


def roundtrip(text: str) -> str:
    """Printed once; parsing the print gives the same print."""
    printed = str(parse_module(text))
    assert str(parse_module(printed)) == printed
    return printed


def test_properties_print_in_canonical_order_whatever_the_input():
    text = roundtrip(kernel(
        "%a: index, %v: memref<32x64xf16>, %i: index",
        f"  %m = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] "
        f"{{memory_space = #ktdp.memory_space<global>, coordinate_set = {BOX}}} : "
        "memref<32x64xf16>\n"
        f"  %t = ktdp.construct_access_tile %v[%i, %i] {{access_tile_set = {BOX}, "
        f"access_tile_order = {ID}}} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>"))
    assert "strides: [64, 1] {coordinate_set = " in text
    assert "[%i, %i] {access_tile_order = " in text


def test_short_and_full_type_forms_are_both_read():
    full = roundtrip(kernel(
        "%t: !ktdp.access_tile<4x64xindex>, %d: tensor<4x64xf16>",
        "  %x = ktdp.load %t : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>\n"
        "  ktdp.store %d, %t : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>"))
    short = roundtrip(kernel(
        "%t: !ktdp.access_tile<4x64xindex>, %d: tensor<4x64xf16>",
        "  %x = ktdp.load %t : <4x64xindex> -> tensor<4x64xf16>\n"
        "  ktdp.store %d, %t : tensor<4x64xf16>, <4x64xindex>"))
    assert full == short
    assert "ktdp.load %t : <4x64xindex> -> tensor<4x64xf16>" in full


def test_a_type_of_the_wrong_kind_is_reported_at_the_type():
    msg = error_of(kernel("%t: !ktdp.access_tile<4x64xindex>",
                          "  %x = ktdp.load %t : <4x64xindex> -> memref<4x64xf16>"))
    assert msg == "k.mlir:2:39: error: ktdp.load must produce a tensor, got memref<4x64xf16>"
    msg = error_of(kernel("%v: index, %i: index",
                          f"  %t = ktdp.construct_access_tile %v[%i] {{access_tile_order = {ID}, "
                          f"access_tile_set = {BOX}}} : index -> <32x64xindex>"))
    assert msg.startswith("k.mlir:2:")
    assert msg.endswith("error: ktdp.construct_access_tile expects a memref or tensor for "
                        "'base', got index")


def test_missing_required_attribute_is_located_at_the_first_operand():
    msg = error_of(kernel("%v: memref<32x64xf16>, %i: index",
                          "  %t = ktdp.construct_access_tile %v[%i, %i] "
                          f"{{access_tile_set = {BOX}}} : memref<32x64xf16> -> "
                          "!ktdp.access_tile<32x64xindex>"))
    assert msg == ("k.mlir:2:35: error: ktdp.construct_access_tile needs a 'access_tile_order' "
                   "attribute")


def test_missing_coordinate_set_becomes_the_box(capsys):
    text = roundtrip(kernel("%a: index, %m: index",
                            "  %v = ktdp.construct_memory_view %a, sizes: [%m, 64], strides: "
                            "[64, 1] {memory_space = #ktdp.memory_space<global>} : "
                            "memref<?x64xf16>"))
    assert "{coordinate_set = affine_set<(d0, d1)[s0] :" in text
    assert "warning: ktdp.construct_memory_view has no 'coordinate_set'" in capsys.readouterr().err


def test_same_type_and_implied_type():
    m = parse_module(kernel("%x: f16, %a: i64",
                            "  %m, %s = spyreop.exx2 %x : f16\n"
                            "  %y = spyreop.layernormscale %m squares %s : f16\n"
                            "  %z = spyreop.addi64toi64 %a, %a"))
    ops = {type(o): o for o in m.walk()}
    exx2 = ops[spyreop.Exx2Op]
    assert [r.type for r in exx2.results] == [exx2.input.type] * 2
    assert ops[spyreop.LayerNormScaleOp].squares is not None
    assert ops[spyreop.AddI64ToI64Op].result.type == spyreop.AddI64ToI64Op.IMPLIED_TYPE


def test_keywords():
    text = roundtrip(kernel("%a: f32, %m: !ktdp.runtime_arg<index, upperbound=8>",
                            "  %c = spyreop.compare <lesserequal> %a, %a : f32\n"
                            "  %u = ktdp.runtime_arg_extract upperbound from %m : "
                            "<index, upperbound=8> -> index"))
    assert "spyreop.compare <lesserequal> %a, %a : f32" in text
    assert "ktdp.runtime_arg_extract upperbound from %m : !ktdp.runtime_arg<index, " in text
    ex = next(o for o in parse_module(text).walk() if isinstance(o, ktdp.RuntimeArgExtractOp))
    assert ex.kind.value.data == 2
    assert "as the extraction kind" in error_of(kernel(
        "%m: !ktdp.runtime_arg<index>",
        "  %u = ktdp.runtime_arg_extract size from %m : !ktdp.runtime_arg<index> -> index"))


def test_base_stride_forms():
    text = roundtrip(kernel("%a: i32", "  %x = spyreop.idx32toaddr %a base 255 stride -4\n"
                                       "  %y = spyreop.idx32toaddr %a base %a stride %a"))
    assert "base 0xFF stride -4" in text
    assert "base %a stride %a" in text


def test_indirect_tile_names_and_type_count():
    vss = "affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>"
    text = roundtrip(kernel(
        "%x: memref<100x16xf16>, %idx: memref<4x8xi32>, %o: index",
        "  %t = ktdp.construct_indirect_access_tile intermediate_variables(%0, %j) "
        f"%x[ind(%idx[%0, %j + %o]), (%j)] {{variables_space_set = {vss}, "
        f"variables_space_order = {ID}}} : memref<100x16xf16>, memref<4x8xi32> -> <4x8xindex>"))
    assert f"{{variables_space_order = {ID}, variables_space_set = " in text
    assert "-> !ktdp.access_tile<4x8xindex>" in text
    tile = next(o for o in parse_module(text).walk()
                if isinstance(o, ktdp.ConstructIndirectAccessTileOp))
    assert len(tile.captured_variables) == 1
    assert len(tile.intermediate_variables) == 2
    assert isinstance(tile.body.block.last_op, ktdp.RegionTerminatorOp)
    msg = error_of(kernel(
        "%x: memref<100x16xf16>, %idx: memref<4x8xi32>",
        "  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) "
        f"%x[ind(%idx[%i, %j]), (%j)] {{variables_space_set = {vss}, "
        f"variables_space_order = {ID}}} : memref<100x16xf16> -> <4x8xindex>"))
    assert "error: expected 2 types (the base, then one per index view), got 1" in msg


def test_inter_tile_regions_and_signatures(capsys):
    body = (f"  %f = ktdp.inter_tile_produce producer_tiles_per_group = {SET} : "
            f"tensor<1x64xf16> -> {FUT} {{\n"
            "    ktdp.yield_partial %p : tensor<1x64xf16>\n  }\n"
            f"  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = {SET}, "
            f"identity(%z : tensor<1x64xf16>) : {FUT} -> tensor<64xf16> {{\n"
            "  ^bb0(%l: tensor<1x64xf16>, %q: tensor<1x64xf16>):\n"
            "    ktdp.yield_reduced %l : tensor<1x64xf16>\n  }")
    m = parse_module(kernel("%p: tensor<1x64xf16>, %z: tensor<1x64xf16>", body, "8"), "k.mlir")
    assert "drops the unit dimensions" in capsys.readouterr().err
    prod = next(o for o in m.walk() if isinstance(o, ktdp_intertile.InterTileProduceOp))
    assert [a.type for a in prod.body.block.args] == list(prod.DEFAULT_BLOCK_ARGS)
    assert "-> !ktdp.tile_future<(tensor<1x64xf16>), groups = " in str(prod)
    bad = body.replace(": tensor<1x64xf16> -> <(", ": tensor<2x64xf16> -> <(")
    assert "the partial types before '->' differ from the future's" in error_of(
        kernel("%p: tensor<1x64xf16>, %z: tensor<1x64xf16>", bad, "8"))
    bad = body.replace("identity(%z :", "identity(%z, %z :")
    msg = error_of(kernel("%p: tensor<1x64xf16>, %z: tensor<1x64xf16>", bad, "8"))
    assert msg.startswith("k.mlir:5:")
    assert "2 values for 'identities' but 1 types" in msg
