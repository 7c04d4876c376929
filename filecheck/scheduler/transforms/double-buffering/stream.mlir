// RUN: ktir compile %s -d spyre -q --stop-at double-buffering | filecheck %s
// RUN: ktir compile %s -d spyre -q --stop-at ktdf-to-ktdflowering | filecheck %s --check-prefix=SIG
// RUN: ktir compile %s -d spyre -q --stop-at double-buffering --disable double-buffering | filecheck %s --check-prefix=ONE
// RUN: ktir compile %s -d spyre -q | filecheck %s --check-prefix=DFIR
// RUN: ktir run %s -d spyre 2>/dev/null | filecheck %s --check-prefix=EMU

/// A K loop of four steps streamed through the contraction pipeline's one instance (one
/// tile: no memory shared with other tiles, so the prefetch costs nothing): the A and B
/// scratchpad buffers the DMA fills and the load unit drains every step get two copies,
/// picked inside both loops by the phase of (instance, step), and the loops are marked
/// `ktdf.stream_copies = 2`; ktdf-to-ktdflowering then lets the DMA run two steps ahead
/// (one-way signals: it waits for the reader's "free" from the third step on, the reader
/// posts it except in the last two). 1,095 cycles (1,263 with one copy, 1,441 with every
/// step's blocks resident), bitwise.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.pipeline {
// CHECK:           memref.alloc() : memref<16x32xf16, "LX">
// CHECK:           %[[A1:.*]] = memref.alloc() : memref<16x32xf16, "LX">
// CHECK-NEXT:      %[[B1:.*]] = memref.alloc() : memref<32x64xf16, "LX">
// CHECK-NEXT:      ktdf.private_yield {{.*}}, %[[A1]], %[[B1]] :
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[PH:.*]] = ktdf.buffer_phase(%{{.*}}, %{{.*}}, %{{.*}}, %[[K]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[SB:.*]] = ktdf.select_memref %[[PH]][%{{.*}}, %{{.*}}] : memref<32x64xf16, "LX">
// CHECK-NEXT:        %[[SA:.*]] = ktdf.select_memref %[[PH]][%{{.*}}, %{{.*}}] : memref<16x32xf16, "LX">
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}} to %[[SA]][0, 0] size [16, 32]
// CHECK-NEXT:        ktdf.data_transfer from %{{.*}} to %[[SB]][0, 0] size [32, 64]
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.stream_copies = 2 : i64}
// CHECK-NEXT:    } {applicable_units = ["DMA_IN"]}
// CHECK:           scf.for %[[K1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[PH1:.*]] = ktdf.buffer_phase(%{{.*}}, %{{.*}}, %{{.*}}, %[[K1]]) {num_phases = 2 : i64} : index
// CHECK-NEXT:        %[[RB:.*]] = ktdf.select_memref %[[PH1]]
// CHECK-NEXT:        %[[RA:.*]] = ktdf.select_memref %[[PH1]]
// CHECK-NEXT:        ktdf.data_transfer from %[[RA]][0, 0] size [16, 32] to
// CHECK-NEXT:        ktdf.data_transfer from %[[RB]][0, 0] size [32, 64] to
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.stream_copies = 2 : i64}
// CHECK-NEXT:    } {applicable_units = ["LX_LOAD"]}

// SIG-LABEL:   ktdf_lowering.execute_on %dma_in_1 {
// SIG:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// SIG:             %[[FROM3:.*]] = arith.cmpi uge, %{{.*}}, %{{.*}} : index
// SIG-NEXT:        scf.if %[[FROM3]] {
// SIG-NEXT:          ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["DMA_IN"], sync = "recv"}
// SIG:             ktdf.data_transfer
// SIG-NEXT:        ktdf.data_transfer
// SIG-NEXT:        ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["DMA_IN"], sync = "send"}
// SIG-NEXT:      }
// SIG-LABEL:   ktdf_lowering.execute_on %lx_load_1 {
// SIG:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// SIG-NEXT:        ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["LX_LOAD"], sync = "recv"}
// SIG:             %[[BEFORE2:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// SIG-NEXT:        scf.if %[[BEFORE2]] {
// SIG-NEXT:          ktdf_lowering.signal %dma_in_1, %lx_load_1 {applicable_units = ["LX_LOAD"], sync = "send"}

// ONE-NOT:     ktdf.buffer_phase
// ONE-NOT:     ktdf.stream_copies

// DataflowIR carries no ScheduleIR mark (control.py strips the loops' marks):
// DFIR-NOT:    ktdf.stream_copies
// DFIR:        matrixchain.matmul
// DFIR-NOT:    ktdf.stream_copies

// EMU: emulate {{.*}} 1095 cycles
// EMU: check      C 16x64 float16: matches the reference (bitwise; max abs error 0)

#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_stream(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %Av = ktdp.construct_memory_view %A, sizes: [16, 128], strides: [128, 1] {coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [128, 64], strides: [64, 1] {coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [16, 64], strides: [64, 1] {coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x64xf16>
  %acc = scf.for %k = %c0 to %c128 step %c32 iter_args(%part = %zero) -> (tensor<16x64xf16>) {
    %at = ktdp.construct_access_tile %Av[%c0, %k] {access_tile_order = #id, access_tile_set = #a_blk} : memref<16x128xf16> -> !ktdp.access_tile<16x32xindex>
    %bt = ktdp.construct_access_tile %Bv[%k, %c0] {access_tile_order = #id, access_tile_set = #b_blk} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
    %a = ktdp.load %at : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %next = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x64xf16>) outs(%part : tensor<16x64xf16>) -> tensor<16x64xf16>
    scf.yield %next : tensor<16x64xf16>
  }
  %ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_order = #id, access_tile_set = #c_all} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  ktdp.store %acc, %ct : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}
