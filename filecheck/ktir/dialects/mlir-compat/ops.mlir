// RUN: ktir-opt %s | filecheck %s
// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// MLIR syntax that upstream kernels use and xDSL 0.74 lacks (ktir/dialects/mlir_compat.py):
/// each form parses, prints back in a form that parses again, and survives generic form.

// CHECK-LABEL: func.func @loops(
// CHECK-SAME:    %[[N:.*]]: index, %[[X:.*]]: f32) -> f32
// CHECK:         %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[X]]) -> (f32) {
// CHECK-NEXT:      %[[Y:.*]] = arith.remf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      scf.yield %[[Y]] : f32
// CHECK:         arith.index_castui %[[N]] : index to i32
// CHECK-NEXT:    func.return %[[R]] : f32

// CHECK-LABEL: func.func @tensors(
// CHECK:         %[[M:.*]] = linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%{{.*}} : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
// CHECK-NEXT:    %[[Q:.*]] = linalg.div ins(%[[M]], %[[M]] : tensor<2x4x4xf16>, tensor<2x4x4xf16>)
// CHECK-NEXT:    linalg.reduce ins(%{{.*}}:tensor<4x8xf16>) outs(%{{.*}}:tensor<4xf16>) dimensions = [1]
// CHECK-NEXT:    (%[[A:.*]]: f16, %[[B:.*]]: f16) {
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[B]] : f16
// CHECK-NEXT:      linalg.yield %[[S]] : f16

// CHECK-LABEL: func.func @memrefs(
// CHECK-SAME:    %[[MM:.*]]: memref<64xf16>, %[[L:.*]]: memref<64xf16, "L1">)
// CHECK-NEXT:    %[[G:.*]] = memref.memory_space_cast %[[MM]] : memref<64xf16> to memref<64xf16, "DDR">
// CHECK-NEXT:    memref.cast %[[MM]] : memref<64xf16> to memref<?xf16>
// CHECK-NEXT:    memref.copy %[[G]], %[[L]] : memref<64xf16, "DDR"> to memref<64xf16, "L1">

// CHECK: memref.global "private" constant @table : memref<2x2xi32> = dense<[[1, 2], [3, 4]]> {alignment = 64 : i64}
// CHECK: memref.global @ones : memref<64xf16> = dense<1.000000e+00>
// CHECK: memref.global @external : memref<4xf32>{{$}}
// CHECK: memref.global "private" @scratch : memref<4xf32> = uninitialized

func.func @loops(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 {
    %y = arith.remf %acc, %x : f32
    scf.yield %y : f32
  }
  %u = arith.index_castui %n : index to i32
  return %r : f32
}
func.func @tensors(%a: tensor<2x4x8xf16>, %b: tensor<2x8x4xf16>, %c: tensor<2x4x4xf16>, %d: tensor<4xf16>, %e: tensor<4x8xf16>) -> tensor<2x4x4xf16> {
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%c : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %q = linalg.div ins(%m, %m : tensor<2x4x4xf16>, tensor<2x4x4xf16>) outs(%c : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s = linalg.reduce { arith.addf } ins(%e : tensor<4x8xf16>) outs(%d : tensor<4xf16>) dimensions = [1]
  return %q : tensor<2x4x4xf16>
}
func.func @memrefs(%m: memref<64xf16>, %l: memref<64xf16, "L1">) {
  %g = memref.memory_space_cast %m : memref<64xf16> to memref<64xf16, "DDR">
  %d = memref.cast %m : memref<64xf16> to memref<?xf16>
  memref.copy %g, %l : memref<64xf16, "DDR"> to memref<64xf16, "L1">
  return
}
memref.global "private" constant @table : memref<2x2xi32> = dense<[[1, 2], [3, 4]]> {alignment = 64 : i64}
memref.global @ones : memref<64xf16> = dense<1.0>
memref.global @external : memref<4xf32>
memref.global "private" @scratch : memref<4xf32> = uninitialized

// Element-wise forms on tensors: a select by a tensor of conditions (its type printed, an i1
// condition's not), comparisons giving a tensor of i1, the integer casts, linalg.div on ints.
// CHECK-LABEL: func.func @elementwise_tensors(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<4xf16>, %[[B:[^:]*]]: tensor<4xf16>, %[[I:[^:]*]]: tensor<4xi8>, %[[C:[^:]*]]: i1)
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[A]], %[[B]] : tensor<4xf16>
// CHECK-NEXT:    arith.select %[[LT]], %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf16>
// CHECK-NEXT:    arith.select %[[C]], %[[A]], %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[I]], %[[I]] : tensor<4xi8>
// CHECK-NEXT:    %[[W:.*]] = arith.extsi %[[I]] : tensor<4xi8> to tensor<4xi32>
// CHECK-NEXT:    arith.sitofp %[[W]] : tensor<4xi32> to tensor<4xf32>
// CHECK-NEXT:    arith.uitofp %[[I]] : tensor<4xi8> to tensor<4xf16>
// CHECK-NEXT:    arith.fptosi %[[A]] : tensor<4xf16> to tensor<4xi16>
// CHECK-NEXT:    arith.fptoui %[[A]] : tensor<4xf16> to tensor<4xi8>
// CHECK-NEXT:    arith.trunci %[[W]] : tensor<4xi32> to tensor<4xi8>
// CHECK-NEXT:    arith.extui %[[I]] : tensor<4xi8> to tensor<4xi16>
// CHECK:         linalg.div ins(%[[W]], %[[W]] : tensor<4xi32>, tensor<4xi32>)
func.func @elementwise_tensors(%a: tensor<4xf16>, %b: tensor<4xf16>, %i: tensor<4xi8>, %c: i1) {
  %lt = arith.cmpf olt, %a, %b : tensor<4xf16>
  %s = arith.select %lt, %a, %b : tensor<4xi1>, tensor<4xf16>
  %s2 = arith.select %c, %a, %b : tensor<4xf16>
  %eq = arith.cmpi eq, %i, %i : tensor<4xi8>
  %w = arith.extsi %i : tensor<4xi8> to tensor<4xi32>
  %f = arith.sitofp %w : tensor<4xi32> to tensor<4xf32>
  %u = arith.uitofp %i : tensor<4xi8> to tensor<4xf16>
  %t = arith.fptosi %a : tensor<4xf16> to tensor<4xi16>
  %tu = arith.fptoui %a : tensor<4xf16> to tensor<4xi8>
  %n = arith.trunci %w : tensor<4xi32> to tensor<4xi8>
  %z = arith.extui %i : tensor<4xi8> to tensor<4xi16>
  %e = tensor.empty() : tensor<4xi32>
  %d = linalg.div ins(%w, %w : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  return
}

// A generic of two results (an all-reduce's one sum to two slots): MLIR spells them
// `-> (T, T)`, which xDSL 0.74 prints but read as a function type. One result stays bare.
// CHECK-LABEL: func.func @generic_results(
// CHECK:         %[[P:.*]], %[[Q:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) {
// CHECK:         } -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:         linalg.generic {{.*}} attrs = {note = 1 : i64} {
// CHECK:         } -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[P]], %[[Q]] : tensor<4xf32>, tensor<4xf32>
func.func @generic_results(%a: tensor<4xf32>, %o: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %p, %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o, %o : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s, %s : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) attrs = {note = 1} {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %p, %q : tensor<4xf32>, tensor<4xf32>
}
