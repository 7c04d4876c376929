// 33 tiles each load 3 rows of a 96-row view whose coordinate_set claims 99 rows: rows 96-98
// are inside the set but outside the view's 96 rows, so tile 32 overflows the view.
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 98 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @overflow(%A: index, %B: index) attributes {grid = [33]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c3 : index
  %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_order = #id, access_tile_set = #tile} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_order = #id, access_tile_set = #tile} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  ktdp.store %a, %Bt : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  return
}
