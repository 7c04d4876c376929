"""`make_context()`: the installed xDSL universes' dialects are registered on first need only,
and then every name parses and verifies as when they were registered up front."""

from __future__ import annotations

import pytest

from ktir.context import installed_dialects, make_context, own_dialects, parse_module
from ktir.errors import KtirDiagnostic

KERNEL = """
func.func @k(%a: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %s = arith.addi %a, %id : index
  return
}
"""


def test_a_kernel_of_ktir_and_upstream_dialects_needs_no_universe():
    ctx = make_context()
    parse_module(KERNEL, ctx=ctx)
    assert ctx.universes  # still pending: no name outside xDSL's and ktir's came up
    assert "ktdf_arch" not in ctx._registered_dialects


def test_an_attribute_of_a_universe_dialect_registers_them():
    """`#ptr.generic_space` is arch_descriptions' (an xDSL universe), not xDSL's."""
    ctx = make_context()
    module = parse_module('"test.op"() {kind = #ptr.generic_space} : () -> ()', ctx=ctx)
    assert not ctx.universes
    assert str(module.body.block.first_op.attributes["kind"]) == "#ptr.generic_space"


def test_a_universe_dialects_attribute_verifier_runs_through_the_lazy_context():
    """Loading `ktdf_arch` to verify a discardable attribute named after it (as upfront)."""
    with pytest.raises(KtirDiagnostic, match="'ktdf_arch.features' intrinsic requires "
                       "dictionary attribute"):
        parse_module('func.func @f() attributes {ktdf_arch.features = "a"} {\n  return\n}',
                     "f.mlir", make_context())


def test_an_unknown_dialect_is_still_a_located_error():
    with pytest.raises(KtirDiagnostic,
                       match=r"f\.mlir:1:12: error: Operation nosuch\.op is not registered"):
        parse_module('"nosuch.op"() : () -> ()', "f.mlir", make_context())


def test_listing_the_dialects_names_the_universes_ones():
    ctx = make_context()
    names = set(ctx.registered_dialect_names)
    assert names == set(installed_dialects())
    assert {"ktdf_arch", "ptr", "ktdp", "arith"} <= names
    assert set(own_dialects()) < names


def test_given_dialects_are_exactly_those():
    ctx = make_context(dialects={k: v for k, v in own_dialects().items() if k != "ktdp"})
    assert not ctx.universes
    with pytest.raises(KtirDiagnostic):
        parse_module(KERNEL, ctx=ctx)
