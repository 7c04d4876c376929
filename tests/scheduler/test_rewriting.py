"""Dead code goes by effect traits: pure values nobody reads go, side effects stay, and an
unused FIFO slot allocation is dead (`AllocatesResults`); replacements keep SSA names."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ktir.context import parse_module
from scheduler.rewriting import apply_patterns, dead_code, replace_keeping_names

DEAD = """
func.func @f(%m: memref<64xf16>, %t: tensor<64xf16>) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<64xf16>
  %sum = linalg.add ins(%t, %t : tensor<64xf16>, tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %slot = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
  %tok = ktdf.create_token : !ktdf.token
  %kept = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
  ktdf.write_to_fifo %t, %kept : tensor<64xf16>, <"SFU" -> "L1SU", 64xf16>
  %mm = memref.alloc() : memref<64xf16>
  linalg.add ins(%m, %m : memref<64xf16>, memref<64xf16>) outs(%mm : memref<64xf16>)
  func.return
}
"""


def _names(module: ModuleOp) -> list[str]:
    fn = next(iter(module.body.block.ops))
    return [op.name for op in fn.regions[0].block.ops]


def test_dead_code_by_effects() -> None:
    module = parse_module(DEAD, "dead.mlir")
    fn = next(iter(module.body.block.ops))
    assert dead_code(fn.regions[0])
    assert _names(module) == [
        "ktdf.fifo.allocate", "ktdf.write_to_fifo",  # the slot written stays
        "memref.alloc", "linalg.add",  # a linalg op on memrefs writes memory
        "func.return"]
    assert not dead_code(fn.regions[0])  # nothing left to remove


class _Double(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
        if op.lhs is op.rhs:
            two = arith.ConstantOp.from_int_and_width(2, op.lhs.type)
            replace_keeping_names(rewriter, op, [two, arith.MuliOp(op.lhs, two.result)])


def test_replace_keeps_names() -> None:
    module = parse_module("""
func.func @g(%x: index) -> index {
  %y = arith.addi %x, %x : index
  func.return %y : index
}
""", "names.mlir")
    assert apply_patterns(module, [_Double()])
    text = str(module)
    assert "%1 = arith.muli %x, %0 : index" in text  # not `%y`: no name is carried over
    assert "func.return %1 : index" in text


NESTED = """
func.func @n(%t: tensor<64xf16>, %lb: index, %ub: index) -> tensor<64xf16> {
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<64xf16>
  %k = arith.constant 2.0 : f16
  %dead = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%t : tensor<64xf16>) outs(%e : tensor<64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %k : f16
    linalg.yield %m : f16
  } -> tensor<64xf16>
  %unused = arith.addi %lb, %ub : index
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %t) -> (tensor<64xf16>) {
    %j = arith.addi %i, %c1 : index
    %s = linalg.add ins(%acc, %acc : tensor<64xf16>, tensor<64xf16>) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    scf.yield %s : tensor<64xf16>
  }
  func.return %r : tensor<64xf16>
}
"""


def test_dead_code_in_one_call() -> None:
    """A value only the body of a dead generic reads (`%k`) goes with it in the same call,
    as xDSL's region DCE repeated until nothing more goes; what a live loop yields stays."""
    module = parse_module(NESTED, "nested.mlir")
    fn = next(iter(module.body.block.ops))
    assert dead_code(fn.regions[0])
    assert _names(module) == ["arith.constant", "tensor.empty", "scf.for", "func.return"]
    loop = next(op for op in fn.regions[0].block.ops if op.name == "scf.for")
    assert [op.name for op in loop.regions[0].block.ops] == ["linalg.add", "scf.yield"]
    assert not dead_code(fn.regions[0])


class _Tag(RewritePattern):
    """Any op (no type annotation): records what it was asked about."""

    def __init__(self, seen: list[str]):
        self.seen = seen

    def match_and_rewrite(self, op, rewriter: PatternRewriter) -> None:  # noqa: ANN001
        self.seen.append(op.name)


def test_patterns_in_order_by_op_type() -> None:
    """The first pattern that acts on an op wins; a pattern of another op type is not asked,
    and an untyped one is asked about every op the earlier ones left alone."""
    module = parse_module("""
func.func @h(%x: index) -> index {
  %y = arith.addi %x, %x : index
  %z = arith.muli %y, %y : index
  func.return %z : index
}
""", "order.mlir")
    seen: list[str] = []
    assert apply_patterns(module, [_Double(), _Tag(seen)])
    assert "arith.addi" not in seen  # _Double acted on it first
    assert seen.count("arith.muli") == 1 and "func.return" in seen
