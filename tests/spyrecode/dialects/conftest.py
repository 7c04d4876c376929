"""Helpers for the DataflowIR dialect tests: affine attributes from text, kernels from ops,
and the print -> parse -> print round trip."""

from collections.abc import Callable, Sequence

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Attribute, Block, Region
from xdsl.parser import Parser

from ktir.context import make_context, parse_module
from spyrecode.dialects.dataflow import GetUnitOp, ProgramUnitOp


@pytest.fixture(scope="session")
def attr() -> Callable[[str], Attribute]:
    """`attr("affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>").data` and the like."""
    ctx = make_context()
    return lambda text: Parser(ctx, text).parse_attribute()


@pytest.fixture(scope="session")
def kernel() -> Callable[..., ModuleOp]:
    """`kernel(build, arg_types=())`: a module with `func.func @k`, whose body `build(args)`
    fills (a `func.return` is added)."""

    def make(build: Callable[[Sequence], None], arg_types: Sequence[Attribute] = ()
             ) -> ModuleOp:
        block = Block(arg_types=arg_types)
        with ImplicitBuilder(block):
            build(block.args)
            func.ReturnOp()
        return ModuleOp([func.FuncOp("k", (list(arg_types), []), Region(block))])

    return make


@pytest.fixture(scope="session")
def program(kernel) -> Callable[..., ModuleOp]:
    """`program(build, arg_types=())`: like `kernel`, but `build(args)` fills the body of a
    `dataflow.program_unit` run by unit C0-L1LU."""

    def make(build: Callable[[Sequence], None], arg_types: Sequence[Attribute] = ()
             ) -> ModuleOp:
        def body(args: Sequence) -> None:
            unit = GetUnitOp("C0-L1LU", "L1LU", core=0)
            block = Block(arg_types=[IndexType()])
            with ImplicitBuilder(block):
                build(args)
            ProgramUnitOp([unit.unit], block)

        return kernel(body, arg_types)

    return make


@pytest.fixture(scope="session")
def roundtrip() -> Callable[[ModuleOp], str]:
    """Verify, print, parse (with verification) and print again: the two texts must agree."""

    def check(module: ModuleOp) -> str:
        module.verify()
        text = str(module)
        assert str(parse_module(text)) == text
        return text

    return check
