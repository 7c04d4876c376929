"""Verification of the `ktdf_arch.*` intrinsic properties and of the features they carry.

Upstream verifies these through a dialect hook on every operation; xDSL has no such hook, so
the resource ops of `ktdf_arch.py` call `check_intrinsics` from their verifiers and
`verify_intrinsics(op)` checks any other operation (a `func.func` carrying
`ktdf_arch.maps_to`, an op carrying feature requirements). The project's timing attributes
(shared/spec/arch.md §8) are part of the recognised set.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, TypeAttribute
from xdsl.utils.exceptions import VerifyException

from ktir.diagnostics import register_attribute_verifier

PREFIX = "ktdf_arch."
FEATURE_PREFIX = "ktdf_arch.feature."
FEATURES = ("compute", "load", "store", "simd", "matrix", "queue")
LATENCY_CLASSES = ("simple", "mul", "fma", "reduce", "divide", "transcendental", "opaque")

# Roles an operation plays for intrinsic checks.
DEVICE, MEMORY, EXEC_UNIT, LINK, OTHER_ARCH, FOREIGN = (
    "device", "memory", "exec_unit", "link", "other", "foreign")
_ROLE_WORDS = {DEVICE: "devices", MEMORY: "memories", EXEC_UNIT: "execution units",
               LINK: "links"}


def as_i64(attr: Attribute | None) -> int | None:
    """The value of a 64-bit integer attribute (or None when it is not one)."""
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType) \
            and attr.type.width.data == 64:
        return attr.value.data
    return None


def map_items(attr: Attribute | None) -> list[tuple[Attribute, Attribute]] | None:
    """The (key, value) pairs of a `#ktdf_arch.map` (None for any other attribute)."""
    if getattr(attr, "name", None) == "ktdf_arch.map":
        return list(zip(attr.keys.data, attr.values.data, strict=True))  # type: ignore[attr-defined]
    return None


def key_text(key: Attribute) -> str:
    if isinstance(key, StringAttr):
        return f'"{key.data}"'
    return str(key)


class _Fail(VerifyException):
    pass


def _int(value: Attribute | None, what: str, minimum: int) -> int:
    v = as_i64(value)
    if v is None:
        raise _Fail(f"{what} requires 64-bit integer")
    if v < minimum:
        bound = "> 0" if minimum == 1 else f">= {minimum}"
        raise _Fail(f"{what} must be {bound}, got {v}")
    return v


def _unit(value: Attribute, what: str) -> None:
    if not isinstance(value, UnitAttr):
        raise _Fail(f"attribute '{what}' requires unit")


def _fields(value: DictionaryAttr, allowed: tuple[str, ...], feature: str) -> None:
    for name in value.data:
        if name not in allowed:
            raise _Fail(f"unknown field '{name}' of {feature} (expected one of: "
                        + ", ".join(allowed) + ")")


def _int_map(value: Attribute, what: str, key_kind: str, minimum: int,
             keys: tuple[str, ...] | None = None) -> None:
    items = map_items(value)
    if items is None:
        raise _Fail(f"attribute '{what}' requires map from {key_kind} to 64-bit integer "
                    f"(#ktdf_arch.map<...>)")
    for key, v in items:
        if key_kind == "type" and not isinstance(key, TypeAttribute):
            raise _Fail(f"attribute '{what}' requires map from type to 64-bit integer, "
                        f"got key {key_text(key)}")
        if keys is not None and (not isinstance(key, StringAttr) or key.data not in keys):
            raise _Fail(f"unknown key {key_text(key)} in '{what}' (expected one of: "
                        + ", ".join(keys) + ")")
        _int(v, f"'{what}[{key_text(key)}]'", minimum)


def _check_load_store(value: Attribute, feature: str) -> None:
    if isinstance(value, UnitAttr):
        return
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires unit or dictionary attribute")
    _fields(value, ("word_size", "access_granularity"), feature)
    if (ws := value.data.get("word_size")) is not None:
        if map_items(ws) is None:
            raise _Fail("attribute 'word_size' requires map from attribute to 64-bit integer")
        _int_map(ws, "word_size", "attribute", 1)
    if (ag := value.data.get("access_granularity")) is not None:
        items = map_items(ag)
        if items is None:
            raise _Fail("attribute 'access_granularity' requires map from attribute to "
                        "array of dictionary attributes")
        for space, accesses in items:
            where = f"attribute 'access_granularity[{key_text(space)}]'"
            if not isinstance(accesses, ArrayAttr) or not all(
                    isinstance(a, DictionaryAttr) for a in accesses.data):
                raise _Fail(f"{where} requires an array of dictionaries")
            for access in accesses.data:
                assert isinstance(access, DictionaryAttr)
                _fields(access, ("size_in_words", "align_in_words"), "access_granularity")
                _int(access.data.get("size_in_words"), f"{where} 'size_in_words'", 1)
                if "align_in_words" in access.data:
                    _int(access.data["align_in_words"], f"{where} 'align_in_words'", 1)


def _check_simd(value: Attribute, feature: str) -> None:
    if isinstance(value, UnitAttr):
        return
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires unit or dictionary attribute")
    _fields(value, ("lanes", "splat", "zero_pad"), feature)
    for flag in ("splat", "zero_pad"):
        if flag in value.data:
            _unit(value.data[flag], flag)
    if (lanes := value.data.get("lanes")) is not None:
        _int_map(lanes, "lanes", "type", 1)


MATRIX_FIELDS = ("rows", "cols", "depth", "inputs", "accumulator", "macs_per_cycle", "latency")
_MATRIX_INPUTS = ("f16", "bf16")


def _check_matrix(value: Attribute, feature: str) -> None:
    """A matrix engine (this project's extension): a `rows` x `cols` array of MACs consuming
    `depth` steps of k per pass, `macs_per_cycle` of its MACs a cycle (at most all of them),
    reading `inputs` (f16, bf16) and accumulating in the wider float `accumulator`."""
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires dictionary attribute {rows, cols, depth, inputs, accumulator, "
                    "macs_per_cycle, latency}")
    _fields(value, MATRIX_FIELDS, feature)
    for name in MATRIX_FIELDS:
        if name not in value.data:
            raise _Fail(f"is missing field '{name}'")
    shape = [_int(value.data[n], f"'{n}'", 1) for n in ("rows", "cols", "depth")]
    rate = _int(value.data["macs_per_cycle"], "'macs_per_cycle'", 1)
    if rate > math.prod(shape):
        raise _Fail(f"'macs_per_cycle' ({rate}) exceeds the MACs of the array (rows x cols x "
                    f"depth = {math.prod(shape)})")
    _int(value.data["latency"], "'latency'", 0)
    inputs = value.data["inputs"]
    if not isinstance(inputs, ArrayAttr) or not inputs.data or not all(
            str(t) in _MATRIX_INPUTS for t in inputs.data):
        raise _Fail("field 'inputs' requires a non-empty array of element types among "
                    + ", ".join(_MATRIX_INPUTS))
    acc = value.data["accumulator"]
    if str(acc) not in ("f32",):
        raise _Fail(f"field 'accumulator' must be f32 (wider than every input type), got {acc}")


def _check_queue(value: Attribute, feature: str) -> None:
    if isinstance(value, UnitAttr):
        return
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires unit or dictionary attribute")
    _fields(value, ("depth", "size", "ordered"), feature)
    if "ordered" in value.data:
        _unit(value.data["ordered"], "ordered")
    for name in ("size", "depth"):
        if name in value.data:
            _int(value.data[name], f"'{name}'", 1)


_FEATURE_CHECKS: dict[str, tuple[tuple[str, ...], Callable[[Attribute, str], None] | None]] = {
    "compute": ((EXEC_UNIT,), None),
    "load": ((EXEC_UNIT,), _check_load_store),
    "store": ((EXEC_UNIT,), _check_load_store),
    "simd": ((EXEC_UNIT,), _check_simd),
    "matrix": ((EXEC_UNIT,), _check_matrix),
    "queue": ((LINK,), _check_queue),
}


def _is_feature_typo(name: str) -> bool:
    head = name.split(".", 1)[0]
    return "." not in name or head in ("ktdf_arch", "feature")


def check_features(value: Attribute, role: str) -> None:
    if not isinstance(value, DictionaryAttr):
        raise _Fail("requires dictionary attribute")
    for name, feature_value in value.data.items():
        short = name.removeprefix(FEATURE_PREFIX)
        if not name.startswith(FEATURE_PREFIX) or short not in _FEATURE_CHECKS:
            if not _is_feature_typo(name):
                continue  # a feature of another dialect
            raise VerifyException(f"unrecognized 'ktdf_arch' feature: {name} (expected one of: "
                        + ", ".join(FEATURE_PREFIX + f for f in FEATURES) + ")")
        roles, check = _FEATURE_CHECKS[short]
        if role not in (FOREIGN, *roles):
            raise VerifyException(f"'{name}' intrinsic only valid on {_ROLE_WORDS[roles[0]]}")
        if check is not None:
            try:
                check(feature_value, name)
            except _Fail as e:
                raise VerifyException(f"'{name}' intrinsic {e}") from None


def _granularity(value: Attribute) -> None:
    if not (isinstance(value, DenseArrayBase) and isinstance(value.elt_type, IntegerType)
            and value.elt_type.width.data == 64):
        raise _Fail("requires dense 64-bit integer array attribute")
    seen: set[int] = set()
    for v in value.get_values():
        if v < 0:
            raise _Fail(f"granularity must be >= 0, got {v}")
        if v in seen:
            raise _Fail(f"repeated granularity ({v})")
        seen.add(v)


def _clock(value: Attribute) -> None:
    if isinstance(value, FloatAttr):
        v = float(value.value.data)
    elif (i := as_i64(value)) is not None:
        v = float(i)
    else:
        raise _Fail("requires a floating-point attribute (GHz)")
    if not v > 0 or not math.isfinite(v):
        raise _Fail(f"value must be a finite number > 0, got {v}")


def _positive(value: Attribute) -> None:
    _int(value, "value", 1)


def _non_negative(value: Attribute) -> None:
    _int(value, "value", 0)


def _moves_data(attributes: Mapping[str, Attribute]) -> None:
    """`max_outstanding` counts transfers: only a unit with a load or store feature makes
    them."""
    features = attributes.get(PREFIX + "features")
    names = features.data if isinstance(features, DictionaryAttr) else {}
    if not any(FEATURE_PREFIX + f in names for f in ("load", "store")):
        raise VerifyException(f"'{PREFIX}max_outstanding' intrinsic only valid on execution "
                              "units that move data (with ktdf_arch.feature.load or "
                              "ktdf_arch.feature.store)")


def _overlaps(value: Attribute) -> None:
    if not isinstance(value, ArrayAttr):
        raise _Fail("requires array attribute")


# name -> (roles it is valid on, check of the value)
_INTRINSICS: dict[str, tuple[tuple[str, ...], Callable[[Attribute], None]]] = {
    "transfer_granularity": ((LINK,), _granularity),
    "bandwidth": ((LINK,), _positive),
    "overlaps": ((DEVICE, MEMORY, EXEC_UNIT, LINK, OTHER_ARCH, FOREIGN), _overlaps),
    "clock_ghz": ((DEVICE,), _clock),
    "signal_latency": ((DEVICE,), _non_negative),
    "bytes_per_cycle": ((LINK, MEMORY), _positive),
    "latency": ((LINK, MEMORY), _non_negative),
    "lanes_per_cycle": ((EXEC_UNIT,), lambda v: _int_map(v, "lanes_per_cycle", "type", 1)),
    "op_latency": ((EXEC_UNIT,),
                   lambda v: _int_map(v, "op_latency", "class", 1, LATENCY_CLASSES)),
    "op_interval": ((EXEC_UNIT,),
                    lambda v: _int_map(v, "op_interval", "class", 1, LATENCY_CLASSES)),
    "issue_cycles": ((EXEC_UNIT,), _non_negative),
    "max_outstanding": ((EXEC_UNIT,), _positive),
}
RECOGNISED = ("features", "maps_to", *_INTRINSICS)


def check_intrinsics(attributes: Mapping[str, Attribute], role: str) -> None:
    """Check every `ktdf_arch.*` attribute of an op playing `role`; raise VerifyException."""
    for name, value in attributes.items():
        if not name.startswith(PREFIX):
            continue
        short = name.removeprefix(PREFIX)
        if short == "features":
            try:
                check_features(value, role)
            except _Fail as e:
                raise VerifyException(f"'{name}' intrinsic {e}") from None
            continue
        if short == "maps_to":
            if role != FOREIGN:
                raise VerifyException(f"'{name}' intrinsic only valid on mappable ops "
                                      "(operations outside the ktdf_arch dialect)")
            continue
        if short not in _INTRINSICS:
            raise VerifyException(f"unrecognized 'ktdf_arch' intrinsic: {name} (expected one "
                                  "of: " + ", ".join(PREFIX + r for r in RECOGNISED) + ")")
        roles, check = _INTRINSICS[short]
        if role not in roles:
            raise VerifyException(f"'{name}' intrinsic only valid on "
                                  + " and ".join(_ROLE_WORDS[r] for r in roles if r in
                                                 _ROLE_WORDS))
        try:
            check(value)
        except _Fail as e:
            raise VerifyException(f"'{name}' intrinsic {e}") from None
        if short == "max_outstanding":
            _moves_data(attributes)


def _verify_foreign(op) -> None:
    check_intrinsics(op.attributes, FOREIGN)


# Loading the dialect registers the check of `ktdf_arch.*` attributes on ops of other dialects.
register_attribute_verifier("ktdf_arch", _verify_foreign)
