"""Writes --inputs files for add_96x64.mlir (A, B: 96x64 f16) into the folder given, one per
way of being wrong: python bad_inputs.py DIR."""

import io
import sys
import zipfile
from pathlib import Path

import numpy as np

out = Path(sys.argv[1])
a = np.ones((96, 64), np.float16)


def npz(name: str, **arrays) -> None:
    np.savez(out / f"{name}.npz", **arrays)


good = io.BytesIO()
np.savez(good, A=a, B=a)
(out / "empty.npz").write_bytes(b"")
(out / "truncated.npz").write_bytes(good.getvalue()[:1000])
np.save(out / "one.npy", a)
(out / "one.npy").rename(out / "npy.npz")
npz("strings", A=np.full((96, 64), "x"), B=a)
npz("structured", A=np.zeros((96, 64), [("x", "f2"), ("y", "i4")]), B=a)
npz("transposed", A=np.ones((64, 96), np.float16), B=a)
npz("bool", A=np.ones((96, 64), bool), B=a)
npz("complex", A=np.ones((96, 64), np.complex64), B=a)
npz("datetime", A=np.zeros((96, 64), "datetime64[s]"), B=a)
npz("overflow", A=np.full((96, 64), 1e6, np.float32), B=a)
npz("unknown", A=a, B=a, Z=a)
header = io.BytesIO()
np.save(header, np.zeros(4, np.float16))
with zipfile.ZipFile(out / "huge.npz", "w") as z:
    z.writestr("A.npy", header.getvalue().replace(b"(4,)", b"(100000000000,)"))
