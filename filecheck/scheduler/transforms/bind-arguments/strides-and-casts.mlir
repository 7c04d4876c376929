// RUN: ktir-opt %s --allow-unregistered-dialect -p 'bind-arguments{values="N=2048"}' | filecheck %s
// RUN: ktir-opt %s --allow-unregistered-dialect -p 'bind-arguments{values="N=2048"},bind-arguments{values="N=2048"}' | filecheck %s

/// Once N is bound, a view with strides [%N, 1] takes the static strides [2048, 1] (its type,
/// memref<?x?xf16>, and its dynamic sizes are kept), and casts of the constant fold:
/// index_cast to i64, then sitofp to f32, is the constant 2048.0 (to f16 likewise, rounded as
/// the cast rounds). An unbound stride stays an operand.

// CHECK-LABEL: func.func @views(
// CHECK:         %[[N:.*]] = arith.constant 2048 : index
// CHECK:         ktdp.construct_memory_view %{{.*}}, sizes: [%{{.*}}, %[[N]]], strides: [2048, 1] {{.*}} : memref<?x?xf16>
// CHECK:         ktdp.construct_memory_view %{{.*}}, sizes: [4, 4], strides: [%{{.*}}, 1] {{.*}} : memref<4x4xf16>
// CHECK:         %[[F:.*]] = arith.constant 2.048000e+03 : f32
// CHECK:         %[[H:.*]] = arith.constant 2.048000e+03 : f16
// CHECK:         "test.use"(%[[F]], %[[H]]) : (f32, f16) -> ()
func.func @views(%X: index, %M: index, %N: index, %S: index) {
  %v = ktdp.construct_memory_view %X, sizes: [%M, %N], strides: [%N, 1] {coordinate_set = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  %w = ktdp.construct_memory_view %X, sizes: [4, 4], strides: [%S, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x4xf16>
  %i = arith.index_cast %N : index to i64
  %f = arith.sitofp %i : i64 to f32
  %i1 = arith.index_cast %N : index to i32
  %h = arith.sitofp %i1 : i32 to f16
  "test.use"(%f, %h) : (f32, f16) -> ()
  return
}
