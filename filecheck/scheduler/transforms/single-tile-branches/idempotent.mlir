// RUN: ktir-opt %S/basic.mlir --split-input-file -p single-tile-branches,single-tile-branches | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: the branches on
/// the tile id are gone after the first, and the others stay. (This file has no IR of its own.)
