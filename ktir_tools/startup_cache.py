"""Start-up work a `ktir` command would otherwise redo on every run: the dataclass methods
that xDSL's class definitions compile from generated source, and the assembly formats of ops
the kernel never spells.

- `cache_dataclass_code()`: Python 3.11's `dataclasses` builds `__init__`, `__repr__`, `__eq__`,
  `__hash__`, `__setattr__`, ... of every dataclass by formatting their source and compiling
  it (`dataclasses._create_fn`); xDSL declares ~290 dataclasses (every attribute, op
  definition and custom directive), ~1,300 such functions, ~0.08 CPU s of compiling in each
  `ktir interpret` (a fifth of its start-up). The code objects depend only on that source
  text, so they are kept as `__pycache__` keeps a module's: marshalled in a file next to this
  module's bytecode (`importlib.util.cache_from_source`, so `PYTHONPYCACHEPREFIX` is
  honoured) behind the bytecode format's magic number, keyed by the text, written only
  when this run compiled a text the file lacked and bytecode may be written (not under
  `PYTHONDONTWRITEBYTECODE`). The functions are the ones `exec` would have made: same
  code, same globals, same closure values.
- `defer_assembly_formats()`: xDSL compiles each op's `assembly_format` into a parser and
  printer when the op's class is defined (`FormatProgram.from_str`, ~0.05 CPU s over the
  ~200 ops of the dialects a kernel loads); deferred, an op's format is compiled the first time
  that op is parsed or printed. A malformed format then fails at first use instead of at
  import, which is why only the command-line process defers (tests and library users keep
  xDSL's eager definitions, so a bad format still fails the test suite at import).

`install()` does both (unless `KTIR_NO_STARTUP_CACHE=1`); `ktir_tools.process.startup()` calls it in the program's own process
before a command's heavy imports. Nothing here changes what any op or dataclass does.
"""

from __future__ import annotations

import atexit
import marshal
import os
import sys
from typing import Any

_CODE_VERSION = (3, 11)  # the `_create_fn` reproduced below is 3.11's
_MAX_ENTRIES = 20_000  # past this the file keeps only what the last run used
_installed = {"dataclasses": False, "formats": False}
_stats = {"compiled": 0, "cached": 0}  # dataclass functions compiled / served from the cache


def _cache_file() -> str | None:
    from importlib.util import cache_from_source

    try:
        pyc = cache_from_source(__file__)
    except (NotImplementedError, ValueError):  # no cache tag: bytecode is not cached either
        return None
    return pyc.removesuffix(".pyc") + ".dataclass-code.marshal"


def _magic() -> bytes:
    from importlib.util import MAGIC_NUMBER

    return MAGIC_NUMBER  # the bytecode format, as a .pyc file states it


def _load(path: str | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        with open(path, "rb") as f:
            raw = f.read()
        magic = _magic()
        if not raw.startswith(magic):  # another bytecode format (or not this file at all)
            return {}
        data = marshal.loads(raw[len(magic):])
    except (OSError, EOFError, ValueError, TypeError):  # missing, unreadable or corrupt
        return {}
    code_type = type(_load.__code__)
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, code_type) for k, v in data.items()):
        return {}
    return data


