"""Located diagnostics: `file:line:col: error: message`, the source line, a caret.

xDSL 0.74 records no source location on parsed operations and reports verifier failures by
printing the whole module. `KtirParser` stamps every parsed operation with a `FileLineColLoc`
(so passes, the interpreter and the emulator can point at the source), keeps the text so the
line can be shown, and turns anything that escapes parsing into a located `KtirDiagnostic`.
"""

from __future__ import annotations

import bisect
import math
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from ktir.dialects import mlir_compat
from ktir.errors import KtirDiagnostic

mlir_compat.install()

# source name -> full text, so a diagnostic can quote the offending line
_SOURCES: dict[str, str] = {}
_RANGE_ERROR = re.compile(r"out of range|too large|overflow", re.IGNORECASE)

# xDSL's string-literal pattern nests `[...]+` inside `(...)*`: on an unterminated string the
# regex engine backtracks exponentially in the rest of the line (a hang). One character per
# repetition matches the same strings in linear time.
MLIRLexer._unescaped_characters_regex = re.compile(
    r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def register_source(name: str, text: str) -> None:
    _SOURCES[name] = text


def _source_line(name: str, line: int) -> str | None:
    text = _SOURCES.get(name)
    if text is None:
        return None
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else None


def format_at(name: str, line: int, col: int, message: str, severity: str = "error",
              width: int = 1) -> str:
    out = [f"{name}:{line}:{col}: {severity}: {message}"]
    src = _source_line(name, line)
    if src is not None:
        out.append(src.rstrip("\r"))
        out.append(" " * max(col - 1, 0) + "^" * max(width, 1))
    return "\n".join(out)


def op_location(op: Operation) -> tuple[str, int, int] | None:
    """The (file, line, col) of an operation or of its nearest located ancestor."""
    cur: Operation | None = op
    while cur is not None:
        loc = cur.location
        if isinstance(loc, FileLineColLoc):
            return loc.filename.data, loc.line.data, loc.column.data
        cur = cur.parent_op()
    return None


def op_error(op: Operation, message: str, severity: str = "error") -> KtirDiagnostic:
    """A diagnostic pointing at `op` (MLIR style: `'dialect.op' op message`)."""
    text = f"'{op.name}' op {message}"
    loc = op_location(op)
    if loc is None:
        return KtirDiagnostic(f"{severity}: {text}")
    return KtirDiagnostic(format_at(*loc, text, severity))


def warn(text: str) -> None:
    print(text, file=sys.stderr)


def warn_op(op: Operation, message: str) -> None:
    warn(op_error(op, message, "warning").text)


def _span_location(span: Span[str] | Span[bytes]) -> tuple[str, int, int]:
    loc = span.get_location()
    return loc.file, loc.line, loc.col


def parse_error_text(e: ParseError) -> str:
    name, line, col = _span_location(e.span)
    return format_at(name, line, col, e.msg, width=max(e.span.end - e.span.start, 1))


def warn_at(parser: Parser, pos: int, message: str) -> None:
    """A warning at a position of the text a parser reads."""
    span = Span(pos, pos + 1, parser.lexer.input,
                getattr(parser, "line_offset", 0))
    warn(format_at(*_span_location(span), message, "warning"))


def ssa_name(printer: Printer, value: SSAValue) -> str:
    """The name `%x` a printer gives a value, without writing it to the output."""
    old = printer.stream
    buf = StringIO()
    printer.stream = buf
    try:
        printer.print_ssa_value(value)
    finally:
        printer.stream = old
    return buf.getvalue()


class KtirParser(Parser):
    """A Parser that locates every operation and never lets a raw exception escape."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.name = name
        self.line_offset = line_offset
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        self._op_stack: list[int] = []
        self._failed_at: int | None = None  # start of the op whose parsing raised
        self._name_attr = StringAttr(name)
        self._last_literal: Span | None = None
        self._last_end = 0
        self._text_len = len(text)

    def _consume_token(self, expected_kind=None):
        tok = super()._consume_token(expected_kind)
        self._last_end = tok.span.end
        if tok.kind in (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.FLOAT_LIT):
            self._last_literal = tok.span
        return tok

    def _parse_dense_literal_type(self):
        start = self._current_token.span.start
        t = super()._parse_dense_literal_type()
        self._check_elements(t, start)
        return t

    def parse_dense_int_or_fp_elements_attr(self, type):
        if type is not None:
            self._check_elements(type, self._current_token.span.start)
        return super().parse_dense_int_or_fp_elements_attr(type)

    def _check_elements(self, t, start: int) -> None:
        """A dense constant is materialised element by element: refuse one beyond the
        element limit before it is built (located at its type)."""
        from ktir.limits import over

        n = math.prod(t.get_shape())
        if (msg := over("elements", n, f"a dense constant of type {t}")) is not None:
            self.raise_error(msg, start, max(self._last_end, start + 1))

    def _line_col(self, pos: int) -> tuple[int, int]:
        i = bisect.bisect_right(self._line_starts, pos) - 1
        return i + 1 + self.line_offset, pos - self._line_starts[i] + 1

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        self._op_stack.append(start)
        try:
            op = super().parse_operation()
        except Exception:
            if self._failed_at is None:  # the innermost op, before the stack unwinds
                self._failed_at = start
            raise
        finally:
            self._op_stack.pop()
        line, col = self._line_col(start)
        op.location = FileLineColLoc(self._name_attr, IntAttr(line), IntAttr(col))
        return op

    def parse_located_module(self) -> ModuleOp:
        """Parse a whole module; every failure becomes a located `KtirDiagnostic`."""
        try:
            return self.parse_module()
        except ParseError as e:
            span, msg = e.span, e.msg
            if msg.startswith("values used but not defined") and (
                    undefined := self._first_undefined_use()) is not None:
                raise undefined from None
            if _RANGE_ERROR.search(msg) and self._last_literal is not None:
                span = self._last_literal  # xDSL points past the literal it rejects
            elif span.start >= self._text_len:
                msg = "unexpected end of input" + (f" ({msg.strip()})" if msg.strip() else "")
            e.span = replace(span, line_offset=self.line_offset)
            e.msg = msg
            raise KtirDiagnostic(parse_error_text(e)) from None
        except RecursionError:
            raise self._here("input is nested too deeply") from None
        except Exception as e:  # xDSL raises plain exceptions for some bad literals
            if _RANGE_ERROR.search(_describe(e)) and self._last_literal is not None:
                span = self._last_literal
                line, col = self._line_col(span.start)
                raise KtirDiagnostic(format_at(self.name, line, col, _describe(e),
                                               width=span.end - span.start)) from None
            raise self._here(_describe(e)) from None

    def _first_undefined_use(self) -> KtirDiagnostic | None:
        """Point at the first op that uses a value the module never defines."""
        for name, values in self.forward_ssa_references.items():
            for value in values.values():
                for use in value.uses:
                    loc = op_location(use.operation)
                    if loc is not None:
                        return KtirDiagnostic(format_at(*loc, f"use of undefined value '%{name}'"))
        return None

    def _here(self, message: str) -> KtirDiagnostic:
        pos = self._failed_at if self._failed_at is not None else \
            self._op_stack[-1] if self._op_stack else self._current_token.span.start
        line, col = self._line_col(pos)
        return KtirDiagnostic(format_at(self.name, line, col, message))


def _describe(e: Exception) -> str:
    msg = str(e).strip().split("\n")[0] or type(e).__name__
    if isinstance(e, OverflowError):
        return f"literal out of range: {msg}"
    if isinstance(e, VerifyException):
        return msg
    return f"invalid input: {msg}"


def parse_text(ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0,
               allow_empty: bool = False, register: bool = True) -> ModuleOp:
    """Parse MLIR text into a module with located operations (raises KtirDiagnostic).

    `line_offset` places a chunk of a larger file; the caller then registers the whole text
    once and passes `register=False`.
    """
    if register:
        register_source(name, text)
    if not _has_code(text):
        if allow_empty:
            return ModuleOp([])
        raise KtirDiagnostic(format_at(name, 1 + line_offset, 1,
                                       "empty input: expected at least one operation"))
    try:
        parser = KtirParser(ctx, text, name, line_offset)  # lexes the first token
    except ParseError as e:
        e.span = replace(e.span, line_offset=line_offset)
        raise KtirDiagnostic(parse_error_text(e)) from None
    return parser.parse_located_module()


def _has_code(text: str) -> bool:
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("//"):
            return True
    return False


def _post_order(root: Operation) -> list[Operation]:
    """Every op nested in `root`, each after the ops nested in it, then `root` (with a stack:
    a recursive generator costs a frame per level for every op)."""
    out: list[Operation] = []
    stack: list[tuple[Operation, bool]] = [(root, False)]
    while stack:
        op, done = stack.pop()
        if done:
            out.append(op)
            continue
        stack.append((op, True))
        if op.regions:
            children = [c for region in op.regions for block in region.blocks
                        for c in block.ops]
            stack.extend((c, False) for c in reversed(children))
    return out


ATTRIBUTE_VERIFIERS: dict[str, Callable[[Operation], None]] = {}
"""Verifiers of the discardable attributes named after a dialect (`ktdf_arch.maps_to` on an
`arith` op), by dialect name, as MLIR dialects verify the attributes in their namespace. A
dialect module registers its own when it is loaded (`register_attribute_verifier`)."""


def register_attribute_verifier(dialect: str, verify: Callable[[Operation], None]) -> None:
    ATTRIBUTE_VERIFIERS[dialect] = verify


def _verify_dialect_attributes(op: Operation, ctx: Context | None) -> None:
    own = op.dialect_name()
    for dialect in {k.partition(".")[0] for k in op.attributes if "." in k} - {own}:
        if dialect not in ATTRIBUTE_VERIFIERS and ctx is not None:
            ctx.get_optional_dialect(dialect)  # loading it registers its verifier
        if (verify := ATTRIBUTE_VERIFIERS.get(dialect)) is not None:
            verify(op)


def verify_located(module: Operation, ctx: Context | None = None) -> None:
    """Verify like `Operation.verify`, but report the first failure at its op's location.
    Attributes named after another dialect are checked by that dialect's attribute verifier
    (loaded through `ctx` when it is not loaded yet)."""
    order = _Order()
    clean: set[int] = set()  # attributes already checked (shared by many ops, immutable)
    for op in _post_order(module):
        order.check(op)
        _check_index_literals(op, clean)
        try:
            op.verify(verify_nested_ops=False)
            if op.attributes:
                _verify_dialect_attributes(op, ctx)
        except VerifyException as e:
            msg = str(e).split("\n")[0]
            at, msg = _culprit(op, msg)
            raise op_error(at, msg) from None
        except Exception as e:  # a verifier that crashed is still the op's problem
            raise op_error(op, f"verifier failed: {_describe(e)}") from None


def _check_index_literals(op: Operation, clean: set[int]) -> None:
    """An `index` literal must fit in 64 bits (signed, or unsigned spelling up to 2^64 - 1):
    xDSL keeps any Python int, which the interpreter would wrap and the compiler keep.
    `clean` holds the ids of attributes found fine (alive in the module being checked)."""
    for values in (op.properties, op.attributes):
        for attr in values.values():
            if id(attr) in clean:
                continue
            bad = _wide_index(attr)
            if bad is not None:
                raise op_error(op, f"index literal {bad} does not fit in 64 bits")
            clean.add(id(attr))


def _wide_index(attr: Attribute) -> int | None:
    if isinstance(attr, IntegerAttr):
        v = attr.value.data
        if isinstance(attr.type, IndexType) and not -(1 << 63) <= v < 1 << 64:
            return v
        return None
    if isinstance(attr, ArrayAttr):
        for a in attr.data:
            if (bad := _wide_index(a)) is not None:
                return bad
    elif isinstance(attr, DictionaryAttr):
        for a in attr.data.values():
            if (bad := _wide_index(a)) is not None:
                return bad
    return None


class _Order:
    """Definitions before uses, which xDSL's verifier does not check: an operand defined
    later in the same block (or by the op itself, or in a region that does not enclose the
    use) is an error at the use. Uses in another block of an enclosing region are not
    checked (that needs the control-flow graph)."""

    def __init__(self) -> None:
        self.index: dict[int, dict[int, int]] = {}

    def _pos(self, op: Operation) -> int:
        block = op.parent
        assert block is not None
        table = self.index.get(id(block))
        if table is None:
            table = self.index[id(block)] = {id(o): i for i, o in enumerate(block.ops)}
        return table[id(op)]

    def check(self, op: Operation) -> None:
        for i, v in enumerate(op.operands):
            if isinstance(v, OpResult):
                d: Operation | None = v.op
                block = v.op.parent
            elif isinstance(v, BlockArgument):
                d, block = None, v.block
            else:
                continue
            if block is None:
                continue
            a: Operation | None = op
            while a is not None and a.parent is not block:
                a = a.parent_op()
            if a is None:
                if not self._encloses(block.parent, op):
                    raise op_error(op, f"operand {i} is {self._what(v)}, defined in a region "
                                   "that does not enclose this use")
                continue
            if d is not None and (a is d or self._pos(a) < self._pos(d)):
                raise op_error(op, f"operand {i} is {self._what(v)}, which is defined after "
                               "this use: define a value before using it")

    @staticmethod
    def _encloses(region: Region | None, op: Operation) -> bool:
        cur: Operation | None = op
        while cur is not None:
            if cur.parent_region() is region:
                return True
            cur = cur.parent_op()
        return False

    @staticmethod
    def _what(v: SSAValue) -> str:
        if isinstance(v, OpResult):
            loc = op_location(v.op)
            return f"a result of '{v.op.name}'" + (f" (line {loc[1]})" if loc else "")
        return "a block argument"


_REDEFINED = re.compile(r'Redefinition of symbol "(.*)"')


def _culprit(op: Operation, message: str) -> tuple[Operation, str]:
    """The op a verifier message is about, and the message: for a symbol table's
    "Redefinition of symbol", the second definition (the table, often an implicit module, has
    no location), naming where the first one is."""
    m = _REDEFINED.match(message)
    if m is None or not op.regions or not op.regions[0].blocks:
        return op, message
    first = None
    for child in op.regions[0].block.ops:
        name = child.properties.get("sym_name") or child.attributes.get("sym_name")
        if isinstance(name, StringAttr) and name.data == m.group(1):
            if first is not None:
                loc = op_location(first)
                where = f" (first defined at {loc[0]}:{loc[1]}:{loc[2]})" if loc else ""
                return child, message + where
            first = child
    return op, message
