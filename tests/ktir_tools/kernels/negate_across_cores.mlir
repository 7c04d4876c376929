// Y = -X with X in tile 1's scratchpad and Y in tile 0's (both at element 4096); one tile runs it
// (it reads no tile id), core 0: X comes over the ring (test_cross_core.py).
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

func.func @remote(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %a = arith.constant 4096 : index
  %X = ktdp.construct_memory_view %a, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %Y = ktdp.construct_memory_view %a, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %yt = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %n = arith.negf %x : tensor<4x64xf16>
  ktdp.store %n, %yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
