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
