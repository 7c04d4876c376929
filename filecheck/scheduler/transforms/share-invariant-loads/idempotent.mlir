// RUN: ktir-opt %S/basic.mlir --split-input-file -p 'ensure-device-declaration{device=spyre},share-invariant-loads,share-invariant-loads' | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: the shared copy's
/// view is of a scratchpad, and the original view has no loads left. (No IR of its own.)
