// RUN: ktir-opt %S/basic.mlir -p interleave-compute-chains,interleave-compute-chains --split-input-file | filecheck %S/basic.mlir
