// RUN: ktir-opt %S/basic.mlir --split-input-file -p elide-copy-stages,elide-copy-stages | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: an elided copy
/// has no compute stage left to match. (This file has no IR of its own.)
