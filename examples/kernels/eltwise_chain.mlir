// D = (A - B) * C as one linalg.generic over 64x128 fp16 tensors on 8 tiles (8 rows each).
// The body rounds to fp16 after each op, as the kernel's f16 element type says.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sub_mul(%A: index, %B: index, %C: index, %D: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c8 : index
  %Av = ktdp.construct_memory_view %A, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Dv = ktdp.construct_memory_view %D, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %At = ktdp.construct_access_tile %Av[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Dt = ktdp.construct_access_tile %Dv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %a = ktdp.load %At : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %c = ktdp.load %Ct : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %e = tensor.empty() : tensor<8x128xf16>
  %d = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %c : tensor<8x128xf16>, tensor<8x128xf16>, tensor<8x128xf16>) outs(%e : tensor<8x128xf16>) {
  ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
    %diff = arith.subf %x, %y : f16
    %prod = arith.mulf %diff, %z : f16
    linalg.yield %prod : f16
  } -> tensor<8x128xf16>
  ktdp.store %d, %Dt : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}
