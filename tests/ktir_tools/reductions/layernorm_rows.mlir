#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#rowm = affine_map<(d0, d1) -> (d0)>
func.func @layernorm(%X: index, %W: index, %B: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1.024000e+03 : f32
  %eps = arith.constant 1.000000e-05 : f32
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x1024xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 1024], strides: [1024, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x1024xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [1024], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [1024], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  %xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  %wt = ktdp.construct_access_tile %Wv[%c0] {access_tile_order = #id1, access_tile_set = #vec} : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0] {access_tile_order = #id1, access_tile_set = #vec} : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
  %w = ktdp.load %wt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
  %z = arith.constant dense<0.000000e+00> : tensor<1xf32>
  %s = linalg.generic {indexing_maps = [#id, #rowm], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x1024xf16>) outs(%z : tensor<1xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %f = arith.extf %v : f16 to f32
    %a = arith.addf %acc, %f : f32
    linalg.yield %a : f32
  } -> tensor<1xf32>
  %q = linalg.generic {indexing_maps = [#id, #rowm, #rowm], iterator_types = ["parallel", "reduction"]} ins(%x, %s : tensor<1x1024xf16>, tensor<1xf32>) outs(%z : tensor<1xf32>) {
  ^bb0(%v: f16, %sv: f32, %acc: f32):
    %f = arith.extf %v : f16 to f32
    %m = arith.divf %sv, %n : f32
    %d = arith.subf %f, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %acc, %d2 : f32
    linalg.yield %a : f32
  } -> tensor<1xf32>
  %e = tensor.empty() : tensor<1x1024xf16>
  %y = linalg.generic {indexing_maps = [#id, #rowm, #rowm, #col, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s, %q, %w, %b : tensor<1x1024xf16>, tensor<1xf32>, tensor<1xf32>, tensor<1024xf16>, tensor<1024xf16>) outs(%e : tensor<1x1024xf16>) {
  ^bb0(%v: f16, %sv: f32, %qv: f32, %wv: f16, %bv: f16, %o: f16):
    %f = arith.extf %v : f16 to f32
    %m = arith.divf %sv, %n : f32
    %var = arith.divf %qv, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %f, %m : f32
    %nn = arith.mulf %d, %r : f32
    %wf = arith.extf %wv : f16 to f32
    %bf = arith.extf %bv : f16 to f32
    %sc = arith.mulf %nn, %wf : f32
    %o2 = arith.addf %sc, %bf : f32
    %r16 = arith.truncf %o2 : f32 to f16
    linalg.yield %r16 : f16
  } -> tensor<1x1024xf16>
  %yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<4x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  ktdp.store %y, %yt : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
  return
}
