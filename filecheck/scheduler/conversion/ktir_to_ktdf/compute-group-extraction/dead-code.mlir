// RUN: ktir-opt %s -p compute-group-extraction | filecheck %s

/// Once the groups moved out, what the kernel computes but never stores is dead code, removed
/// by effects (not by dialect): the load and the `linalg.add` of it nobody stores go (a linalg
/// op on tensors has no memory effects), and so does a loop that only loads (its body has no
/// effect beyond reading). The kernel keeps the call of its one group.

#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @dead_code(
// CHECK-SAME:    %[[A:[^:]*]]: index, %[[B:[^:]*]]: index)
// CHECK-NEXT:    func.call @local_schedule_0(%[[A]]) : (index) -> ()
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @dead_code(%A: index, %B: index) {
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
  %e = tensor.empty() : tensor<1x64xf16>
  %unstored = linalg.add ins(%y, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  scf.for %i = %c1 to %c4 step %c1 {
    %t2 = ktdp.construct_access_tile %Bv[%i, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
    %z = ktdp.load %t2 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  }
  return
}

/// A scalar that only the body of a generic reads (a row's maximum scaling it) goes with that
/// generic: its load and reduction look used until the generic is gone, so dead code runs
/// until nothing more goes.

// CHECK-LABEL: func.func @captured(
// CHECK-SAME:    %[[A:[^:]*]]: index)
// CHECK-NEXT:    func.call @local_schedule_1(%[[A]]) : (index) -> ()
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @captured(%A: index) {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %Av = ktdp.construct_memory_view %A, sizes: [32, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %t0 = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %t0 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %m0 = tensor.splat %ninf : tensor<1xf16>
  %mx = linalg.reduce { arith.maximumf } ins(%x : tensor<1x64xf16>) outs(%m0 : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %mx[%c0] : tensor<1xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %d = arith.divf %v, %m : f16
    linalg.yield %d : f16
  } -> tensor<1x64xf16>
  ktdp.store %y, %t0 : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
