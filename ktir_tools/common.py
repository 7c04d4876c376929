"""What several `ktir` subcommands share: the error exit and the `--arg` / `--inputs` options.

Not a subcommand (only `cli_<name>.py` modules are); heavy imports stay inside the functions.
"""

from __future__ import annotations

import io
import math
import os
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer


def fail(message: str) -> typer.Exit:
    """Print `error: <message>` on stderr and return the Exit(1) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(1)


def table(title: str, headers: list[str], rows: list[list[str]]) -> list[str]:
    """The lines of a titled table with left-aligned columns (`ktir arch show`, `ktir
    spyrecode show`)."""
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    line = lambda r: "  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True))  # noqa: E731
    return ["", title, line(headers).rstrip(), *(line(r).rstrip() for r in rows)]


def check_tolerances(rtol: float, atol: float) -> None:
    """--rtol / --atol: finite and not negative (nan or inf would pass every check)."""
    for name, v in (("--rtol", rtol), ("--atol", atol)):
        if not math.isfinite(v) or v < 0:
            raise fail(f"{name} must be a finite number >= 0, got {v}")


def output_file(text: str | Path | None, option: str) -> Path | None:
    """Check, before any work, that `option PATH` can name a file to write: not a folder
    (nor a name ending in a separator: the options take text, as a Path would drop it), in
    a folder that exists."""
    if text is None:
        return None
    if os.path.isdir(text) or str(text).endswith(("/", os.sep)):  # os.path: False, not
        raise fail(f"{option} '{text}' is a directory: give a file name")  # OSError, on odd names
    path = Path(text)
    parent = path.parent
    if not os.path.isdir(parent):
        raise fail(f"{option} '{path}': the folder '{parent}' does not exist")
    return path


def write_file(path: Path, write: Callable[[Any], None], option: str, binary: bool = True
               ) -> None:
    """`write(f)` on PATH opened for writing (exactly PATH: no suffix is added); an OS error
    (no permission, a full disk) is a one-line error naming the option."""
    try:
        with open(path, "wb" if binary else "w") as f:
            write(f)
    except OSError as e:
        raise fail(f"cannot write {option} '{path}': {e.strerror or e}") from None


def write_npz(path: Path, arrays: dict[str, Any], option: str = "--out") -> None:
    write_file(path, lambda f: savez(f, arrays), option)


def savez(f: Any, arrays: dict[str, Any]) -> None:
    """`numpy.savez(f, **arrays)`, member for member the same bytes, without its copy: savez
    hands each array to the archive in 16 MiB pieces made by `tobytes` (a second pass over
    a 42 MB output, ~10 ms); a C-ordered array of numbers is written from its own buffer
    here (the archive's CRC-32 and the file write read it in place)."""
    import numpy as np
    from numpy.lib import format as npformat

    with zipfile.ZipFile(f, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as z:
        for name, value in arrays.items():
            arr = np.asanyarray(value)
            with z.open(name + ".npy", "w", force_zip64=True) as member:
                if arr.dtype.hasobject or not arr.flags.c_contiguous or type(arr) is not \
                        np.ndarray:
                    npformat.write_array(member, arr)
                    continue
                try:  # the header numpy writes (version 1.0 whenever it fits)
                    header = io.BytesIO()
                    npformat.write_array_header_1_0(header, npformat.header_data_from_array_1_0(
                        arr))
                except ValueError:
                    npformat.write_array(member, arr)
                    continue
                member.write(header.getvalue())
                member.write(memoryview(arr.reshape(-1).view(np.uint8)))


def _read_array_file(path: Path, option: str, magic: bytes) -> bytes:
    """The bytes of an array file: its first bytes only when they are not `magic` (an endless
    device stops there), else at most `--max-buffer-bytes` of them (an .npz or .npy holds
    buffers, larger than any text input)."""
    from ktir.limits import read_limited

    with open(path, "rb") as f:
        head = f.read(8)
    return head if not head.startswith(magic) else read_limited(path, option, "buffer_bytes")


def read_npy(path: Path, option: str) -> Any:
    """The array of an .npy file given to `option` (checked like an --inputs member)."""
    if os.path.isdir(path):
        raise fail(f"{option} '{path}' is a directory, not an .npy file")
    try:
        data = _read_array_file(path, option, b"\x93NUMPY")
    except OSError as e:
        raise fail(f"cannot read {option} '{path}': {e.strerror}") from None
    if not data.startswith(b"\x93NUMPY"):
        raise fail(f"{option} '{path}' is not an .npy file: write it with numpy.save")
    try:
        return _npy_array(io.BytesIO(data), path, "the array", option)
    except (OSError, ValueError, EOFError) as e:
        raise fail(f"cannot read {option} '{path}': {_first_line(e)}") from None


def read_npz(path: Path) -> dict[str, Any]:
    """The arrays of an `--inputs` .npz file, by name (numbers: what numpy reads as arrays;
    strings, bytes, objects and records are refused, as are arrays too large to hold)."""
    if os.path.isdir(path):
        raise fail(f"--inputs '{path}' is a directory, not an .npz file")
    try:
        data = _mapped(path) or _read_array_file(path, "--inputs", b"PK")
    except OSError as e:
        raise fail(f"cannot read --inputs '{path}': {e.strerror}") from None
    if data[:2] != b"PK":
        what = "empty" if not data else "an .npy file (one array)" if \
            data[:6] == b"\x93NUMPY" else "not an .npz file (a zip of .npy arrays)"
        raise fail(f"--inputs '{path}' is {what}: write it with numpy.savez(path, NAME=array, "
                   "...)")
    try:
        return _npz_arrays(path, data)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, NotImplementedError) as e:
        raise fail(f"cannot read --inputs '{path}': {_first_line(e)}") from None


def _dtype_name(dtype: Any) -> str:
    kinds = {"U": "string", "S": "bytes", "O": "Python object", "V": "record", "M": "datetime",
             "m": "timedelta"}
    return f"{kinds.get(dtype.kind, 'unknown')} ({dtype})"


def _first_line(e: BaseException) -> str:
    text = str(e).strip().split("\n")[0] or type(e).__name__
    return text[:200]


def _mapped(path: Path) -> Any:
    """A regular file within --max-buffer-bytes (an .npz holds buffers), mapped read-only
    into memory (its arrays are then read in place, without copying the file); None for an
    empty or special file (a pipe, a device: read to the limit instead). Raises
    KtirDiagnostic past the limit."""
    import mmap

    from ktir.limits import check_file_size

    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
            return None
        check_file_size(path, st.st_size, "--inputs", "buffer_bytes")
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


class _MapFile:
    """A mapped file as the file object zipfile reads (mmap lacks `seekable`)."""

    def __init__(self, m: Any) -> None:
        self._m = m

    def seekable(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._m, name)


def _npz_arrays(path: Path, data: Any) -> dict[str, Any]:
    """Each member's header first (dtype and size checked before anything is allocated).
    `data`: the file's bytes, or the file mapped into memory."""
    out: dict[str, Any] = {}
    with zipfile.ZipFile(io.BytesIO(data) if isinstance(data, bytes) else _MapFile(data)) as z:
        for info in z.infolist():
            name = info.filename.removesuffix(".npy")
            with z.open(info) as f:
                out[name] = _npy_array(f, path, f"array '{name}'", "--inputs",
                                       _stored_at(data, info))
    return out


def _stored_at(data: Any, info: zipfile.ZipInfo) -> tuple[Any, int] | None:
    """(data, offset of the member's bytes in it) for a member stored uncompressed (what
    numpy.savez writes), so that its array can be read in place; None otherwise."""
    import struct

    h = info.header_offset
    if info.compress_type != zipfile.ZIP_STORED or h + 30 > len(data) or \
            data[h:h + 4] != b"PK\x03\x04":
        return None
    name_len, extra_len = struct.unpack_from("<HH", data, h + 26)
    start = h + 30 + name_len + extra_len
    return (data, start) if start + info.file_size <= len(data) else None


def _npy_array(f: Any, path: Path, what: str, option: str,
               stored: tuple[Any, int] | None = None) -> Any:
    """One .npy stream: its header checked (numbers only, within the buffer limit) before
    the data is read. `stored`: the bytes the stream reads, in place (`_stored_at`), for a
    read-only array over them instead of a copy."""
    import numpy as np
    from numpy.lib import format as npformat

    from ktir.limits import over

    version = npformat.read_magic(f)
    shape, fortran, dtype = (npformat.read_array_header_1_0(f) if version == (1, 0)
                             else npformat.read_array_header_2_0(f))
    if dtype.kind not in "biufc" or dtype.fields is not None:
        raise fail(f"{option} '{path}': {what} holds {_dtype_name(dtype)} values, not numbers")
    count = math.prod(shape)
    if (msg := over("buffer_bytes", count * dtype.itemsize,
                    f"{what} ({'x'.join(map(str, shape)) or 'scalar'} {dtype})")) is not None:
        raise fail(f"{option} '{path}': {msg}")
    if stored is not None and not fortran and count:
        data, start = stored
        offset = start + f.tell()  # past the .npy header
        if offset + count * dtype.itemsize <= len(data):
            return np.frombuffer(data, dtype, count, offset).reshape(shape)
    f.seek(0)
    return np.lib.format.read_array(f, allow_pickle=False)


def parse_args(items: list[str]) -> dict[str, str]:
    """`--arg NAME=VALUE` options as a dict."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise fail(f"--arg expects NAME=VALUE or NAME=SHAPExTYPE, got '{item}'")
        out[name.strip()] = value.strip()
    return out
