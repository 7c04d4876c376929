"""The kernel builder: KTIR kernels written in Python (see kernel.py)."""

from ktir.build.expr import BuildError, Value, maximum, minimum, where
from ktir.build.kernel import Kernel, Tensor

__all__ = ["BuildError", "Kernel", "Tensor", "Value", "maximum", "minimum", "where"]
