// RUN: ktir-opt %s -p 'ktir-to-dfir{stop_at=reduction-loop-exposure}' | filecheck %s

/// How many rows an instance of a matmul covers: here two k chunks of 32 (the kernel rounds
/// each chunk's product to f16 and adds them), so each row has two partial vectors of 32
/// f32; spyre's PE holds 16 vectors (2 KiB), so 8 of the 16 rows per instance (Mt = 8, two
/// instances along m; on spyre's units without its matrix engine, Inputs/spyre-simd.mlir).
/// Each instance's DMA brings A's 8x32 blocks and B's 32x32 blocks once; per k the load unit
/// sends one A column of 8 and one B row per chunk, and the compute stage carries one 8-row
/// partial per chunk.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %[[M:v0]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         ktdf.data_transfer from %{{[^[]+}}[%[[M]] * 8, {{.*}}] size [8, 32] to %[[A0:[0-9]+]][0, 0] size [8, 32]
// CHECK-NEXT:    ktdf.data_transfer from %{{[^[]+}}[{{.*}}] size [32, 32] to %[[B0:[0-9]+]][0, 0] size [32, 32]
// CHECK-NEXT:    ktdf.data_transfer from %{{[^[]+}}[%[[M]] * 8, {{.*}} + 32] size [8, 32] to %[[A1:[0-9]+]][0, 0] size [8, 32]
// CHECK-NEXT:    ktdf.data_transfer from %{{[^[]+}}[{{.*}} + 32, {{.*}}] size [32, 32] to %[[B1:[0-9]+]][0, 0] size [32, 32]
// CHECK-NEXT:  } {applicable_units = ["DMA_IN"]}
// CHECK:         scf.for %[[R:r[0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf.data_transfer from %[[A0]][0, %[[R]]] size [8, 1] to %{{.*}} size [8]
// CHECK-NEXT:      ktdf.data_transfer from %[[B0]][%[[R]], 0] size [1, 32] to %{{.*}} size [32]
// CHECK-NEXT:      ktdf.data_transfer from %[[A1]][0, %[[R]]] size [8, 1] to %{{.*}} size [8]
// CHECK-NEXT:      ktdf.data_transfer from %[[B1]][%[[R]], 0] size [1, 32] to %{{.*}} size [32]
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<8x1x32xf32>, tensor<8x1x32xf32>) {
// CHECK:         ktdf.data_transfer from %{{.*}} size [256] to %[[C:[0-9]+]][0, 0] size [8, 32]
// CHECK:         ktdf.data_transfer from %[[C]][0, 0] size [8, 32] to %{{[^[]+}}[%[[M]] * 8, {{.*}}] size [8, 32]

ktdf_arch.device @spyre_simd import("Inputs/spyre-simd.mlir")
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_rows(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %Av = ktdp.construct_memory_view %A, sizes: [16, 64], strides: [64, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64, 32], strides: [32, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [16, 32], strides: [32, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf16>
  %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%part = %zero) -> (tensor<16x32xf16>) {
    %at = ktdp.construct_access_tile %Av[%c0, %k] {access_tile_order = #id, access_tile_set = #a_blk} : memref<16x64xf16> -> !ktdp.access_tile<16x32xindex>
    %bt = ktdp.construct_access_tile %Bv[%k, %c0] {access_tile_order = #id, access_tile_set = #b_blk} : memref<64x32xf16> -> !ktdp.access_tile<32x32xindex>
    %a = ktdp.load %at : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %init = tensor.empty() : tensor<16x32xf16>
    %p = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x32xf16>) outs(%init : tensor<16x32xf16>) -> tensor<16x32xf16>
    %next = arith.addf %part, %p : tensor<16x32xf16>
    scf.yield %next : tensor<16x32xf16>
  }
  %ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_order = #id, access_tile_set = #c_all} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  ktdp.store %acc, %ct : tensor<16x32xf16>, !ktdp.access_tile<16x32xindex>
  return
}
