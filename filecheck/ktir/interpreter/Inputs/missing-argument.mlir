// Doubles the first n elements of X into Y; n must be given with --arg n=VALUE.
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#pre = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @double(%X: index, %Y: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
  %xt = ktdp.construct_access_tile %Xv[%c0] symbols(%n) {access_tile_order = #id, access_tile_set = #pre} : memref<64xf32> -> !ktdp.access_tile<?xindex>
  %yt = ktdp.construct_access_tile %Yv[%c0] symbols(%n) {access_tile_order = #id, access_tile_set = #pre} : memref<64xf32> -> !ktdp.access_tile<?xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<?xindex> -> tensor<?xf32>
  %y = arith.addf %x, %x : tensor<?xf32>
  ktdp.store %y, %yt : tensor<?xf32>, !ktdp.access_tile<?xindex>
  return
}
