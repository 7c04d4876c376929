// RUN: ktir-opt %S/basic.mlir -p compute-group-extraction > %t.1.mlir
// RUN: ktir-opt %t.1.mlir -p compute-group-extraction > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

/// Running the pass twice changes nothing: the kernels left hold no store, and the group
/// functions already are groups. (This file has no IR of its own.)
