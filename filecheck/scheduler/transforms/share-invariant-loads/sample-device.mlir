// RUN: ktir-opt %S/basic.mlir --split-input-file -p 'ensure-device-declaration{device=sample_device},share-invariant-loads' | filecheck %s

/// On sample_device the cores share only device memory (no scratchpad link): nothing is
/// shared, the kernels of basic.mlir are unchanged.

// CHECK-LABEL: func.func @scale(
// CHECK-NOT:     ct_local
// CHECK:         ktdp.construct_access_tile %Wv[
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     ct_local
