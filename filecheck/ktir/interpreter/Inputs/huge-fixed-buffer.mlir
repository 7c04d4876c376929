// A device-memory view at a constant address, 10^10 elements: past --max-buffer-bytes.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99999 >= 0, d1 >= 0, -d1 + 99999 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [100000, 100000], strides: [100000, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<100000x100000xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = #id, access_tile_set = #one} : memref<100000x100000xf16> -> !ktdp.access_tile<1x1xindex>
  %x = ktdp.load %t : !ktdp.access_tile<1x1xindex> -> tensor<1x1xf16>
  ktdp.store %x, %t : tensor<1x1xf16>, !ktdp.access_tile<1x1xindex>
  return
}
