"""`#ptr.generic_space`, the one attribute of upstream MLIR's `ptr` dialect that architecture
descriptions use (as a memory `kind`: `memory {kind = #ptr.generic_space}`). xDSL 0.74 has no
`ptr` dialect (its `ptr_xdsl` is unrelated), so descriptions written for upstream would not parse.
"""

from __future__ import annotations

from xdsl.ir import Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class GenericSpaceAttr(ParametrizedAttribute):
    """The generic (default) memory space."""

    name = "ptr.generic_space"


Ptr = Dialect("ptr", [], [GenericSpaceAttr])
