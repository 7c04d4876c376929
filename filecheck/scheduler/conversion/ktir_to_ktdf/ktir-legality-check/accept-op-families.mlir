// RUN: ktir-opt %s --split-input-file -p ktir-legality-check | filecheck %s

/// The element-wise op families of compute_ops.py pass the check unchanged: math functions,
/// spyreop intrinsics, conversions between f16/bf16/f32/i8/i16/i32, broadcasts along any
/// dimension, mixed element types, strided slices, extracted elements and transposes.

// CHECK-LABEL: func.func @math_unary(
// CHECK:         math.powf
// CHECK:         ktdp.store
func.func @math_unary(%in0: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 1 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x0 : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a0: f16, %o: f16):
    %v0 = math.exp %a0 : f16
    %v1 = math.log %v0 : f16
    %v2 = math.tanh %v1 : f16
    %v3 = math.rsqrt %v2 : f16
    %v4 = math.sqrt %v3 : f16
    %v5 = math.exp2 %v4 : f16
    %v6 = math.log2 %v5 : f16
    %v7 = math.erf %v6 : f16
    %v8 = math.sin %v7 : f16
    %v9 = math.cos %v8 : f16
    %v10 = math.absf %v9 : f16
    %r = math.powf %v10, %a0 : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %res, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @spyre_intrinsics(
// CHECK:         spyreop.layernormnorm
// CHECK:         ktdp.store
func.func @spyre_intrinsics(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 1 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %x1v = ktdp.construct_memory_view %in1, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %x1t = ktdp.construct_access_tile %x1v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x0, %x1 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %v0 = spyreop.exp %a0 : f16
    %v1 = spyreop.reciprocal %v0 : f16
    %v2 = spyreop.sigmoid %v1 : f16
    %v3 = spyreop.gelu %v2 : f16
    %v4 = spyreop.silu %v3 : f16
    %v5 = spyreop.softplus %v4 beta 0.5 threshold 20.0 : f16
    %v6 = spyreop.realdiv %v5, %a1 : f16
    %m, %sq = spyreop.exx2 %v6 : f16
    %s = spyreop.layernormscale %m squares %sq : f16
    %r = spyreop.layernormnorm %a0 squares %m scale %s weight %a1 bias %v6 : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %res, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @casts(
// CHECK:         arith.fptoui
// CHECK:         ktdp.store
func.func @casts(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 1 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xi8>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xi8> -> !ktdp.access_tile<1x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xi8>
  %x1v = ktdp.construct_memory_view %in1, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xbf16>
  %x1t = ktdp.construct_access_tile %x1v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xbf16> -> !ktdp.access_tile<1x64xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xbf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x0, %x1 : tensor<1x64xi8>, tensor<1x64xbf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a0: i8, %a1: bf16, %o: f16):
    %w = arith.extsi %a0 : i8 to i32
    %f = arith.sitofp %w : i32 to f32
    %u = arith.uitofp %a0 : i8 to f32
    %b = arith.extf %a1 : bf16 to f32
    %s = arith.addf %f, %u : f32
    %t = arith.addf %s, %b : f32
    %i = arith.fptoui %t : f32 to i16
    %h = arith.uitofp %i : i16 to f16
    %r = arith.negf %h : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %res, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}


// -----

// CHECK-LABEL: func.func @broadcast_column(
// CHECK:         linalg.broadcast
// CHECK:         ktdp.store
func.func @broadcast_column(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %x1v = ktdp.construct_memory_view %in1, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %x1t = ktdp.construct_access_tile %x1v[%c0] {access_tile_order = affine_map<(d0) -> (d0)>, access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %b = linalg.broadcast ins(%x1 : tensor<4xf16>) outs(%e : tensor<4x64xf16>) dimensions = [1]
  %r = arith.subf %x0, %b : tensor<4x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %r, %ot : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @mixed_types(
// CHECK:         arith.sitofp
// CHECK:         ktdp.store
func.func @mixed_types(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xi8>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xi8> -> !ktdp.access_tile<4x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<4x64xindex> -> tensor<4x64xi8>
  %x1v = ktdp.construct_memory_view %in1, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %x1t = ktdp.construct_access_tile %x1v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %w = arith.sitofp %x0 : tensor<4x64xi8> to tensor<4x64xf32>
  %h = arith.extf %x1 : tensor<4x64xf16> to tensor<4x64xf32>
  %r = arith.mulf %w, %h : tensor<4x64xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %r, %ot : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @moved_elements(
// CHECK:         linalg.transpose
// CHECK:         ktdp.store
func.func @moved_elements(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 4 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %x0t = ktdp.construct_access_tile %x0v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %x1v = ktdp.construct_memory_view %in1, sizes: [64, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x4xf16>
  %x1t = ktdp.construct_access_tile %x1v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0)>} : memref<64x4xf16> -> !ktdp.access_tile<64x4xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<64x4xindex> -> tensor<64x4xf16>
  %s = tensor.extract_slice %x0[1, 64] [4, 64] [2, 1] : tensor<8x128xf16> to tensor<4x64xf16>
  %i0 = arith.constant 0 : index
  %i5 = arith.constant 5 : index
  %v = tensor.extract %x1[%i5, %i0] : tensor<64x4xf16>
  %k = tensor.splat %v : tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %t = linalg.transpose ins(%x1 : tensor<64x4xf16>) outs(%e : tensor<4x64xf16>) permutation = [1, 0]
  %m = arith.mulf %s, %k : tensor<4x64xf16>
  %r = arith.addf %m, %t : tensor<4x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %r, %ot : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

