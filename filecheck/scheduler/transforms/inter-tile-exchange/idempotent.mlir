// RUN: ktir-opt %S/basic.mlir -p inter-tile-exchange,inter-tile-exchange | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: once no
/// inter-tile op is left, nothing changes (the slots are ordinary views). (This file has no IR
/// of its own.)
