"""The `ktdf_arch` dialect: a dataflow machine as a graph of memories, execution units, switch
ports and datapaths, with groups that make resources private (shared/spec/arch.md §1-§4).

Syntax follows torch-spyre/dataflow-scheduler-mlir-dialects: ops inside a device or a group may
omit the `ktdf_arch.` prefix and are printed without it; resource attributes are one dictionary
(or an alias of one); groups capture memories with `share(...)` (block arguments that shadow the
outer names) and hand exec units out with `yield`. Verification of the `ktdf_arch.*`
intrinsics lives in `ktdf_arch_intrinsics.py`; the semantic checks that need the whole machine
(reachability, routes, mapping) live in `arch_descriptions.model`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    OpResult,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from arch_descriptions.dialects import ktdf_arch_intrinsics as intrinsics
from arch_descriptions.dialects.directives import Body, Endpoints, GroupNames
from arch_descriptions.dialects.ktdf_arch_types import (
    ENDPOINT_TYPES,
    ExecUnitType,
    MapAttr,
    MemoryType,
    PortType,
    article,
    check_endpoint,
    parse_endpoint,
    parse_resource_attrs,
    parse_short_type,
    parse_sparse_matrix,
    print_body,
    print_dict,
    print_resource_attrs,
    short_type,
)
from ktir.diagnostics import op_error, op_location


def resolve_endpoint(value: SSAValue) -> Operation | None:
    """The node op (memory, exec_unit, switch) behind a value, through shares and yields."""
    while True:
        if isinstance(value, BlockArgument):
            owner = value.block.parent_op()
            if not isinstance(owner, GroupOp) or value.index >= len(owner.operands):
                return None
            value = owner.operands[value.index]
        elif isinstance(value, OpResult) and isinstance(value.op, GroupOp):
            term = value.op.body.block.last_op
            if not isinstance(term, YieldOp) or value.index >= len(term.operands):
                return None
            value = term.operands[value.index]
        elif isinstance(value, OpResult) and isinstance(value.op, MemoryOp | ExecUnitOp
                                                         | SwitchOp):
            return value.op
        else:
            return None


def kind_text(kind: Attribute | None) -> str | None:
    """A `kind` as plain text: "L1" for `kind = "L1"`, "1" for `kind = 1`."""
    if kind is None:
        return None
    if isinstance(kind, StringAttr):
        return kind.data
    return str(kind.value.data) if isinstance(kind, IntegerAttr) else str(kind)


def describe(op: Operation) -> str:
    """How diagnostics name a resource: `memory "L1"`, `exec_unit @a`, `datapath DDR -> L1`."""
    word = op.name.removeprefix("ktdf_arch.")
    if isinstance(op, DatapathOp):
        ends = [resolve_endpoint(v) for v in (op.source, op.target)]
        names = [describe(e).split(" ", 1)[-1] if e is not None else "?" for e in ends]
        return f"datapath {names[0]} -> {names[1]}"
    rid = op.attributes.get("id")
    kind = kind_text(op.attributes.get("kind"))
    if kind is not None:
        return f'{word} "{kind}"' + (f" @{rid.data}" if isinstance(rid, StringAttr) else "")
    if isinstance(rid, StringAttr):
        return f"{word} @{rid.data}"
    return f"{word} (no kind)"


# --------------------------------------------------------------------------------------------
# operations
# --------------------------------------------------------------------------------------------


_KIND = re.compile(r"[A-Za-z_][A-Za-z0-9_.$-]*")


class _ResourceOp(IRDLOperation):
    """Resources keep `id`, `kind` and the rest in their attribute dictionary, like upstream."""

    ROLE: ClassVar[str] = intrinsics.OTHER_ARCH

    @property
    def resource_id(self) -> str | None:
        rid = self.attributes.get("id")
        return rid.data if isinstance(rid, StringAttr) else None

    @property
    def kind(self) -> Attribute | None:
        return self.attributes.get("kind")

    def feature(self, short: str) -> Attribute | None:
        """The value of `ktdf_arch.feature.<short>` (None when the resource lacks it)."""
        features = self.attributes.get("ktdf_arch.features")
        if isinstance(features, DictionaryAttr):
            return features.data.get(intrinsics.FEATURE_PREFIX + short)
        return None

    def verify_(self) -> None:
        rid = self.attributes.get("id")
        if rid is not None and not isinstance(rid, StringAttr):
            raise VerifyException("attribute 'id' must be a symbol name")
        kind = self.attributes.get("kind")
        if isinstance(kind, FloatAttr):  # a name, an integer or an attribute (upstream's
            # #ptr.generic_space), but a number with a fraction names nothing
            raise VerifyException(f"attribute 'kind' must be a name, an integer or an "
                                  f"attribute, not a float: got {kind}")
        if isinstance(kind, StringAttr) and not _KIND.fullmatch(kind.data):
            raise VerifyException(f"attribute 'kind' must be a name (a letter or '_', then "
                                  f"letters, digits, '_', '.', '-', '$'), got \"{kind.data}\"")
        intrinsics.check_intrinsics(self.attributes, self.ROLE)
        if isinstance(rid, StringAttr):
            self._check_unique_id(rid.data)

    def _check_unique_id(self, rid: str) -> None:
        device = self.parent_op()
        while device is not None and not isinstance(device, DeviceOp):
            device = device.parent_op()
        if device is None:
            return
        for op in device.walk():
            if op is self:
                return
            if isinstance(op, _ResourceOp) and op.resource_id == rid:
                loc = op_location(op)
                where = f" (previous definition at {loc[0]}:{loc[1]}:{loc[2]})" if loc else ""
                raise VerifyException(f'resource with id "{rid}" redefined{where}')


def _check_children(op: Operation, allowed: tuple[type[Operation], ...]) -> None:
    for block in op.regions[0].blocks:
        for child in block.ops:
            if not isinstance(child, allowed):
                raise VerifyException(
                    f"expects child ops to be resources (memory, exec_unit, switch, datapath, "
                    f"group){' or patterns' if PatternsOp in allowed else ''}, "
                    f"found '{_op_name(child)}'")


def _op_name(op: Operation) -> str:
    unregistered = getattr(op, "op_name", None)
    return unregistered.data if isinstance(unregistered, StringAttr) else op.name


@irdl_op_definition
class MemoryOp(_ResourceOp):
    """`%m = memory (@id)? {kind = "L1", size = 1048576}`: storage; `size` in bytes."""

    name = "ktdf_arch.memory"
    result = var_result_def(MemoryType)
    ROLE: ClassVar[str] = intrinsics.MEMORY

    def __init__(self, kind: Attribute, size: int | None = None,
                 attributes: Mapping[str, Attribute] | None = None):
        attrs = {"kind": kind, **({"size": IntegerAttr(size, i64)} if size is not None else {}),
                 **(attributes or {})}
        super().__init__(result_types=[[MemoryType()]], attributes=attrs)

    @property
    def size(self) -> int | None:
        return intrinsics.as_i64(self.attributes.get("size"))

    @classmethod
    def parse(cls, parser: Parser) -> MemoryOp:
        """Upstream's custom<AttrDictOrAlias>(attr-dict), MLIR-style values: no xDSL format."""
        op = cls.create(result_types=[MemoryType()], attributes=parse_resource_attrs(parser))
        return op  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        print_resource_attrs(printer, self)

    def verify_(self) -> None:
        if len(self.results) != 1:
            raise VerifyException("memory has exactly one result")
        kind = self.kind
        if kind is None:
            raise VerifyException("memory needs a 'kind' (the memory space it provides, "
                                  'e.g. kind = "L1")')
        builtin = type(kind).__module__ == "xdsl.dialects.builtin"
        if builtin and not isinstance(kind, StringAttr | IntegerAttr | DictionaryAttr):
            raise VerifyException("attribute 'kind' requires valid memory space (a string, "
                                  "an integer, a dictionary or a dialect attribute)")
        if "size" in self.attributes:
            size = intrinsics.as_i64(self.attributes["size"])
            if size is None:
                raise VerifyException(f'{describe(self)}: attribute \'size\' requires a '
                                      '64-bit integer attribute (bytes)')
            if size < 1:
                raise VerifyException(f"{describe(self)}: attribute 'size' must be >= 1 "
                                      f"(bytes), got {size}")
        super().verify_()


