// RUN: ktir-opt %s --split-input-file -p construct-three-stage-pipeline --verify-diagnostics | filecheck %s

/// construct-three-stage-pipeline refuses, with an error located at the offending op, what it
/// cannot turn into one fused Load -> Compute -> Store pipeline, and a module without a
/// device; one chunk per condition.

// Without a device the memory kinds and the SIMD width are unknown; the error says how to
// name one.
// CHECK: error: pass 'construct-three-stage-pipeline' needs a device: declare one in the module (ktdf_arch.device @name import("path.mlir"))
func.func @negative_no_device(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %n = arith.negf %a : tensor<1x64xf16>
  ktdp.store %n, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}

// -----

// Every other column of a row (a stride of 2 along the vectorised dimension).
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_strided_vector_dim(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
  // CHECK: :[[# @LINE + 1]]:3: error: 'ktdp.load' op a strided access along a vectorised dimension (vector 1x64): not supported by the scheduler yet
  %a = ktdp.load %xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %b = tensor.extract_slice %a[0, 0] [1, 64] [1, 2] : tensor<1x128xf16> to tensor<1x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %b, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}

// -----

// A store in a loop: compute-group-extraction has not run.
ktdf_arch.device @sample_device import("sample_device.mlir")
// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op stores inside control flow must be extracted into compute groups first (run compute-group-extraction)
func.func @negative_store_in_loop(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  scf.for %i = %c0 to %c2 step %c1 {
    %t = ktdp.construct_access_tile %v[%i, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %n = arith.negf %a : tensor<1x64xf16>
    ktdp.store %n, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  func.return
}

// -----

// A body op outside the element-wise table.
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_unsupported_body_op(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%i: f16, %o: f16):
    // CHECK: :[[# @LINE + 1]]:5: error: 'arith.bitcast' op 'arith.bitcast' has no DataflowIR lowering yet
    %x1 = arith.bitcast %i : f16 to i16
    %x2 = arith.bitcast %x1 : i16 to f16
    linalg.yield %x2 : f16
  } -> tensor<1x64xf16>
  ktdp.store %r, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}

// -----

// An accumulation: the body reads its output.
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_accumulate(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  // CHECK: :[[# @LINE + 1]]:3: error: 'linalg.generic' op the body reads its output (accumulation); only element-wise generics are fused
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%a : tensor<1x64xf16>) {
  ^bb0(%i: f16, %o: f16):
    %s = arith.addf %i, %o : f16
    linalg.yield %s : f16
  } -> tensor<1x64xf16>
  ktdp.store %r, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}

// -----

// Two stores of one group (they share the load) with different shapes.
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_store_shapes(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<2x64xf16>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%e : tensor<2x64xf16>) {
  ^bb0(%i: f16, %o: f16):
    linalg.yield %i : f16
  } -> tensor<2x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %b, %yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  %n = arith.negf %a : tensor<1x64xf16>
  // CHECK: :[[# @LINE + 1]]:3: error: 'ktdp.store' op stores of one group must have the same shape (1x64 vs 2x64)
  ktdp.store %n, %xt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}

// -----

// A stored value that is not computed from loaded tiles: a tensor that arrives as an argument.
ktdf_arch.device @sample_device import("sample_device.mlir")
// CHECK: :[[# @LINE + 1]]:1: error: 'func.func' op a tensor computed outside the group
func.func @negative_not_elementwise(%x: index, %e: tensor<1x64xf16>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %e, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}

// -----

// The result is written transposed (a non-identity output map).
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_output_map(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [2, 2], strides: [2, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x2xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>} : memref<2x2xf16> -> !ktdp.access_tile<2x2xindex>
  %a = ktdp.load %t : !ktdp.access_tile<2x2xindex> -> tensor<2x2xf16>
  %e = tensor.empty() : tensor<2x2xf16>
  // CHECK: :[[# @LINE + 1]]:3: error: 'linalg.generic' op linalg.generic outputs must use identity indexing maps
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf16>) outs(%e : tensor<2x2xf16>) {
  ^bb0(%i: f16, %o: f16):
    linalg.yield %i : f16
  } -> tensor<2x2xf16>
  ktdp.store %r, %t : tensor<2x2xf16>, !ktdp.access_tile<2x2xindex>
  func.return
}

// -----

// A tile that arrives as an argument: its view (and so its memory) is unknown.
ktdf_arch.device @sample_device import("sample_device.mlir")
func.func @negative_tile_argument(%t: !ktdp.access_tile<1x64xindex>) attributes {grid = [1]} {
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %n = arith.negf %a : tensor<1x64xf16>
  // CHECK: :[[# @LINE + 1]]:3: error: 'ktdp.store' op the tile must be a ktdp.construct_access_tile or ktdp.construct_indirect_access_tile over a ktdp.construct_memory_view
  ktdp.store %n, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}
