#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @rowsum(%X: index, %S: index, %M: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [8], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<8xf32>
  %Mv = ktdp.construct_memory_view %M, sizes: [8], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_order = #id, access_tile_set = #all} : memref<8x256xf16> -> !ktdp.access_tile<8x256xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<8x256xindex> -> tensor<8x256xf16>
  %z = arith.constant dense<0.000000e+00> : tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x256xf16>) outs(%z : tensor<8xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %f = arith.extf %a : f16 to f32
    %r = arith.addf %acc, %f : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %ninf = arith.constant 0xFC00 : f16
  %m0 = tensor.splat %ninf : tensor<8xf16>
  %m = linalg.reduce { arith.maximumf } ins(%x : tensor<8x256xf16>) outs(%m0 : tensor<8xf16>) dimensions = [1]
  %st = ktdp.construct_access_tile %Sv[%c0] {access_tile_order = #id1, access_tile_set = #v} : memref<8xf32> -> !ktdp.access_tile<8xindex>
  %mt = ktdp.construct_access_tile %Mv[%c0] {access_tile_order = #id1, access_tile_set = #v} : memref<8xf16> -> !ktdp.access_tile<8xindex>
  ktdp.store %s, %st : tensor<8xf32>, !ktdp.access_tile<8xindex>
  ktdp.store %m, %mt : tensor<8xf16>, !ktdp.access_tile<8xindex>
  return
}
