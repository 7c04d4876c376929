"""Hypothesis strategies that mutate MLIR text: token edits, number edits (huge, negative and
zero sizes among them), type swaps, attribute removal, unbounded affine sets, line edits and
truncation. `mutant(text)` applies one to three of them."""

from __future__ import annotations

import re

from hypothesis import strategies as st

# a rough MLIR lexer: strings, SSA and symbol names, shapes, numbers, words, punctuation
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[%#@^!][\w.$-]+|\d+(?:x\d+)+x\w+|0x[0-9a-fA-F]+|'
                   r'-?\d+\.\d*(?:[eE][+-]?\d+)?|-?\d+|[A-Za-z_][\w.$]*|->|\S')
NUMBER = re.compile(r"(?<![\w.%#@])-?\d+(?:\.\d*(?:[eE][+-]?\d+)?)?(?![\w.])|(?<=[<x])\d+(?=x)")
TYPE = re.compile(r"\b(?:f16|bf16|f32|f64|i1|i8|i16|i32|i64|si64|ui32|index)\b")
SET = re.compile(r"affine_set<\(([^()]*)\)(?:\[[^\]]*\])? : \(([^()]*(?:\([^()]*\)[^()]*)*)\)>")
ATTR_ENTRY = re.compile(r"[\w.]+ = ")

INTS = (0, 1, -1, 2, 3, 7, 8, 63, 64, 65, 127, 128, 1023, 1024, 4096, 65535, 65536, 2**31 - 1,
        2**31, 2**32, 2**53, 2**62, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**65, 10**11, 10**20,
        10**30, -(2**31), -(2**63), -(2**63) - 1, -(2**64))
FLOATS = ("0.0", "-0.0", "1.0", "-1.0", "0.5", "1.0e-05", "65504.0", "65520.0", "1.0e+05",
          "3.5e+38", "1.0e+308", "1.0e+400", "-1.0e+400", "1.0e-400", "1.0e-45")
TYPES = ("f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "index", "f8E4M3FN",
         "complex<f32>", "vector<4xf16>", "tensor<2xf16>", "memref<?xf16>", "none", "!x.y")
TOKENS = ("{", "}", "(", ")", "[", "]", "<", ">", ":", ",", "=", "->", "%c0", "%0", "?", "-",
          "*", "x", "0", "-1", "index", "f16", "#id", "@add", '""', '"x"', "^bb0", "dense<0.0>",
          "affine_map<(d0) -> (d0)>", "affine_set<(d0) : (d0 >= 0)>", "true", "unit",
          "tensor<1x2147483648xf32>", "memref<100000000000x64xf16>", "10000000000000000000000",
          "-9223372036854775809", "1.0e400", '"' + "x" * 300 + '"', "\u00e9", "\\", "//")


def _code_tokens(text: str) -> list[tuple[int, int]]:
    """Spans of the tokens outside `//` comments."""
    spans = []
    pos = 0
    for line in text.split("\n"):
        code = line.split("//", 1)[0] if '"' not in line else line
        spans += [(pos + m.start(), pos + m.end()) for m in TOKEN.finditer(code)]
        pos += len(line) + 1
    return spans


def _splice(text: str, span: tuple[int, int], new: str) -> str:
    return text[:span[0]] + new + text[span[1]:]


@st.composite
def token_edit(draw, text: str) -> str:
    spans = _code_tokens(text)
    if not spans:
        return text
    i = draw(st.integers(0, len(spans) - 1))
    how = draw(st.sampled_from(("delete", "duplicate", "replace", "swap", "insert")))
    s = spans[i]
    tok = text[s[0]:s[1]]
    if how == "delete":
        return _splice(text, s, "")
    if how == "duplicate":
        return _splice(text, s, tok + " " + tok)
    if how == "swap" and i + 1 < len(spans):
        t = spans[i + 1]
        return text[:s[0]] + text[t[0]:t[1]] + text[s[1]:t[0]] + tok + text[t[1]:]
    other = draw(st.one_of(st.sampled_from(TOKENS), st.sampled_from(spans).map(
        lambda sp: text[sp[0]:sp[1]])))
    if how == "insert":
        return _splice(text, (s[0], s[0]), other + " ")
    return _splice(text, s, other)


