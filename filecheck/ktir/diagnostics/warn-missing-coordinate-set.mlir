// RUN: ktir-opt %s 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: ktir-opt %s 2>/dev/null | filecheck %s
/// ktir-cpu writes views without coordinate_set; we accept them with a warning and use the
/// box [0, size) of the sizes (dynamic sizes become symbols).
// WARN: warn-missing-coordinate-set.mlir:[[# @LINE + 4]]:35: warning: ktdp.construct_memory_view has no 'coordinate_set'
// CHECK-LABEL: func.func @warn_missing_coordinate_set
// CHECK: ktdp.construct_memory_view %{{.*}}, sizes: [%{{.*}}, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, (((d0 * -1) + s0) + -1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
func.func @warn_missing_coordinate_set(%a: index, %m: index) {
  %v = ktdp.construct_memory_view %a, sizes: [%m, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}
