// Small element-wise kernels, one per chunk, written by tests/strategies/kernels.py
// (elementwise_kernel of the ElementwiseSpec above each chunk). The file starts with a
// split marker so that it can follow another kernel file: `cat a.mlir kernels.mlir`.
// -----
// ElementwiseSpec(4, 64, 1, (('add', 0, 1),), name='named_add')
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
func.func @named_add(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %cr = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %cr : index
  %v0 = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %v0[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x0 = ktdp.load %t0 : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %v1 = ktdp.construct_memory_view %in1, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t1 = ktdp.construct_access_tile %v1[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x1 = ktdp.load %t1 : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e0 = tensor.empty() : tensor<4x64xf16>
  %r0 = linalg.add ins(%x0, %x1 : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e0 : tensor<4x64xf16>) -> tensor<4x64xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %to = ktdp.construct_access_tile %vo[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %r0, %to : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
// -----
// ElementwiseSpec(4, 64, 2, (('sub', 0, 1),), name='named_sub')
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
func.func @named_sub(%in0: index, %in1: index, %out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %cr = arith.constant 2 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %cr : index
  %v0 = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %v0[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x0 = ktdp.load %t0 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %v1 = ktdp.construct_memory_view %in1, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t1 = ktdp.construct_access_tile %v1[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x1 = ktdp.load %t1 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %e0 = tensor.empty() : tensor<2x64xf16>
  %r0 = linalg.sub ins(%x0, %x1 : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %to = ktdp.construct_access_tile %vo[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %r0, %to : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
// -----
// ElementwiseSpec(8, 64, 4, (('mul', 0, 1),), name='named_mul')
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
func.func @named_mul(%in0: index, %in1: index, %out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %cr = arith.constant 2 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %cr : index
  %v0 = ktdp.construct_memory_view %in0, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %t0 = ktdp.construct_access_tile %v0[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x0 = ktdp.load %t0 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %v1 = ktdp.construct_memory_view %in1, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %t1 = ktdp.construct_access_tile %v1[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x1 = ktdp.load %t1 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %e0 = tensor.empty() : tensor<2x64xf16>
  %r0 = linalg.mul ins(%x0, %x1 : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [8, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %to = ktdp.construct_access_tile %vo[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %r0, %to : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
// -----
// ElementwiseSpec(4, 64, 2, (('add', 0, 1), ('mul', 2, 0), ('sub', 3, 1)), form='generic', name='generic_chain')
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
func.func @generic_chain(%in0: index, %in1: index, %out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %cr = arith.constant 2 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %cr : index
  %v0 = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %v0[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x0 = ktdp.load %t0 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %v1 = ktdp.construct_memory_view %in1, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t1 = ktdp.construct_access_tile %v1[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x1 = ktdp.load %t1 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %e = tensor.empty() : tensor<2x64xf16>
  %res = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x0, %x1 : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %s0 = arith.addf %a0, %a1 : f16
    %s1 = arith.mulf %s0, %a0 : f16
    %s2 = arith.subf %s1, %a1 : f16
    linalg.yield %s2 : f16
  } -> tensor<2x64xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %to = ktdp.construct_access_tile %vo[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %res, %to : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
// -----
// ElementwiseSpec(4, 64, 2, (('add', 0, 1), ('mul', 2, 2)), form='arith', name='arith_chain')
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
func.func @arith_chain(%in0: index, %in1: index, %out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %cr = arith.constant 2 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %cr : index
  %v0 = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %v0[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x0 = ktdp.load %t0 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %v1 = ktdp.construct_memory_view %in1, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t1 = ktdp.construct_access_tile %v1[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x1 = ktdp.load %t1 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %r0 = arith.addf %x0, %x1 : tensor<2x64xf16>
  %r1 = arith.mulf %r0, %r0 : tensor<2x64xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %to = ktdp.construct_access_tile %vo[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %r1, %to : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
// -----
// ElementwiseSpec(4, 64, 2, (('add', 0, 1),), broadcast_last=True, name='row_bcast')
#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
func.func @row_bcast(%in0: index, %in1: index, %out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %cr = arith.constant 2 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %cr : index
  %v0 = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %t0 = ktdp.construct_access_tile %v0[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x0 = ktdp.load %t0 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %v1 = ktdp.construct_memory_view %in1, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t1 = ktdp.construct_access_tile %v1[%c0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x1 = ktdp.load %t1 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %be1 = tensor.empty() : tensor<2x64xf16>
  %b1 = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%x1 : tensor<1x64xf16>) outs(%be1 : tensor<2x64xf16>) {
  ^bb0(%bi: f16, %bo: f16):
    linalg.yield %bi : f16
  } -> tensor<2x64xf16>
  %e0 = tensor.empty() : tensor<2x64xf16>
  %r0 = linalg.add ins(%x0, %b1 : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
  %vo = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = #full, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %to = ktdp.construct_access_tile %vo[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %r0, %to : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
