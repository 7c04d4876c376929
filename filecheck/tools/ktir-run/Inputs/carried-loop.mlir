// B[pid] = A[3 pid] + sum over i in 1..2 of 2^i A[3 pid + i]: a loop carrying a tensor, and
// an inner one bounded by the outer index (unroll-carried-loops).
func.func @k(%A: index, %B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %a = ktdp.construct_memory_view %A, sizes: [6, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x64xf16>
  %b = ktdp.construct_memory_view %B, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %t0 = ktdp.construct_access_tile %a[%id, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<6x64xf16> -> !ktdp.access_tile<1x64xindex>
  %zero = ktdp.load %t0 : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %base = arith.muli %id, %c3 : index
  %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (tensor<1x64xf16>) {
    %row = arith.addi %base, %i : index
    %ta = ktdp.construct_access_tile %a[%row, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<6x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %n = scf.for %j = %c0 to %i step %c1 iter_args(%in = %x) -> (tensor<1x64xf16>) {
      %d = arith.addf %in, %in : tensor<1x64xf16>
      scf.yield %d : tensor<1x64xf16>
    }
    %y = arith.addf %acc, %n : tensor<1x64xf16>
    scf.yield %y : tensor<1x64xf16>
  }
  %tb = ktdp.construct_access_tile %b[%id, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %s, %tb : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
