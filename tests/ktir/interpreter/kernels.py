"""Test helpers: tiny kernels around a snippet of IR, run through the interpreter."""

from __future__ import annotations

from typing import Any

import numpy as np

from ktir.context import parse_module
from ktir.interpreter import run_kernel

_TEMPLATE = """
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + {xm1} >= 0, d1 >= 0, -d1 + {xn1} >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + {ym1} >= 0, d1 >= 0, -d1 + {yn1} >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%X: index, %Y: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [{xm}, {xn}], strides: [{xn}, 1] {{coordinate_set = #xs, memory_space = #ktdp.memory_space<global>}} : memref<{xm}x{xn}x{xt}>
  %Yv = ktdp.construct_memory_view %Y, sizes: [{ym}, {yn}], strides: [{yn}, 1] {{coordinate_set = #ys, memory_space = #ktdp.memory_space<global>}} : memref<{ym}x{yn}x{yt}>
  %xa = ktdp.construct_access_tile %Xv[%c0, %c0] {{access_tile_order = #id, access_tile_set = #xs}} : memref<{xm}x{xn}x{xt}> -> !ktdp.access_tile<{xm}x{xn}xindex>
  %x = ktdp.load %xa : !ktdp.access_tile<{xm}x{xn}xindex> -> tensor<{xm}x{xn}x{xt}>
{body}
  %ya = ktdp.construct_access_tile %Yv[%c0, %c0] {{access_tile_order = #id, access_tile_set = #ys}} : memref<{ym}x{yn}x{yt}> -> !ktdp.access_tile<{ym}x{yn}xindex>
  ktdp.store %y, %ya : tensor<{ym}x{yn}x{yt}>, !ktdp.access_tile<{ym}x{yn}xindex>
  return
}}
"""


def snippet_kernel(body: str, x: tuple[int, int, str], y: tuple[int, int, str]) -> str:
    """A one-tile kernel: `%x` is loaded from X (shape/type `x`); `body` must define `%y`
    (shape/type `y`), which is stored to Y."""
    return _TEMPLATE.format(body=body, xm=x[0], xn=x[1], xt=x[2], xm1=x[0] - 1, xn1=x[1] - 1,
                            ym=y[0], yn=y[1], yt=y[2], ym1=y[0] - 1, yn1=y[1] - 1)


def run_snippet(body: str, x: np.ndarray, xt: str, y: tuple[int, int], yt: str,
                **args: Any) -> np.ndarray:
    """Run `body` on the array `x` and return the stored `%y`."""
    text = snippet_kernel(body, (x.shape[0], x.shape[1], xt), (y[0], y[1], yt))
    result = run_kernel(parse_module(text, "snippet.mlir"), args=args or None,
                        inputs={"X": x})
    return result.outputs["Y"]


def run_text(text: str, name: str = "kernel.mlir", **kw: Any):
    return run_kernel(parse_module(text, name), **kw)
