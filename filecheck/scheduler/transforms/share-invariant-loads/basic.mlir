// RUN: ktir-opt %s --split-input-file -p 'ensure-device-declaration{device=spyre},share-invariant-loads' | filecheck %s

/// Every one of the 32 tiles loads the whole weight row W (2048 x f16) block by block: W is
/// loaded once, whole, through a static (unmasked) view, and stored into a slot of tile 0's
/// scratchpad (element 0); the loads in the loop read the slot instead, with the same
/// subscripts. X (its tiles read the tile id) and Y (stored) are left alone.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#vec = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#wblk = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @scale(
// CHECK-SAME:      %[[X:.*]]: index, %[[W:.*]]: index, %[[Y:.*]]: index)
// CHECK:         %[[WV:Wv]] = ktdp.construct_memory_view %[[W]], sizes: [%{{.*}}], strides: [1] {{.*}}global
// CHECK-NEXT:    %[[WC:.*]] = ktdp.construct_memory_view %[[W]], sizes: [2048], strides: [1] {{.*}}global
// CHECK-NEXT:    %[[WT:.*]] = ktdp.construct_access_tile %[[WC]][0] {{.*}} : memref<2048xf16> -> !ktdp.access_tile<2048xindex>
// CHECK-NEXT:    %[[WL:.*]] = ktdp.load %[[WT]] : {{.*}} -> tensor<2048xf16>
// CHECK-NEXT:    %[[A:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[S:Wv_shared]] = ktdp.construct_memory_view %[[A]], sizes: [2048], strides: [1] {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-NEXT:    %[[ST:.*]] = ktdp.construct_access_tile %[[S]][0]
// CHECK-NEXT:    ktdp.store %[[WL]], %[[ST]]
// CHECK:         scf.for %[[J:.*]] = 
// CHECK:           ktdp.construct_access_tile %{{.*}}[%{{.*}}, %[[J]]]
// CHECK:           %[[T:.*]] = ktdp.construct_access_tile %[[S]][%[[J]]]
// CHECK:           ktdp.load %[[T]]
// CHECK-NOT:       %[[WV]][
// CHECK:         func.return
func.func @scale(%X: index, %W: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %N = arith.constant 2048 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [32, 2048], strides: [2048, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x2048xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [32, 2048], strides: [2048, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x2048xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [%N], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  scf.for %j = %c0 to %N step %c1024 {
    %xt = ktdp.construct_access_tile %Xv[%t, %j] {access_tile_order = #id2, access_tile_set = #blk} : memref<32x2048xf16> -> !ktdp.access_tile<1x1024xindex>
    %wt = ktdp.construct_access_tile %Wv[%j] {access_tile_order = #id1, access_tile_set = #wblk} : memref<?xf16> -> !ktdp.access_tile<1024xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
    %w = ktdp.load %wt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
    %e = tensor.empty() : tensor<1x1024xf16>
    %y = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %w : tensor<1x1024xf16>, tensor<1024xf16>) outs(%e : tensor<1x1024xf16>) {
    ^bb0(%xv: f16, %wv: f16, %o: f16):
      %m = arith.mulf %xv, %wv : f16
      linalg.yield %m : f16
    } -> tensor<1x1024xf16>
    %yt = ktdp.construct_access_tile %Yv[%t, %j] {access_tile_order = #id2, access_tile_set = #blk} : memref<32x2048xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %y, %yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  }
  return
}

// -----

/// Left alone: a row too small to be worth a launch of its own (64 x f16: the other 31 reads
/// take the device memory 31 cycles), and a row the kernel also writes (B: in place).

#r64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     ct_local
// CHECK:         func.return
func.func @left_alone(%A: index, %B: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [64], strides: [1] {coordinate_set = #r64, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4096], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %at = ktdp.construct_access_tile %Av[%c0] {access_tile_order = #id1, access_tile_set = #r64} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0] {access_tile_order = #id1, access_tile_set = #r64} : memref<4096xf16> -> !ktdp.access_tile<64xindex>
  %a = ktdp.load %at : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %s = arith.addf %a, %b : tensor<64xf16>
  ktdp.store %s, %bt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
