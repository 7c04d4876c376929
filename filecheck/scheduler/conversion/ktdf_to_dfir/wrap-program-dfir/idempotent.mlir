// RUN: ktir-opt %S/basic.mlir -p wrap-program-dfir,wrap-program-dfir | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: the outer
/// functions hold no program units any more, the `_body` functions already are the inner
/// level, and the one-level group still reads its argument. (This file has no IR of its own.)
