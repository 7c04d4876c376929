// RUN: ktir-opt %s -p compute-group-extraction | filecheck %s

/// Runtime arguments become their values before the kernel is cut into groups: the host
/// computes the loop bound M/8 from the argument itself (no ktdp op stays on the host), the
/// group takes it as an index argument, and the host's argument keeps its former type as the
/// attribute `ktdp.runtime_arg`.

#dyn = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @rows(
// CHECK-SAME:    %[[M:[^:]*]]: index {ktdp.runtime_arg = !ktdp.runtime_arg<index, granularity=8, upperbound=64>}, %[[A:[^:]*]]: index)
// CHECK:         %[[T:.*]] = arith.divsi %[[M]], %{{.*}} : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[T]] step %{{.*}} {
// CHECK-NEXT:      func.call @local_schedule_0(%[[M]], %[[A]], %[[I]]) : (index, index, index) -> ()
// CHECK:       func.func private @local_schedule_0(index, index, index) -> ()
// CHECK:         func.func @local_schedule_0(%[[GM:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index)
// CHECK:           ktdp.construct_memory_view %{{.*}}, sizes: [%[[GM]], 64]
// CHECK-NOT:   runtime_arg_extract
func.func @rows(%M_arg: !ktdp.runtime_arg<index, granularity=8, upperbound=64>, %A: index) {
  %M = ktdp.runtime_arg_extract value from %M_arg : <index, granularity=8, upperbound=64> -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = ktdp.runtime_arg_extract granularity from %M_arg : <index, granularity=8, upperbound=64> -> index
  %n = arith.divsi %M, %g : index
  %v = ktdp.construct_memory_view %A, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #dyn, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %x = ktdp.construct_access_tile %v[%i, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %d = ktdp.load %x : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %d, %x : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
