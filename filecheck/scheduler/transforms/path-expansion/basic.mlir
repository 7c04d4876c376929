// RUN: ktir-opt %s -p path-expansion | filecheck %s

/// On the sample device, data from DDR reaches the SFU through DDR -> MNILU -> L1 -> L1LU ->
/// SFU and results leave through SFU -> L1SU -> L1 -> MNISU -> DDR. Each hop becomes a stage
/// bound to its unit with a new L1 buffer between the DMA and the load/store unit; a view
/// already in L1 (ct_local) needs only the L1LU hop, which joins the same L1LU stage. The FIFO
/// slots now start/end at the L1LU/L1SU, and the stage chain stays linear (one new token per
/// stage).

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[XC:.*]] = memref.memory_space_cast %{{.*}} to memref<4x64xf16, "DDR">
// CHECK:         %[[YC:.*]] = memref.memory_space_cast %{{.*}} to memref<4x64xf16, "L1">
// CHECK:         %[[ZC:.*]] = memref.memory_space_cast %{{.*}} to memref<4x64xf16, "DDR">
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          %[[A:[^,]*]], %[[B:[^,]*]], %[[C:[^,]*]], %[[BIN:[^,]*]], %[[BOUT:[^,]*]], %[[T0:[^,]*]], %[[T1:[^,]*]], %[[T2:[^,]*]], %[[T3:[^,]*]], %[[T4:[^ ]*]] = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-COUNT-2:         ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:            ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
// CHECK-NEXT:            %{{.*}} = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NEXT:            %{{.*}} = memref.alloc() : memref<1x64xf16, "L1">
// CHECK-COUNT-5:         ktdf.create_token : !ktdf.token
// CHECK-NEXT:            ktdf.private_yield
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK-NEXT:            ktdf.data_transfer from %[[XC]][%{{.*}} + %[[I]], %[[J]]] size [1, 64] to %[[BIN]][0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
// CHECK-NEXT:          } {applicable_units = ["MNILU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[T0]]) depends_out(%[[T1]]) {
// CHECK-NEXT:            ktdf.data_transfer from %[[BIN]][0, 0] size [1, 64] to %[[A]] size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:            ktdf.data_transfer from %[[YC]][%{{.*}} + %[[I]], %[[J]]] size [1, 64] to %[[B]] size [64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
// CHECK-NEXT:          } {applicable_units = ["L1LU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[T1]]) depends_out(%[[T2]]) {
// CHECK-NEXT:            ktdf.read_from_fifo %[[A]] : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:            ktdf.read_from_fifo %[[B]] : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK:                 ktdf.write_to_fifo %{{.*}}, %[[C]] : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
// CHECK-NEXT:          } {applicable_units = ["SFU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[T2]]) depends_out(%[[T3]]) {
// CHECK-NEXT:            ktdf.data_transfer from %[[C]] size [64] to %[[BOUT]][0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
// CHECK-NEXT:          } {applicable_units = ["L1SU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[T3]]) depends_out(%[[T4]]) {
// CHECK-NEXT:            ktdf.data_transfer from %[[BOUT]][0, 0] size [1, 64] to %[[ZC]][%{{.*}} + %[[I]], %[[J]]] size [1, 64] : memref<1x64xf16, "L1">, memref<4x64xf16, "DDR">
// CHECK-NEXT:          } {applicable_units = ["MNISU"]}
// CHECK-NEXT:        }
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index, %z: index) attributes {grid = [2]} {
      %c2 = arith.constant 2 : index
      %tid = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %tid, %c2 : index
      %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %xc = memref.memory_space_cast %xv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<ct_local>} : memref<4x64xf16>
      %yc = memref.memory_space_cast %yv : memref<4x64xf16> to memref<4x64xf16, "L1">
      %zv = ktdp.construct_memory_view %z, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %zc = memref.memory_space_cast %zv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      scf.for %i = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c64 step %c64 {
          ktdf.pipeline {
            %a, %b, %c, %t0, %t1, %t2 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
              %sa = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
              %sb = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
              %sc = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
              %k0 = ktdf.create_token : !ktdf.token
              %k1 = ktdf.create_token : !ktdf.token
              %k2 = ktdf.create_token : !ktdf.token
              ktdf.private_yield %sa, %sb, %sc, %k0, %k1, %k2 : !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%t0) {
              ktdf.data_transfer from %xc[%row0 + %i, %j] size [1, 64] to %a size [64] : memref<4x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
              ktdf.data_transfer from %yc[%row0 + %i, %j] size [1, 64] to %b size [64] : memref<4x64xf16, "L1">, !ktdf.fifo.slot<"L1" -> "SFU", 64xf16>
            }
            ktdf.stage depends_in(%t0) depends_out(%t1) {
              %ra = ktdf.read_from_fifo %a : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %rb = ktdf.read_from_fifo %b : <"L1" -> "SFU", 64xf16> -> tensor<1x64xf16>
              %e = tensor.empty() : tensor<1x64xf16>
              %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ra, %rb : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
              ^bb0(%p: f16, %q: f16, %o: f16):
                %sum = arith.addf %p, %q : f16
                linalg.yield %sum : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %s, %c : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
            } {applicable_units = ["SFU"]}
            ktdf.stage depends_in(%t1) depends_out(%t2) {
              ktdf.data_transfer from %c size [64] to %zc[%row0 + %i, %j] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<4x64xf16, "DDR">
            }
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
