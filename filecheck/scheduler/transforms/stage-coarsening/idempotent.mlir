// RUN: ktir-opt %S/basic.mlir -p stage-coarsening,stage-coarsening | filecheck %S/basic.mlir

/// A coarsened pipeline has loops in its stages: a second run leaves it as it is.
