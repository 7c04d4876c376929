// Each tile stages a 64x64 fp16 block in its own scratchpad at element 1046528 (byte 2093056):
// the block's 8192 bytes end past the 2 MiB scratchpad, so the first tile to store overflows.
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @stage(%A: index) attributes {grid = [2, 1]} {
  %c0 = arith.constant 0 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %staging = arith.constant 1046528 : index
  %Av = ktdp.construct_memory_view %A, sizes: [64, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Sv = ktdp.construct_memory_view %staging, sizes: [64, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64x64xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %c1 = arith.constant 1 : index
  %mine = arith.cmpi eq, %x, %c1 : index
  scf.if %mine {
    ktdp.store %a, %St : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  }
  return
}
