// RUN: ktir-opt %S/basic.mlir -p ktdf-to-ktdflowering,ktdf-to-ktdflowering | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: no `ktdf.pipeline`
/// is left, so the second run materialises no unit and binds no stage. (This file has no IR
/// of its own.)
