// Two row reductions of different spaces (a sum over 4x64, a max over 4x32) added and stored:
// each result goes through a slot, the add is an element-wise group (split-compute-chains).
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#r = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
module {
func.func @mixed(%ap: index, %bp: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %av = ktdp.construct_memory_view %ap, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %bv = ktdp.construct_memory_view %bp, sizes: [4, 32], strides: [32, 1] {
    coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [4], strides: [1] {
    coordinate_set = #r, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %at = ktdp.construct_access_tile %av[%c0, %c0] {access_tile_set = #a, access_tile_order = #id}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #id}
      : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
  %b = ktdp.load %bt : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf16>
  %e = tensor.empty() : tensor<4xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %s = linalg.reduce { arith.addf } ins(%a : tensor<4x64xf16>) outs(%z : tensor<4xf16>) dimensions = [1]
  %n = linalg.fill ins(%ninf : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %m = linalg.reduce { arith.maximumf } ins(%b : tensor<4x32xf16>) outs(%n : tensor<4xf16>) dimensions = [1]
  %y = arith.addf %s, %m : tensor<4xf16>
  %ot = ktdp.construct_access_tile %ov[%c0] {access_tile_set = #r, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<4xf16> -> !ktdp.access_tile<4xindex>
  ktdp.store %y, %ot : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}
}
