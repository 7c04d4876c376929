// Rows [3 pid, 3 pid + 3) of A doubled into B: a loop strided by the tile id (3 iterations
// on every tile; normalize-tile-loops).
func.func @k(%A: index, %B: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %start = arith.muli %id, %c3 : index
  %end = arith.addi %start, %c3 : index
  %a = ktdp.construct_memory_view %A, sizes: [12, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
  %b = ktdp.construct_memory_view %B, sizes: [12, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
  scf.for %row = %start to %end step %c1 {
    %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<12x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %b[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<12x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %y = arith.addf %x, %x : tensor<1x64xf16>
    ktdp.store %y, %tb : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
