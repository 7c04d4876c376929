// RUN: ktir-opt %S/basic.mlir -p construct-three-stage-pipeline,construct-three-stage-pipeline | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: the group
/// functions hold no `ktdp.store` any more, so the second run leaves them alone. (This file
/// has no IR of its own.)
