"""`--inputs` .npz files are read in place (mapped, each stored member an array over the
file's bytes): the arrays are exactly numpy.load's, for stored and compressed archives,
Fortran order, byte order, scalars and empty arrays; and a fp16 input for an f16 buffer runs
bit for bit as its float32 equal."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ktir_tools.common import read_npz

ARRAYS = {
    "h": np.arange(-6, 6, dtype=np.float16).reshape(3, 4) / np.float16(3),
    "f": np.linspace(-1, 1, 10, dtype=np.float32),
    "big_endian": np.arange(5, dtype=">i4"),
    "fortran": np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4)),
    "scalar": np.float32(2.5),
    "empty": np.zeros((0, 4), np.float16),
    "nan": np.array([np.nan, -np.inf, 65504], np.float16),
}


@pytest.mark.parametrize("save", [np.savez, np.savez_compressed])
def test_the_arrays_are_numpys(tmp_path: Path, save) -> None:
    path = tmp_path / "in.npz"
    save(path, **ARRAYS)
    got = read_npz(path)
    want = np.load(path)
    assert sorted(got) == sorted(want.files)
    for k in want.files:
        assert got[k].dtype == want[k].dtype, k
        assert got[k].shape == want[k].shape, k
        assert got[k].tobytes() == want[k].tobytes(), k
    if save is np.savez:  # read in place: no copy of the file
        assert not got["h"].flags.writeable
        assert not got["h"].flags.owndata


def test_an_fp16_input_runs_as_its_float32_equal(tmp_path: Path) -> None:
    """The fp16 fast path (no check, rounding or re-encoding) against the general one."""
    from ktir.interpreter.runner import run_kernel

    kernel = Path(__file__).resolve().parents[2] / "examples" / "kernels" / "add_96x64.mlir"
    rng = np.random.default_rng(3)
    a = rng.standard_normal((96, 64)).astype(np.float16)
    b = rng.standard_normal((96, 64)).astype(np.float16)
    b[0, :4] = [np.nan, np.inf, -np.inf, 65504]
    fast = run_kernel(kernel, inputs={"A": a, "B": b})
    slow = run_kernel(kernel, inputs={"A": a.astype(np.float32), "B": b.astype(np.float32)})
    assert fast.outputs.keys() == slow.outputs.keys()
    for k in fast.outputs:
        assert fast.outputs[k].tobytes() == slow.outputs[k].tobytes()
    assert fast.device_bytes.tobytes() == slow.device_bytes.tobytes()


def test_savez_writes_numpys_members(tmp_path: Path) -> None:
    """`ktir_tools.common.savez` (every `--out`) against numpy.savez: the same member names
    and member bytes, for C-ordered, strided, Fortran, byte-swapped, 0-d, empty and boolean
    arrays, and a large one."""
    from ktir_tools.common import savez

    arrays = dict(ARRAYS)
    arrays.update(strided=np.arange(40, dtype=np.float16)[::3], flag=np.array([True, False]),
                  large=np.arange(1 << 22, dtype=np.float16).reshape(1024, -1))
    mine, theirs = tmp_path / "mine.npz", tmp_path / "theirs.npz"
    with open(mine, "wb") as f:
        savez(f, arrays)
    np.savez(theirs, **arrays)
    import zipfile

    with zipfile.ZipFile(mine) as a, zipfile.ZipFile(theirs) as b:
        assert a.namelist() == b.namelist()
        for name in b.namelist():
            assert a.read(name) == b.read(name), name
            assert a.getinfo(name).compress_type == zipfile.ZIP_STORED
    got = read_npz(mine)
    for k, v in arrays.items():
        assert got[k].dtype == np.asarray(v).dtype and got[k].tobytes() == np.asarray(v).tobytes()
