"""Subscripts written as affine expressions of SSA values: `%A[%row0 + %i, %c0]`.

Shared by the ktdp access-tile ops and the ktdf/agen transfer ops. xDSL parses such a bracket
with a symbol per SSA name and prints affine expressions fully parenthesised; we keep the SSA
names as *dims* of the map and print MLIR style (`%i * 2`, `%a - %b`), so `print -> parse ->
print` is stable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.mlir_lexer import MLIRTokenKind

_ADD, _MUL = 1, 2
_OPS = {
    AffineBinaryOpKind.Mul: "*",
    AffineBinaryOpKind.FloorDiv: "floordiv",
    AffineBinaryOpKind.CeilDiv: "ceildiv",
    AffineBinaryOpKind.Mod: "mod",
}


def format_affine_expr(expr: AffineExpr, dim_names: Sequence[str],
                       sym_names: Sequence[str] = ()) -> str:
    """MLIR-style text of an expression with dims/symbols replaced by the given names."""

    def go(e: AffineExpr, ctx: int) -> str:
        if isinstance(e, AffineConstantExpr):
            return str(e.value)
        if isinstance(e, AffineDimExpr):
            return dim_names[e.position]
        if isinstance(e, AffineSymExpr):
            return sym_names[e.position]
        assert isinstance(e, AffineBinaryOpExpr)
        if e.kind is AffineBinaryOpKind.Add:
            lhs = go(e.lhs, _ADD)
            r = e.rhs
            if (isinstance(r, AffineBinaryOpExpr) and r.kind is AffineBinaryOpKind.Mul
                    and isinstance(r.rhs, AffineConstantExpr) and r.rhs.value < 0):
                k = -r.rhs.value
                s = f"{lhs} - {go(r.lhs, _MUL + 1)}" + ("" if k == 1 else f" * {k}")
            elif isinstance(r, AffineConstantExpr) and r.value < 0:
                s = f"{lhs} - {-r.value}"
            else:
                s = f"{lhs} + {go(r, _ADD + 1)}"
            return f"({s})" if ctx > _ADD else s
        s = f"{go(e.lhs, _MUL)} {_OPS[e.kind]} {go(e.rhs, _MUL + 1)}"
        return f"({s})" if ctx > _MUL else s

    return go(expr, 0)


def dims_to_symbols_swap(expr: AffineExpr) -> AffineExpr:
    """xDSL parses SSA ids as symbols; we store them as dims (and vice versa)."""
    if isinstance(expr, AffineSymExpr):
        return AffineExpr.dimension(expr.position)
    if isinstance(expr, AffineDimExpr):
        return AffineExpr.symbol(expr.position)
    if isinstance(expr, AffineBinaryOpExpr):
        return AffineExpr.binary(expr.kind, dims_to_symbols_swap(expr.lhs),
                                 dims_to_symbols_swap(expr.rhs))
    return expr


class SubscriptParser:
    """Parses affine expressions whose leaves are SSA names, constants and `( ... )`.

    `on_ssa(name, span)` decides what an SSA name means (a dim position) and may consume more
    tokens (used for the RFC form of indirect subscripts `%V[...]`).
    """

    def __init__(self, parser: Parser, on_ssa: Callable[[str, object], AffineExpr]):
        self.parser = parser
        self.affine = AffineParser(parser._parser_state)  # pyright: ignore[reportPrivateUsage]
        self.on_ssa = on_ssa

    def _leaf(self) -> AffineExpr | None:
        tok = self.affine._parse_optional_token(MLIRTokenKind.PERCENT_IDENT)  # pyright: ignore[reportPrivateUsage]
        if tok is None:
            return None
        return self.on_ssa(tok.span.text, tok.span)

    def parse_expr(self) -> AffineExpr:
        return self.affine._parse_affine_expr(self._leaf)  # pyright: ignore[reportPrivateUsage]

    def parse_bracket(self) -> list[AffineExpr]:
        return self.parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, self.parse_expr)

    def parse_indirect_bracket(self) -> tuple[list[bool], list[list[AffineExpr]], list]:
        """`[ind(%V[e, ...]), e, ...]`: per subscript whether it is indirect and its
        expressions (one for a direct subscript, those inside the brackets for `ind`), and the
        unresolved views the `ind` subscripts read, in order."""
        kinds: list[bool] = []
        exprs: list[list[AffineExpr]] = []
        views: list = []

        def subscript() -> None:
            if self.parser.parse_optional_keyword("ind"):
                self.parser.parse_punctuation("(")
                views.append(self.parser.parse_unresolved_operand())
                exprs.append(self.parse_bracket())
                self.parser.parse_punctuation(")")
                kinds.append(True)
            else:
                exprs.append([self.parse_expr()])
                kinds.append(False)

        self.parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, subscript)
        return kinds, exprs, views


def parse_ssa_subscripts(parser: Parser) -> tuple[AffineMap, list]:
    """`[%a + %b, 4]` -> (map with one dim per distinct SSA name, the unresolved operands)."""
    names: dict[str, int] = {}
    spans: list = []

    def on_ssa(name: str, span) -> AffineExpr:
        if name not in names:
            names[name] = len(names)
            spans.append(span)
        return AffineExpr.dimension(names[name])

    exprs = SubscriptParser(parser, on_ssa).parse_bracket()
    from xdsl.parser import UnresolvedOperand

    return AffineMap(len(names), 0, tuple(exprs)), [UnresolvedOperand(s, 0) for s in spans]


def print_ssa_subscripts(printer, amap: AffineMap, operands: Sequence) -> None:
    """Print `[expr, ...]` with operand names in place of the map's dims."""
    from io import StringIO

    names = []
    for v in operands:
        buf = StringIO()
        old = printer.stream
        printer.stream = buf
        printer.print_ssa_value(v)
        printer.stream = old
        names.append(buf.getvalue())
    printer.print_string("[" + ", ".join(format_affine_expr(e, names) for e in amap.results) + "]")
