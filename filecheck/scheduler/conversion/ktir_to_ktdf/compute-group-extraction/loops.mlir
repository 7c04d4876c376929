// RUN: ktir-opt %s -p compute-group-extraction | filecheck %s

/// A store inside a host loop forms its own group; the loop stays in the kernel and the call
/// sits in its body, passing the loop index (a value from outside the slice) as an argument.
/// Two independent stores in the same segment (no shared load) become two groups, called in
/// program order.

#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @loops(
// CHECK-SAME:    %[[A:[^:]*]]: index, %[[B:[^:]*]]: index)
// CHECK:         func.call @local_schedule_0(%[[A]]) : (index) -> ()
// CHECK-NEXT:    func.call @local_schedule_1(%[[B]]) : (index) -> ()
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      func.call @local_schedule_2(%[[A]], %[[I]]) : (index, index) -> ()
// CHECK-NEXT:    }
// CHECK:       builtin.module @local_schedule_2 {
// CHECK:         func.func @local_schedule_2(%[[GA:[^:]*]]: index, %[[GI:[^:]*]]: index)
// CHECK:           ktdp.construct_access_tile %{{.*}}[%[[GI]], %{{.*}}]
func.func @loops(%A: index, %B: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %Av = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [32, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %t0 = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %t0 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %nx = arith.negf %x : tensor<1x64xf16>
  ktdp.store %nx, %t0 : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  %t1 = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
  %y = ktdp.load %t1 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %ny = arith.negf %y : tensor<1x64xf16>
  ktdp.store %ny, %t1 : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  scf.for %i = %c1 to %c4 step %c1 {
    %t2 = ktdp.construct_access_tile %Av[%i, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %z = ktdp.load %t2 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %s = arith.addf %z, %z : tensor<1x64xf16>
    ktdp.store %s, %t2 : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