@st.composite
def number_edit(draw, text: str) -> str:
    spans = [(m.start(), m.end()) for m in NUMBER.finditer(text)
             if not _in_comment(text, m.start())]
    if not spans:
        return text
    s = draw(st.sampled_from(spans))
    if "." in text[s[0]:s[1]]:
        new = draw(st.one_of(st.sampled_from(FLOATS),
                             st.floats(allow_nan=False, allow_infinity=False).map(repr)))
    else:
        new = str(draw(st.one_of(st.sampled_from(INTS), st.integers(-(2**70), 2**70),
                                 st.integers(-3, 300))))
    if "x" in text[s[1]:s[1] + 1] and new.startswith("-"):
        new = new[1:]  # a shape dimension: keep the lexer's view of the shape
    return _splice(text, s, new)


def _in_comment(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    return "//" in text[start:pos] and '"' not in text[start:pos]


@st.composite
def type_swap(draw, text: str) -> str:
    spans = [(m.start(), m.end()) for m in TYPE.finditer(text) if not _in_comment(text, m.start())]
    if not spans:
        return text
    s = draw(st.sampled_from(spans))
    return _splice(text, s, draw(st.sampled_from(TYPES)))


def _balanced_end(text: str, i: int) -> int:
    """The end of the attribute value starting at i: up to a `,` or closing bracket at depth 0."""
    depth = 0
    in_str = False
    while i < len(text):
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>":
            if depth == 0:
                return i
            depth -= 1
        elif c == "," and depth == 0:
            return i
        elif c == "\n" and depth == 0:
            return i
        i += 1
    return i


@st.composite
def attribute_removal(draw, text: str) -> str:
    spans = [m.start() for m in ATTR_ENTRY.finditer(text) if not _in_comment(text, m.start())]
    if not spans:
        return text
    start = draw(st.sampled_from(spans))
    end = _balanced_end(text, text.index("=", start) + 1)
    if end < len(text) and text[end] == ",":
        end += 1
    elif text[:start].rstrip().endswith(","):
        start = text[:start].rstrip().rfind(",")
    return text[:start] + text[end:]


@st.composite
def unbounded_set(draw, text: str) -> str:
    sets = list(SET.finditer(text))
    if not sets:
        return text
    m = draw(st.sampled_from(sets))
    cons = [c.strip() for c in m.group(2).split(",")]
    how = draw(st.sampled_from(("drop", "keep-one", "flip")))
    if how == "drop" and len(cons) > 1:
        cons.pop(draw(st.integers(0, len(cons) - 1)))
    elif how == "keep-one":
        cons = [draw(st.sampled_from(cons))]
    else:
        i = draw(st.integers(0, len(cons) - 1))
        cons[i] = cons[i].replace(">= 0", "<= 0") if ">=" in cons[i] else cons[i] + " + 1"
    new = m.group(0)[:m.start(2) - m.start(0)] + ", ".join(cons) + m.group(0)[m.end(2) - m.start(0):]
    return text[:m.start()] + new + text[m.end():]


@st.composite
def line_edit(draw, text: str) -> str:
    lines = text.split("\n")
    code = [i for i, ln in enumerate(lines) if ln.strip() and not ln.strip().startswith("//")]
    if not code:
        return text
    i = draw(st.sampled_from(code))
    how = draw(st.sampled_from(("delete", "duplicate", "move-up", "swap")))
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "move-up":  # a use before its definition, often
        j = draw(st.integers(0, i))
        lines.insert(j, lines.pop(i))
    else:
        j = draw(st.sampled_from(code))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@st.composite
def truncate(draw, text: str) -> str:
    return text[:draw(st.integers(0, max(len(text) - 1, 0)))]


EDITS = (token_edit, number_edit, number_edit, type_swap, attribute_removal, unbounded_set,
         line_edit, truncate)


@st.composite
def mutant(draw, text: str, max_edits: int = 3) -> str:
    for _ in range(draw(st.integers(1, max_edits))):
        text = draw(draw(st.sampled_from(EDITS))(text))
    return text