@irdl_op_definition
class ExecUnitOp(_ResourceOp):
    """`%e = exec_unit (@id)? {kind = "SFU", ktdf_arch.features = {...}}`."""

    name = "ktdf_arch.exec_unit"
    result = var_result_def(ExecUnitType)
    ROLE: ClassVar[str] = intrinsics.EXEC_UNIT

    def __init__(self, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(result_types=[[ExecUnitType()]], attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> ExecUnitOp:
        """Upstream's custom<AttrDictOrAlias>(attr-dict), MLIR-style values: no xDSL format."""
        return cls.create(result_types=[ExecUnitType()],  # type: ignore[return-value]
                          attributes=parse_resource_attrs(parser))

    def print(self, printer: Printer) -> None:
        print_resource_attrs(printer, self)

    def verify_(self) -> None:
        if len(self.results) != 1:
            raise VerifyException("exec_unit has exactly one result")
        super().verify_()


MAX_PORTS = 4096


@irdl_op_definition
class SwitchOp(_ResourceOp):
    """`%sw:2 = switch [2] {connectivity = dense<...> : tensor<2x2xi1>}`; default all-to-all."""

    name = "ktdf_arch.switch"
    ports = var_result_def(PortType)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        """The `[N]` port count sets the results; `sparse<...>` connectivity: no format."""
        parser.parse_punctuation("[")
        pos = parser.pos
        n = parser.parse_integer(allow_negative=False, allow_boolean=False)
        if n > MAX_PORTS:
            parser.raise_error(f"a switch has at most {MAX_PORTS} ports, got {n}", pos,
                               parser.pos)
        parser.parse_punctuation("]")
        attrs: dict[str, Attribute] = {}
        if (sym := parser.parse_optional_symbol_name()) is not None:
            attrs["id"] = sym
        if parser._current_token.kind == MLIRTokenKind.L_BRACE:
            def entry() -> None:
                name = parser.parse_identifier_or_str_literal()
                if parser.parse_optional_punctuation("=") is None:
                    attrs[name] = UnitAttr()
                elif name == "connectivity" and parser.parse_optional_keyword("sparse"):
                    attrs[name] = parse_sparse_matrix(parser)
                else:
                    attrs[name] = parser.parse_attribute()
            parser.parse_comma_separated_list(parser.Delimiter.BRACES, entry)
        elif parser._current_token.kind == MLIRTokenKind.HASH_IDENT:
            attrs.update(parse_resource_attrs(parser))
        return cls.create(result_types=[PortType()] * n,  # type: ignore[return-value]
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" [{len(self.results)}]")
        conn = self.attributes.get("connectivity")
        all_true = isinstance(conn, DenseIntOrFPElementsAttr) and all(
            conn.get_values())
        print_resource_attrs(printer, self, ("connectivity",) if all_true else ())

    def verify_(self) -> None:
        n = len(self.results)
        conn = self.attributes.get("connectivity")
        if conn is not None:
            t = getattr(conn, "type", None)
            if not (isinstance(conn, DenseIntOrFPElementsAttr) and isinstance(t, TensorType)
                    and t.element_type == i1 and tuple(t.get_shape()) == (n, n)):
                raise VerifyException(f"expected connectivity of type tensor<{n}x{n}xi1> "
                                      f"(one row and column per port), got {t}")
        super().verify_()


@irdl_op_definition
class DatapathOp(_ResourceOp):
    """`datapath (@id)? {...} %src to %dst : memory, exec_unit`: a directed link."""

    name = "ktdf_arch.datapath"
    endpoints = var_operand_def(MemoryType | ExecUnitType | PortType)
    ROLE: ClassVar[str] = intrinsics.LINK

    def __init__(self, source: SSAValue, target: SSAValue,
                 attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=[[source, target]], attributes=dict(attributes or {}))

    @property
    def source(self) -> SSAValue:
        return self.operands[0]

    @property
    def target(self) -> SSAValue:
        return self.operands[1]

    @classmethod
    def parse(cls, parser: Parser) -> DatapathOp:
        """Upstream's custom<AttrDictOrAlias>(attr-dict) before the operands: no format."""
        attrs = parse_resource_attrs(parser)
        src = parse_endpoint(parser, ENDPOINT_TYPES, "datapath source")
        parser.parse_keyword("to")
        dst = parse_endpoint(parser, ENDPOINT_TYPES, "datapath target")
        parser.parse_punctuation(":")
        for i, value in enumerate((src, dst)):
            if i:
                parser.parse_punctuation(",")
            pos = parser.pos
            declared = parse_short_type(parser)
            if declared != value.type:
                parser.raise_error(f"endpoint type mismatch: the value is "
                                   f"{article(short_type(value.type))}, declared "
                                   f"{short_type(declared)}", pos, parser.pos)
        return cls(src, dst, attrs)

    def print(self, printer: Printer) -> None:
        print_resource_attrs(printer, self)
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_string(" to ")
        printer.print_ssa_value(self.target)
        printer.print_string(f" : {short_type(self.source.type)}, "
                             f"{short_type(self.target.type)}")

    def verify_(self) -> None:
        if len(self.operands) != 2:
            raise VerifyException("datapath links exactly two endpoints")
        if self.source is self.target or (
                (a := resolve_endpoint(self.source)) is not None
                and a is resolve_endpoint(self.target)):
            raise VerifyException(f"{describe(self)}: can't link resource to itself")
        super().verify_()


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`yield %e0, %e1`: the exec units a group hands to its parent scope."""

    name = "ktdf_arch.yield"
    values = var_operand_def(ExecUnitType)
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(GroupOp)))
    assembly_format = "custom<Endpoints>($values) attr-dict"
    custom_directives = (Endpoints,)

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[list(values)])



@irdl_op_definition
class GroupOp(_ResourceOp):
    """`%e = group (@id)? {kind = "core"} share(%m) { ...; yield %u } -> exec_unit`."""

    name = "ktdf_arch.group"
    shared = var_operand_def(MemoryType)
    released = var_result_def(ExecUnitType)
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove())

    @classmethod
    def parse(cls, parser: Parser) -> GroupOp:
        """share() binds block arguments that shadow outer names, inside a prefix-free body."""
        start = parser.pos
        attrs = parse_resource_attrs(parser)
        parser.parse_keyword("share", " (a group lists the memories it captures: share(...))")
        names: list[Parser.Argument] = []
        shared: list[SSAValue] = []

        def capture() -> None:
            value, operand = check_endpoint(parser, (MemoryType,), "share")
            shared.append(value)
            names.append(Parser.Argument(operand.span, MemoryType()))

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, capture)
        saved, before = parser.ssa_values, set(parser.forward_ssa_references)
        parser.ssa_values = {}
        try:
            region = parser.parse_region(names)
        finally:
            parser.ssa_values = saved
        leaked = set(parser.forward_ssa_references) - before
        if leaked:
            parser.raise_error(
                f"group body uses '%{sorted(leaked)[0]}', which it neither defines nor "
                "captures with share(...)", start, start + 1)
        block = region.blocks.first
        if block is None:
            block = Block()
            region.add_block(block)
        if not isinstance(block.last_op, YieldOp):
            block.add_op(YieldOp())
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            results = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: parse_short_type(parser))
        return cls.create(operands=shared, result_types=results,  # type: ignore[return-value]
                          attributes=attrs, regions=[region])

    def print(self, printer: Printer) -> None:
        print_resource_attrs(printer, self)
        printer.print_string(" share(")
        for i, (value, arg) in enumerate(zip(self.operands, self.body.block.args,
                                             strict=False)):
            if i:
                printer.print_string(", ")
            printer._ssa_values[arg] = printer.print_ssa_value(value)  # shadow, as upstream
        printer.print_string(") ")
        print_body(printer, self.body)
        if self.results:
            printer.print_string(" -> ")
            printer.print_string(", ".join(short_type(r.type) for r in self.results))

    def verify_(self) -> None:
        block = self.body.block
        if len(block.args) != len(self.operands) or any(
                not isinstance(a.type, MemoryType) for a in block.args):
            raise VerifyException("a group has one memory block argument per shared memory")
        _check_children(self, (_ResourceOp, YieldOp))
        term = block.last_op
        n = len(term.operands) if isinstance(term, YieldOp) else 0
        if n != len(self.results):
            raise VerifyException(
                f"{describe(self)}: yield has {n} operand(s), but the group declares "
                f"{len(self.results)} result(s); yield exactly the exec units listed after '->'")
        super().verify_()


@irdl_op_definition
class PatternsOp(IRDLOperation):
    """`patterns ["pre_scheduling"] { pdl.pattern ... }`: device-specific rewrites."""

    name = "ktdf_arch.patterns"
    groups = prop_def(ArrayAttr[StringAttr], default_value=ArrayAttr([]))
    body = region_def()
    traits = lazy_traits_def(lambda: (IsolatedFromAbove(), NoTerminator(), HasParent(DeviceOp)))
    assembly_format = "custom<GroupNames>($groups) attr-dict-with-keyword custom<Body>($body)"
    custom_directives = (Body, GroupNames)

    @property
    def group_names(self) -> tuple[str, ...]:
        return tuple(g.data for g in self.groups.data)

    def verify_(self) -> None:
        for block in self.body.blocks:
            for child in block.ops:
                if child.name != "pdl.pattern":
                    raise VerifyException(f"expects child ops to be 'pdl.pattern', found "
                                          f"'{_op_name(child)}'")


@irdl_op_definition
class DeviceOp(IRDLOperation):
    """`ktdf_arch.device @name (attributes {...})? { body }` or `... import("file.mlir")`."""

    name = "ktdf_arch.device"
    sym_name = prop_def(StringAttr)
    import_path = opt_prop_def(StringAttr)
    version = opt_prop_def(IntegerAttr)
    body = region_def()
    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove(), NoTerminator())

    @property
    def is_imported(self) -> bool:
        return self.body.blocks.first is None

    @classmethod
    def parse(cls, parser: Parser) -> DeviceOp:
        """MLIR-style attributes (no `: i64`) and custom<GraphOrImport>: no xDSL format."""
        name = parser.parse_symbol_name()
        props: dict[str, Attribute] = {"sym_name": name}
        attrs: dict[str, Attribute] = {}
        if (d := parser.parse_optional_attr_dict_with_keyword()) is not None:
            attrs = dict(d.data)
        for inherent in ("version", "import_path"):  # upstream's inherent attributes
            if inherent in attrs:
                props[inherent] = attrs.pop(inherent)
        region = parser.parse_optional_region()
        if region is None:
            pos = parser.pos
            parser.parse_keyword("import", " or a device body '{' after the device name")
            if "import_path" in props:
                parser.raise_error("'import_path' given twice", pos, parser.pos)
            parser.parse_punctuation("(")
            props["import_path"] = StringAttr(parser.parse_str_literal("import path"))
            parser.parse_punctuation(")")
            region = Region()
        return cls.create(properties=props, attributes=attrs,  # type: ignore[return-value]
                          regions=[region])

    def print(self, printer: Printer) -> None:
        printer.print_string(" @")
        printer.print_identifier_or_string_literal(self.sym_name.data)
        attrs = dict(self.attributes)
        if self.version is not None:
            attrs = {"version": self.version, **attrs}
        if attrs:
            printer.print_string(" attributes ")
            print_dict(printer, attrs)
        if self.import_path is not None and self.is_imported:
            printer.print_string(" import(")
            printer.print_string_literal(self.import_path.data)
            printer.print_string(")")
        else:
            printer.print_string(" ")
            print_body(printer, self.body)

    def verify_(self) -> None:
        if self.is_imported and self.import_path is None:
            raise VerifyException(f"device @{self.sym_name.data} is empty: empty device "
                                  "requires 'import_path' (describe its resources in the body "
                                  "or write import(\"file.mlir\"))")
        if not self.is_imported and self.import_path is not None:
            raise VerifyException("non-empty device can't have 'import_path' attribute")
        if self.version is not None and intrinsics.as_i64(self.version) is None:
            raise VerifyException("attribute 'version' requires a 64-bit integer")
        if len(self.body.blocks) > 1:
            raise VerifyException("a device body is a single block")
        if not self.is_imported:
            _check_children(self, (_ResourceOp, PatternsOp))
        intrinsics.check_intrinsics(self.attributes, intrinsics.DEVICE)
        self._check_mapping()

    def _check_mapping(self) -> None:
        mapping = self.attributes.get("mem_space_mapping")
        if mapping is None:
            return
        if not isinstance(mapping, MapAttr):
            raise VerifyException("attribute 'mem_space_mapping' requires a #ktdf_arch.map<"
                                  "memory space = memory kind, ...>")
        if self.is_imported:
            return  # checked against the imported definition by arch_descriptions.model
        kinds = [op.kind for op in self.walk() if isinstance(op, MemoryOp)]
        for space, kind in mapping.items():
            if kind not in kinds:
                raise VerifyException(
                    f"mem_space_mapping maps {space} to {kind}, but the device has no memory "
                    f"of kind {kind} (memory kinds: "
                    + ", ".join(sorted({str(k) for k in kinds if k is not None})) + ")")


def verify_intrinsics(root: Operation) -> None:
    """Check the `ktdf_arch.*` attributes of every op outside the dialect (its resources check
    their own); raises a KtirDiagnostic located at the op."""
    for op in root.walk():
        if op.dialect_name() != "ktdf_arch" and any(
                k.startswith(intrinsics.PREFIX) for k in op.attributes):
            try:
                intrinsics.check_intrinsics(op.attributes, intrinsics.FOREIGN)
            except VerifyException as e:
                raise op_error(op, str(e)) from None


KtdfArch = Dialect(
    "ktdf_arch",
    [DeviceOp, MemoryOp, ExecUnitOp, SwitchOp, DatapathOp, GroupOp, YieldOp, PatternsOp],
    [MemoryType, ExecUnitType, PortType, MapAttr],
)
