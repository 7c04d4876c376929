// RUN: ktir-opt %S/basic.mlir -p normalize-grid-to-1d,normalize-grid-to-1d | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: once every grid
/// is 1-D (and a 1-D grid from the start) nothing changes. (This file has no IR of its own.)
