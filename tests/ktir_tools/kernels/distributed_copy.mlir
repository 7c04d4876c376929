// B = A over 192x64, A in three pieces of different shapes: rows 0..95 in device memory,
// 96..127 in tile 0's scratchpad (column-major), 128..191 in tile 1's; the kernel reads no
// tile id (test_cross_core.py). split-distributed-views makes three copies of three shapes:
// three groups, since a group has one iteration space.

#g = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l0 = affine_set<(d0, d1) : (d0 >= 96, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l1 = affine_set<(d0, d1) : (d0 >= 128, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

func.func @copy_pieces() attributes {grid = [2, 1, 1]} {
  %c0 = arith.constant 0 : index
  %ag = arith.constant 0 : index
  %a0 = arith.constant 12288 : index
  %a1 = arith.constant 16384 : index
  %ab = arith.constant 24576 : index
  %vg = ktdp.construct_memory_view %ag, sizes: [96, 64], strides: [64, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %v0 = ktdp.construct_memory_view %a0, sizes: [32, 64], strides: [1, 64] {coordinate_set = #l0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
  %v1 = ktdp.construct_memory_view %a1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #l1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64x64xf16>
  %A = ktdp.construct_distributed_memory_view (%vg, %v0, %v1 : memref<96x64xf16>, memref<32x64xf16>, memref<64x64xf16>) : memref<192x64xf16>
  %B = ktdp.construct_memory_view %ab, sizes: [192, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<192x64xf16>
  %at = ktdp.construct_access_tile %A[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<192x64xf16> -> !ktdp.access_tile<192x64xindex>
  %bt = ktdp.construct_access_tile %B[%c0, %c0] {access_tile_order = #o, access_tile_set = #all} : memref<192x64xf16> -> !ktdp.access_tile<192x64xindex>
  %a = ktdp.load %at : !ktdp.access_tile<192x64xindex> -> tensor<192x64xf16>
  ktdp.store %a, %bt : tensor<192x64xf16>, !ktdp.access_tile<192x64xindex>
  return
}
