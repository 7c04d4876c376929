// RUN: ktir-opt %s --split-input-file -p generalize-contractions,split-compute-chains | filecheck %s
// RUN: ktir-opt %s --split-input-file -p generalize-contractions,split-compute-chains,split-compute-chains | filecheck %s

/// A contraction feeding a contraction of another space (FFN: h = x·W1, then h·W2): the
/// operand of the second, computed afresh from its own loads, is stored into a slot of the
/// tile's own scratchpad (element 0) and loaded back for every later use; the residual add
/// of a loaded tile to the second contraction's result goes through a second slot (the next
/// stick, element 64) so that it is an element-wise group of its own. Idempotent (second RUN).

#id = affine_map<(d0, d1) -> (d0, d1)>
#x = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#w1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#w2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>

// CHECK-LABEL: func.func @ffn(
// CHECK:         %[[X0:.*]] = ktdp.load %{{.*}} -> tensor<1x16xf16>
// CHECK:         %[[H:.*]] = linalg.generic {{.*}} ins(%[[X1:.*]], %[[W1:.*]] : tensor<1x16xf16>, tensor<16x32xf16>)
// CHECK:         %[[N:.*]] = arith.negf
// CHECK:         %[[A0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[SV:.*]] = ktdp.construct_memory_view %[[A0]], sizes: [1, 32], strides: [32, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>
// CHECK-NEXT:    %[[ST:.*]] = ktdp.construct_access_tile %[[SV]]
// CHECK-NEXT:    ktdp.store %[[N]], %[[ST]] : tensor<1x32xf16>
// CHECK:         %[[LV:.*]] = ktdp.construct_memory_view %[[A0b:.*]], sizes: [1, 32]{{.*}}ct_local
// CHECK-NEXT:    %[[LT:.*]] = ktdp.construct_access_tile %[[LV]]
// CHECK-NEXT:    %[[HN:.*]] = ktdp.load %[[LT]] : {{.*}} -> tensor<1x32xf16>
// CHECK:         %[[D:.*]] = linalg.generic {{.*}} ins(%[[HN]], %{{.*}} : tensor<1x32xf16>, tensor<32x16xf16>)
// CHECK:         %[[DT:.*]] = linalg.generic {{.*}} ins(%[[D]]
// CHECK:         %[[A64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[SV2:.*]] = ktdp.construct_memory_view %[[A64]], sizes: [1, 16]{{.*}}ct_local
// CHECK:         ktdp.store %[[DT]]
// CHECK:         %[[DN:.*]] = ktdp.load {{.*}} -> tensor<1x16xf16>
// CHECK:         %[[R:.*]] = arith.addf %[[X0]], %[[DN]] : tensor<1x16xf16>
// CHECK:         ktdp.store %[[R]]
func.func @ffn(%xp: index, %w1p: index, %w2p: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %xp, sizes: [1, 16], strides: [16, 1] {
    coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<1x16xf16>
  %w1v = ktdp.construct_memory_view %w1p, sizes: [16, 32], strides: [32, 1] {
    coordinate_set = #w1, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %w2v = ktdp.construct_memory_view %w2p, sizes: [32, 16], strides: [16, 1] {
    coordinate_set = #w2, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [1, 16], strides: [16, 1] {
    coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<1x16xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
      : memref<1x16xf16> -> !ktdp.access_tile<1x16xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x16xindex> -> tensor<1x16xf16>
  %w1t = ktdp.construct_access_tile %w1v[%c0, %c0] {access_tile_set = #w1, access_tile_order = #id}
      : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %w1 = ktdp.load %w1t : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  %w2t = ktdp.construct_access_tile %w2v[%c0, %c0] {access_tile_set = #w2, access_tile_order = #id}
      : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
  %w2 = ktdp.load %w2t : !ktdp.access_tile<32x16xindex> -> tensor<32x16xf16>
  %e1 = tensor.empty() : tensor<1x32xf16>
  %h = linalg.matmul ins(%x, %w1 : tensor<1x16xf16>, tensor<16x32xf16>)
      outs(%e1 : tensor<1x32xf16>) -> tensor<1x32xf16>
  %hn = arith.negf %h : tensor<1x32xf16>
  %e2 = tensor.empty() : tensor<1x16xf16>
  %d = linalg.matmul ins(%hn, %w2 : tensor<1x32xf16>, tensor<32x16xf16>)
      outs(%e2 : tensor<1x16xf16>) -> tensor<1x16xf16>
  %r = arith.addf %x, %d : tensor<1x16xf16>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
      : memref<1x16xf16> -> !ktdp.access_tile<1x16xindex>
  ktdp.store %r, %ot : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
  return
}

// -----

/// A contraction feeding a row reduction (Q·K^T, then the row max), with a transposed operand
/// that follows the contraction's dims out of order (K[n, k] in the space (m, k, n)): K^T is
/// materialised first (an element-wise group), then Q·K^T; the max reads the second slot.

#id = affine_map<(d0, d1) -> (d0, d1)>
#q = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#r = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>

// CHECK-LABEL: func.func @scores(
// CHECK:         %[[KT:.*]] = linalg.transpose ins(%{{.*}}:tensor<8x16xf16>)
// CHECK:         ktdp.store %[[KT]], %{{.*}} : tensor<16x8xf16>
// CHECK:         %[[KTN:.*]] = ktdp.load %{{.*}} -> tensor<16x8xf16>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[Q:.*]], %[[KTN]] : tensor<8x16xf16>, tensor<16x8xf16>)
// CHECK:         %[[ST:.*]] = linalg.generic {{.*}} ins(%[[S]]
// CHECK:         ktdp.store %[[ST]], %{{.*}} : tensor<8x8xf16>
// CHECK:         %[[SN:.*]] = ktdp.load %{{.*}} -> tensor<8x8xf16>
// CHECK:         linalg.reduce ins(%[[SN]]:tensor<8x8xf16>)
// CHECK-NOT:     ktdp.store {{.*}}ct_local
func.func @scores(%qp: index, %kp: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %qv = ktdp.construct_memory_view %qp, sizes: [8, 16], strides: [16, 1] {
    coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %kv = ktdp.construct_memory_view %kp, sizes: [8, 16], strides: [16, 1] {
    coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [8], strides: [1] {
    coordinate_set = #r, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %qt = ktdp.construct_access_tile %qv[%c0, %c0] {access_tile_set = #q, access_tile_order = #id}
      : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %q = ktdp.load %qt : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %kt = ktdp.construct_access_tile %kv[%c0, %c0] {access_tile_set = #q, access_tile_order = #id}
      : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  %k = ktdp.load %kt : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  %kte = tensor.empty() : tensor<16x8xf16>
  %k_t = linalg.transpose ins(%k : tensor<8x16xf16>) outs(%kte : tensor<16x8xf16>) permutation = [1, 0]
  %se = tensor.empty() : tensor<8x8xf16>
  %s = linalg.matmul ins(%q, %k_t : tensor<8x16xf16>, tensor<16x8xf16>)
      outs(%se : tensor<8x8xf16>) -> tensor<8x8xf16>
  %me = tensor.empty() : tensor<8xf16>
  %mi = linalg.fill ins(%ninf : f16) outs(%me : tensor<8xf16>) -> tensor<8xf16>
  %m = linalg.reduce { arith.maximumf } ins(%s : tensor<8x8xf16>) outs(%mi : tensor<8xf16>) dimensions = [1]
  %ot = ktdp.construct_access_tile %ov[%c0] {access_tile_set = #r, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<8xf16> -> !ktdp.access_tile<8xindex>
  ktdp.store %m, %ot : tensor<8xf16>, !ktdp.access_tile<8xindex>
  return
}

// -----

/// Reductions of one space (a softmax: max, then the sum of exponentials) stay together:
/// nothing is cut.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>

// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     ct_local
// CHECK:         func.return
func.func @softmax(%xp: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %xv = ktdp.construct_memory_view %xp, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %me = tensor.empty() : tensor<4xf16>
  %mi = linalg.fill ins(%ninf : f16) outs(%me : tensor<4xf16>) -> tensor<4xf16>
  %m = linalg.reduce { arith.maximumf } ins(%x : tensor<4x64xf16>) outs(%mi : tensor<4xf16>) dimensions = [1]
  %be = tensor.empty() : tensor<4x64xf16>
  %mb = linalg.broadcast ins(%m : tensor<4xf16>) outs(%be : tensor<4x64xf16>) dimensions = [1]
  %sh = arith.subf %x, %mb : tensor<4x64xf16>
  %p = math.exp %sh : tensor<4x64xf16>
  %le = tensor.empty() : tensor<4xf16>
  %li = linalg.fill ins(%zero : f16) outs(%le : tensor<4xf16>) -> tensor<4xf16>
  %l = linalg.reduce { arith.addf } ins(%p : tensor<4x64xf16>) outs(%li : tensor<4xf16>) dimensions = [1]
  %lb = linalg.broadcast ins(%l : tensor<4xf16>) outs(%be : tensor<4x64xf16>) dimensions = [1]
  %y = arith.divf %p, %lb : tensor<4x64xf16>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #row, access_tile_order = #id}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %y, %ot : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

// -----

/// Two contractions of one space (2x16x16, square weights) where the second reads the first's
/// result at its reduced dim k (h[m, k], h computed over (m, ·, n)): not one pass of the
/// reduction pipeline reading an earlier one at its own kept dims, so h goes through a slot.

#id = affine_map<(d0, d1) -> (d0, d1)>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>

// CHECK-LABEL: func.func @square(
// CHECK:         %[[H:.*]] = arith.negf %{{.*}} : tensor<2x16xf16>
// CHECK:         %[[SV:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [2, 16], strides: [16, 1] {{.*}}ct_local
// CHECK-NEXT:    %[[ST:.*]] = ktdp.construct_access_tile %[[SV]]
// CHECK-NEXT:    ktdp.store %[[H]], %[[ST]]
// CHECK:         %[[HL:.*]] = ktdp.load %{{.*}} -> tensor<2x16xf16>
// CHECK:         linalg.generic {{.*}} ins(%[[HL]], %{{.*}} : tensor<2x16xf16>, tensor<16x16xf16>)
func.func @square(%xp: index, %w1p: index, %w2p: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %xp, sizes: [2, 16], strides: [16, 1] {
    coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<2x16xf16>
  %w1v = ktdp.construct_memory_view %w1p, sizes: [16, 16], strides: [16, 1] {
    coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %w2v = ktdp.construct_memory_view %w2p, sizes: [16, 16], strides: [16, 1] {
    coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %ov = ktdp.construct_memory_view %op, sizes: [2, 16], strides: [16, 1] {
    coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<2x16xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
      : memref<2x16xf16> -> !ktdp.access_tile<2x16xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<2x16xindex> -> tensor<2x16xf16>
  %w1t = ktdp.construct_access_tile %w1v[%c0, %c0] {access_tile_set = #w, access_tile_order = #id}
      : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %w1 = ktdp.load %w1t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %w2t = ktdp.construct_access_tile %w2v[%c0, %c0] {access_tile_set = #w, access_tile_order = #id}
      : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %w2 = ktdp.load %w2t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %e = tensor.empty() : tensor<2x16xf16>
  %h = linalg.matmul ins(%x, %w1 : tensor<2x16xf16>, tensor<16x16xf16>)
      outs(%e : tensor<2x16xf16>) -> tensor<2x16xf16>
  %hn = arith.negf %h : tensor<2x16xf16>
  %d = linalg.matmul ins(%hn, %w2 : tensor<2x16xf16>, tensor<16x16xf16>)
      outs(%e : tensor<2x16xf16>) -> tensor<2x16xf16>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
      : memref<2x16xf16> -> !ktdp.access_tile<2x16xindex>
  ktdp.store %d, %ot : tensor<2x16xf16>, !ktdp.access_tile<2x16xindex>
  return
}

// -----

/// A store of two reductions of different spaces (a sum over 4x64, a max over 4x32): the
/// results of all but the last space go through slots (the sum), then the remaining
/// reduction result, combined with a loaded tile, goes through one too (the max); the add is
/// an element-wise group.

#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#r = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
// CHECK-LABEL: func.func @mixed_store(
// CHECK:         %[[S:.*]] = linalg.reduce ins(%{{.*}}:tensor<4x64xf16>)
// CHECK:         ktdp.store %[[S]], %{{.*}} : tensor<4xf16>
// CHECK:         %[[SL:.*]] = ktdp.load %{{.*}} -> tensor<4xf16>
// CHECK:         %[[M:.*]] = linalg.reduce ins(%{{.*}}:tensor<4x32xf16>)
// CHECK:         ktdp.store %[[M]], %{{.*}} : tensor<4xf16>
// CHECK:         %[[ML:.*]] = ktdp.load %{{.*}} -> tensor<4xf16>
// CHECK:         %[[Y:.*]] = arith.addf %[[SL]], %[[ML]] : tensor<4xf16>
// CHECK:         ktdp.store %[[Y]]
func.func @mixed_store(%ap: index, %bp: index, %op: index) attributes {grid = [1]} {
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

// -----

/// A row's mean taken as a scalar (tensor.extract at [0], splat again) read by the variance
/// of the same 1x64 space: a row of one, read at its own index; nothing is cut.

#r = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>

// CHECK-LABEL: func.func @row_variance(
// CHECK-NOT:     ct_local
// CHECK:         func.return
func.func @row_variance(%xp: index, %op: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %xv = ktdp.construct_memory_view %xp, sizes: [1, 64], strides: [64, 1] {
    coordinate_set = #r, memory_space = #ktdp.memory_space<global>} : memref<1x64xf32>
  %ov = ktdp.construct_memory_view %op, sizes: [1], strides: [1] {
    coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #r, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}
      : memref<1x64xf32> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf32>
  %e = tensor.empty() : tensor<1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<1x64xf32>) outs(%z : tensor<1xf32>) dimensions = [1]
  %s0 = tensor.extract %s[%c0] : tensor<1xf32>
  %mean = arith.divf %s0, %n : f32
  %mb = tensor.splat %mean : tensor<1x64xf32>
  %d = arith.subf %x, %mb : tensor<1x64xf32>
  %d2 = arith.mulf %d, %d : tensor<1x64xf32>
  %v = linalg.reduce { arith.addf } ins(%d2 : tensor<1x64xf32>) outs(%z : tensor<1xf32>) dimensions = [1]
  %ot = ktdp.construct_access_tile %ov[%c0] {access_tile_set = #one, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<1xf32> -> !ktdp.access_tile<1xindex>
  ktdp.store %v, %ot : tensor<1xf32>, !ktdp.access_tile<1xindex>
  return
}
