// RUN: ktir-opt %s -p ktdf-to-ktdflowering | filecheck %s

/// The scheduled negation over 2 tiles (sample device) bound to hardware. Every unit kind a
/// stage runs on and every memory a buffer or view lives in is materialised per core
/// (C0-/C1-), the global DDR once; a `uniform` table keyed by the tile id picks the executing
/// tile's unit. The pipeline becomes an `execute_on` over all its units holding the former
/// private contents, each stage an `execute_on` of its unit. Stages that hand over an L1
/// buffer (MNILU -> L1LU, L1SU -> MNISU) handshake with `signal` after the writer and before
/// the reader, and across loop iterations the reader releases the buffer at its end (skipped
/// in the last iteration) and the writer waits for it at its start (skipped in the first).
/// FIFO-connected stages (L1LU -> SFU -> L1SU) need no signal.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-NEXT:    %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[MNILU0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
// CHECK-NEXT:    %[[MNILU1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
// CHECK-NEXT:    %[[MNILUS:.*]] = uniform.def_immutable_mapping([%[[K0]] -> %[[MNILU0]]], [%[[K1]] -> %[[MNILU1]]]):index
// CHECK-NEXT:    %[[MNILU:.*]] = uniform.query_map(map:%[[MNILUS]], key:%[[TID]]) : index
// CHECK:         %[[L1LU:.*]] = uniform.query_map(map:%{{.*}}, key:%[[TID]]) : index
// CHECK:         %[[SFU:.*]] = uniform.query_map(map:%{{.*}}, key:%[[TID]]) : index
// CHECK:         %[[L1SU:.*]] = uniform.query_map(map:%{{.*}}, key:%[[TID]]) : index
// CHECK:         %[[MNISU:.*]] = uniform.query_map(map:%{{.*}}, key:%[[TID]]) : index
// CHECK-NEXT:    dataflow.get_unit {name = "DDR", type = "DDR"} : index
// CHECK-NEXT:    dataflow.get_unit {core = 0 : i32, name = "C0-L1", type = "L1"} : index
// CHECK-NEXT:    dataflow.get_unit {core = 1 : i32, name = "C1-L1", type = "L1"} : index
// CHECK-NOT:     ktdp.get_compute_tile_id
// CHECK:         scf.for %[[I:.*]] = %[[LB:.*]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      ktdf_lowering.execute_on %[[MNILU]], %[[L1LU]], %[[SFU]], %[[L1SU]], %[[MNISU]] {
// CHECK-NEXT:        %[[S:.*]] = ktdf.fifo.allocate()
// CHECK-NEXT:        %[[R:.*]] = ktdf.fifo.allocate()
// CHECK-NEXT:        arith.constant 0 : index
// CHECK-NEXT:        %[[BIN:.*]] = builtin.unrealized_conversion_cast
// CHECK-NEXT:        arith.constant 64 : index
// CHECK-NEXT:        %[[BOUT:.*]] = builtin.unrealized_conversion_cast
// CHECK-COUNT-5:     ktdf.create_token
// CHECK-NEXT:        ktdf_lowering.execute_on %[[MNILU]] {
// CHECK-NEXT:          %[[FIRST:.*]] = arith.cmpi eq, %[[I]], %[[LB]] : index
// CHECK-NEXT:          scf.if %[[FIRST]] {
// CHECK-NEXT:          } else {
// CHECK-NEXT:            ktdf_lowering.signal %[[MNILU]], %[[L1LU]] {applicable_units = ["MNILU"]}
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.data_transfer from %{{.*}} to %[[BIN]][0, 0]
// CHECK-NEXT:          ktdf_lowering.signal %[[MNILU]], %[[L1LU]] {applicable_units = ["MNILU"]}
// CHECK-NEXT:        } {applicable_units = ["MNILU"]}
// CHECK-NEXT:        ktdf_lowering.execute_on %[[L1LU]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[MNILU]], %[[L1LU]] {applicable_units = ["L1LU"]}
// CHECK-NEXT:          ktdf.data_transfer from %[[BIN]][0, 0] size [1, 64] to %[[S]] size [64]
// CHECK-NEXT:          %[[LASTI:.*]] = arith.constant 1 : index
// CHECK-NEXT:          %[[LAST:.*]] = arith.cmpi eq, %[[I]], %[[LASTI]] : index
// CHECK-NEXT:          scf.if %[[LAST]] {
// CHECK-NEXT:          } else {
// CHECK-NEXT:            ktdf_lowering.signal %[[MNILU]], %[[L1LU]] {applicable_units = ["L1LU"]}
// CHECK-NEXT:          }
// CHECK-NEXT:        } {applicable_units = ["L1LU"]}
// CHECK-NEXT:        ktdf_lowering.execute_on %[[SFU]] {
// CHECK-NOT:           ktdf_lowering.signal
// CHECK:             ktdf.write_to_fifo %{{.*}}, %[[R]]
// CHECK-NEXT:        } {applicable_units = ["SFU"]}
// CHECK-NEXT:        ktdf_lowering.execute_on %[[L1SU]] {
// CHECK:               ktdf_lowering.signal %[[L1SU]], %[[MNISU]] {applicable_units = ["L1SU"]}
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.data_transfer from %[[R]] size [64] to %[[BOUT]][0, 0]
// CHECK-NEXT:          ktdf_lowering.signal %[[L1SU]], %[[MNISU]] {applicable_units = ["L1SU"]}
// CHECK-NEXT:        } {applicable_units = ["L1SU"]}
// CHECK-NEXT:        ktdf_lowering.execute_on %[[MNISU]] {
// CHECK-NEXT:          ktdf_lowering.signal %[[L1SU]], %[[MNISU]] {applicable_units = ["MNISU"]}
// CHECK-NEXT:          ktdf.data_transfer from %[[BOUT]][0, 0]
// CHECK:               ktdf_lowering.signal %[[L1SU]], %[[MNISU]] {applicable_units = ["MNISU"]}
// CHECK-NEXT:          }
// CHECK-NEXT:        } {applicable_units = ["MNISU"]}
// CHECK-NEXT:      } {applicable_units = ["MNILU", "L1LU", "SFU", "L1SU", "MNISU"]}
// CHECK-NOT:     ktdf.pipeline
// CHECK-NOT:     ktdf.stage
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %c2 = arith.constant 2 : index
      %tid = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %tid, %c2 : index
      %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %xc = memref.memory_space_cast %xv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %yc = memref.memory_space_cast %yv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %s, %r, %bin, %bout, %t0, %t1, %t2, %t3, %t4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
            %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %r0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            %a0 = arith.constant 0 : index
            %buf_in = builtin.unrealized_conversion_cast %a0 : index to memref<1x64xf16, "L1">
            %a1 = arith.constant 64 : index
            %buf_out = builtin.unrealized_conversion_cast %a1 : index to memref<1x64xf16, "L1">
            %k0 = ktdf.create_token : !ktdf.token
            %k1 = ktdf.create_token : !ktdf.token
            %k2 = ktdf.create_token : !ktdf.token
            %k3 = ktdf.create_token : !ktdf.token
            %k4 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %s0, %r0, %buf_in, %buf_out, %k0, %k1, %k2, %k3, %k4 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%t0) {
            ktdf.data_transfer from %xc[%row0 + %i, %c0] size [1, 64] to %bin[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%t0) depends_out(%t1) {
            ktdf.data_transfer from %bin[0, 0] size [1, 64] to %s size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%t1) depends_out(%t2) {
            %a = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %e = tensor.empty() : tensor<1x64xf16>
            %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
            ^bb0(%p: f16, %o: f16):
              %m = arith.negf %p : f16
              linalg.yield %m : f16
            } -> tensor<1x64xf16>
            ktdf.write_to_fifo %n, %r : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%t2) depends_out(%t3) {
            ktdf.data_transfer from %r size [64] to %bout[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
          } {applicable_units = ["L1SU"]}
          ktdf.stage depends_in(%t3) depends_out(%t4) {
            ktdf.data_transfer from %bout[0, 0] size [1, 64] to %yc[%row0 + %i, %c0] size [1, 64] : memref<1x64xf16, "L1">, memref<4x64xf16, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
