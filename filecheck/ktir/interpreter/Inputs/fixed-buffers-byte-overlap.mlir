// An i32 view of 64 elements at element 0 (bytes 0 to 255) and an f16 view of 64 elements at
// element 64 (bytes 128 to 255): apart in elements, the same bytes in device memory.
#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @overlap() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  %b = ktdp.construct_memory_view %c64, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %at = ktdp.construct_access_tile %a[%c0] {access_tile_order = #id, access_tile_set = #s} : memref<64xi32> -> !ktdp.access_tile<64xindex>
  %bt = ktdp.construct_access_tile %b[%c0] {access_tile_order = #id, access_tile_set = #s} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %at : !ktdp.access_tile<64xindex> -> tensor<64xi32>
  %y = arith.sitofp %x : tensor<64xi32> to tensor<64xf16>
  ktdp.store %y, %bt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
