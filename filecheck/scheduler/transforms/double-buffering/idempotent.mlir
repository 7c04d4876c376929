// RUN: ktir-opt %S/basic.mlir -p double-buffering,double-buffering | filecheck %S/basic.mlir

/// A pipeline with `modulo` is left alone: a second run changes nothing.
