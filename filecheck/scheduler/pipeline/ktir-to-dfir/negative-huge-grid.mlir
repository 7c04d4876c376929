// RUN: not ktir-opt %s -p 'ktir-to-dfir{device=stream_device}' 2>&1 | filecheck %s

/// A template device is instantiated once per tile: a grid of a billion tiles is refused before
/// its cores are materialised (at ~0.7 ms per tile it would run for days; a fuzz mutant of
/// mul_max, seed 3 kernel:2027).

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mul_max(%X: index, %Y: index, %Z: index) attributes {grid = [1043746312]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c8 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [32, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x192xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [32, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x192xf16>
  %Zv = ktdp.construct_memory_view %Z, sizes: [32, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x192xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<32x192xf16> -> !ktdp.access_tile<8x192xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<32x192xf16> -> !ktdp.access_tile<8x192xindex>
  %Zt = ktdp.construct_access_tile %Zv[%row0, %c0] {access_tile_order = #id, access_tile_set = #rows} : memref<32x192xf16> -> !ktdp.access_tile<8x192xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x192xindex> -> tensor<8x192xf16>
  %y = ktdp.load %Yt : !ktdp.access_tile<8x192xindex> -> tensor<8x192xf16>
  %p = arith.mulf %x, %y : tensor<8x192xf16>
  %z = arith.maximumf %p, %x : tensor<8x192xf16>
  ktdp.store %z, %Zt : tensor<8x192xf16>, !ktdp.access_tile<8x192xindex>
  return
}
// CHECK: error: 'func.func' op a grid of 1,043,746,312 tiles needs 1,043,746,312 cores; template device @stream_device is instantiated for at most 16,384
