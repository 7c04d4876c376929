// RUN: ktir-opt %S/basic.mlir -p address-assignment,address-assignment | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: once addresses are
/// assigned no `memref.alloc` in a device memory is left. (This file has no IR of its own.)
