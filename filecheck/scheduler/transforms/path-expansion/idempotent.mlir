// RUN: ktir-opt %S/basic.mlir -p path-expansion,path-expansion | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: every FIFO slot
/// already starts or ends at a unit, so no transfer is left to route. (This file has no IR of
/// its own.)