def cache_dataclass_code(path: str | None = None) -> bool:
    """Serve `dataclasses`' generated methods from compiled code kept across runs (`path`:
    the cache file, default next to this module's bytecode). False (nothing changed) on a
    Python whose `dataclasses` builds them differently."""
    import dataclasses

    if _installed["dataclasses"]:
        return True
    original = getattr(dataclasses, "_create_fn", None)
    if sys.version_info[:2] != _CODE_VERSION or original is None:
        return False
    path = path or _cache_file()
    codes = _load(path)
    used: set[str] = set()
    fresh: list[bool] = []
    missing = dataclasses.MISSING
    module_globals = vars(dataclasses)

    # 3.11's `dataclasses._create_fn`, with the compile step looked up first
    def _create_fn(name: str, args: list[str], body: list[str], *, globals: Any = None,
                   locals: Any = None, return_type: Any = missing) -> Any:
        if locals is None:
            locals = {}
        return_annotation = ""
        if return_type is not missing:
            locals["_return_type"] = return_type
            return_annotation = "->_return_type"
        args_text = ",".join(args)
        body_text = "\n".join(f"  {b}" for b in body)
        txt = f" def {name}({args_text}){return_annotation}:\n{body_text}"
        local_vars = ", ".join(locals.keys())
        txt = f"def __create_fn__({local_vars}):\n{txt}\n return {name}"
        code = codes.get(txt)
        if code is None:
            # what exec(txt) compiles: the file name "<string>", no inherited flags
            # (dataclasses.py has no __future__ imports)
            code = codes[txt] = compile(txt, "<string>", "exec", dont_inherit=True)
            fresh.append(True)
            _stats["compiled"] += 1
        elif txt not in used:
            _stats["cached"] += 1
        used.add(txt)
        ns: dict[str, Any] = {}
        exec(code, module_globals if globals is None else globals, ns)
        return ns["__create_fn__"](**locals)

    def save() -> None:
        if not fresh or path is None or sys.dont_write_bytecode:
            return
        keep = codes if len(codes) <= _MAX_ENTRIES else {k: codes[k] for k in used}
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(_magic() + marshal.dumps(keep))
            os.replace(tmp, path)  # atomic: a concurrent reader sees the old or the new file
        except OSError:  # a read-only install: no cache, as for bytecode
            try:
                os.unlink(tmp)
            except OSError:
                pass

    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]
    atexit.register(save)
    _installed["dataclasses"] = True
    return True


def defer_assembly_formats() -> None:
    """Compile each op's declarative assembly format when the op is first parsed or printed,
    not when its class is defined (affects op classes defined after this call)."""
    if _installed["formats"]:
        return
    import xdsl.irdl.operations as operations

    eager = operations.get_accessors_from_op_def

    def get_accessors_from_op_def(op_def: Any, custom_verify: Any) -> dict[str, Any]:
        fmt = op_def.assembly_format
        if fmt is None:
            return eager(op_def, custom_verify)
        op_def.assembly_format = None  # everything else as xDSL builds it
        try:
            attrs = eager(op_def, custom_verify)
        finally:
            op_def.assembly_format = fmt
        program: list[Any] = []

        def compiled() -> Any:
            if not program:
                from xdsl.irdl.declarative_assembly_format import FormatProgram
                from xdsl.utils.exceptions import ParseError, PyRDLOpDefinitionError

                try:
                    program.append(FormatProgram.from_str(fmt, op_def))
                except ParseError as e:  # as xDSL raises it at class definition
                    raise PyRDLOpDefinitionError(
                        "Error during the parsing of the assembly format: ", e.args) from e
            return program[0]

        def parse_with_format(cls: Any, parser: Any) -> Any:
            return compiled().parse(parser, cls)

        def print_with_format(self: Any, printer: Any) -> Any:
            return compiled().print(printer, self)

        attrs["parse"] = classmethod(parse_with_format)
        attrs["print"] = print_with_format
        return attrs

    operations.get_accessors_from_op_def = get_accessors_from_op_def
    _installed["formats"] = True


def stats() -> dict[str, int]:
    """How many dataclass functions this process compiled, and how many distinct ones it took
    from the cache."""
    return dict(_stats)


def install() -> None:
    """Both, for the rest of this process; neither with `KTIR_NO_STARTUP_CACHE=1` (xDSL's and
    the standard library's own behaviour, to rule these out when something looks wrong)."""
    if os.environ.get("KTIR_NO_STARTUP_CACHE", "") not in ("", "0"):
        return
    cache_dataclass_code()
    defer_assembly_formats()
