// RUN: ktir-opt %s -p ktdflowering-to-dfir | filecheck %s

/// The bound negation (after ktdf-to-ktdflowering) becomes one `dataflow.program_unit` per unit
/// kind, run by that kind's units of both cores. Each program finds its tile through a
/// unit -> tile table keyed by its `iter_arg` and keeps only its own work: MNILU copies DDR
/// rows into the L1 buffer with an asynchronous DMA (a composite op whose region only yields),
/// L1LU streams the buffer to the SFU (`vector_load` + `send`), the SFU negates what it
/// receives (`vectorchain.neg`), L1SU stores into the second buffer, MNISU copies it to DDR.
/// Kernel arguments become symbols (-1, -2), views and buffers logical memory views (element
/// addresses 0 and 64 in L1), and each `signal` a `sync_send` + `sync_recv` to the peer.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[MNILU0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
// CHECK-NEXT:    %[[MNILU1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
// CHECK:         %[[DDR:.*]] = dataflow.get_unit {name = "DDR", type = "DDR"} : index
// CHECK:         %[[TABLE:.*]] = uniform.def_immutable_mapping([%[[MNILU0]] -> %{{.*}}], [%[[MNILU1]] -> %{{.*}}]):index
// CHECK-NOT:     ktdf

// CHECK:         dataflow.program_unit iter_arg : %[[U:.*]] -> (%[[MNILU0]], %[[MNILU1]]) : {
// CHECK-NEXT:      %[[TILE:.*]] = uniform.query_map(map:%[[TABLE]], key:%[[U]]) : index
// CHECK-NEXT:      %[[LU:.*]] = uniform.query_map(map:%{{.*}}, key:%[[TILE]]) : index
// CHECK-NEXT:      %[[L1:.*]] = uniform.query_map(map:%{{.*}}, key:%[[TILE]]) : index
// CHECK-NEXT:      %[[ROW0:.*]] = arith.muli %[[TILE]], %{{.*}} : index
// CHECK-NEXT:      %[[SX:.*]] = symbol.create_symbol {SymbolId = -1 : i64} : index
// CHECK-NEXT:      %[[XV:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[SX]] {layout_map = affine_map<(d0, d1) -> (((d0 * 64) + d1))>} : index, index, memref<4x64xf16>
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[A0:.*]] = arith.constant 0 : index
// CHECK-NEXT:        %[[BIN:.*]] = dataflow.get_logical_memory_view %[[L1]], %[[A0]] {{.*}} : index, index, memref<1x64xf16>
// CHECK-NEXT:        %[[FIRST:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[FIRST]] {
// CHECK-NEXT:        } else {
// CHECK-NEXT:          dataflow.sync_send %[[LU]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:          dataflow.sync_recv %[[LU]] : index
// CHECK-NEXT:        }
// CHECK-NEXT:        agen.composite_load_and_store src:%[[XV]][%[[ROW0]] + %[[I]], %{{.*}}] dst:%[[BIN]][0, 0]
// CHECK-NEXT:         time_symbols(), load_iv(%{{.*}}:vector<64xf16>)
// CHECK-NEXT:         {{{.*}}time_set = affine_set<(d0) : (d0 == 0)>}
// CHECK-NEXT:        {
// CHECK-NEXT:          agen.yield
// CHECK-NEXT:        } : memref<4x64xf16>, memref<1x64xf16>
// CHECK-NEXT:        dataflow.sync_send %[[LU]] {wait_immediately_for_async_transfers = true} : index
// CHECK-NEXT:        dataflow.sync_recv %[[LU]] : index
// CHECK-NEXT:      }
// CHECK-NEXT:    }

// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}, %{{.*}}) : {
// CHECK:             %[[V:.*]] = agen.vector_load %{{.*}}[0, 0] {{.*}} : memref<1x64xf16>, vector<64xf16>
// CHECK-NEXT:        dataflow.send %[[TOSFU:.*]], %[[V]] : vector<64xf16>

// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}, %{{.*}}) : {
// CHECK:             %[[IN:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:        %[[NEG:.*]] = vectorchain.neg %[[IN]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:        dataflow.send %{{.*}}, %[[NEG]] : vector<64xf16>

// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}, %{{.*}}) : {
// CHECK:             %[[A1:.*]] = arith.constant 64 : index
// CHECK-NEXT:        %[[BOUT:.*]] = dataflow.get_logical_memory_view %{{.*}}, %[[A1]]
// CHECK:             %[[OUT:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:        agen.vector_store %[[OUT]], %[[BOUT]][0, 0] {{.*}} : memref<1x64xf16>, vector<64xf16>

// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%{{.*}}, %{{.*}}) : {
// CHECK:           %[[SY:.*]] = symbol.create_symbol {SymbolId = -2 : i64} : index
// CHECK-NEXT:      %[[YV:.*]] = dataflow.get_logical_memory_view %[[DDR]], %[[SY]]
// CHECK:             agen.composite_load_and_store src:%{{.*}}[0, 0] dst:%[[YV]][%{{.*}}, %{{.*}}]
// CHECK:         func.return
// CHECK-NOT:     ktdf_lowering
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2 : i64]} {
      %tid = ktdp.get_compute_tile_id : index
      %0 = arith.constant 0 : index
      %1 = arith.constant 1 : index
      %mnilu = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      %mnilu_1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
      %mnilu_of_tile = uniform.def_immutable_mapping([%0 -> %mnilu], [%1 -> %mnilu_1]):index
      %mnilu_2 = uniform.query_map(map:%mnilu_of_tile, key:%tid) : index
      %l1lu = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
      %l1lu_1 = dataflow.get_unit {core = 1 : i32, name = "C1-L1LU", type = "L1LU"} : index
      %l1lu_of_tile = uniform.def_immutable_mapping([%0 -> %l1lu], [%1 -> %l1lu_1]):index
      %l1lu_2 = uniform.query_map(map:%l1lu_of_tile, key:%tid) : index
      %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      %sfu_1 = dataflow.get_unit {core = 1 : i32, name = "C1-SFU", type = "SFU"} : index
      %sfu_of_tile = uniform.def_immutable_mapping([%0 -> %sfu], [%1 -> %sfu_1]):index
      %sfu_2 = uniform.query_map(map:%sfu_of_tile, key:%tid) : index
      %l1su = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
      %l1su_1 = dataflow.get_unit {core = 1 : i32, name = "C1-L1SU", type = "L1SU"} : index
      %l1su_of_tile = uniform.def_immutable_mapping([%0 -> %l1su], [%1 -> %l1su_1]):index
      %l1su_2 = uniform.query_map(map:%l1su_of_tile, key:%tid) : index
      %mnisu = dataflow.get_unit {core = 0 : i32, name = "C0-MNISU", type = "MNISU"} : index
      %mnisu_1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNISU", type = "MNISU"} : index
      %mnisu_of_tile = uniform.def_immutable_mapping([%0 -> %mnisu], [%1 -> %mnisu_1]):index
      %mnisu_2 = uniform.query_map(map:%mnisu_of_tile, key:%tid) : index
      %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
      %l1 = dataflow.get_unit {core = 0 : i32, name = "C0-L1", type = "L1"} : index
      %l1_1 = dataflow.get_unit {core = 1 : i32, name = "C1-L1", type = "L1"} : index
      %l1_of_tile = uniform.def_immutable_mapping([%0 -> %l1], [%1 -> %l1_1]):index
      %l1_2 = uniform.query_map(map:%l1_of_tile, key:%tid) : index
      %c2 = arith.constant 2 : index
      %row0 = arith.muli %tid, %c2 : index
      %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %xc = memref.memory_space_cast %xv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %yc = memref.memory_space_cast %yv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf_lowering.execute_on %mnilu_2, %l1lu_2, %sfu_2, %l1su_2, %mnisu_2 {
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
          ktdf_lowering.execute_on %mnilu_2 {
            %2 = arith.cmpi eq, %i, %c0 : index
            scf.if %2 {
            } else {
              ktdf_lowering.signal %mnilu_2, %l1lu_2 {applicable_units = ["MNILU"]}
            }
            ktdf.data_transfer from %xc[%row0 + %i, %c0] size [1, 64] to %buf_in[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
            ktdf_lowering.signal %mnilu_2, %l1lu_2 {applicable_units = ["MNILU"]}
          } {applicable_units = ["MNILU"]}
          ktdf_lowering.execute_on %l1lu_2 {
            ktdf_lowering.signal %mnilu_2, %l1lu_2 {applicable_units = ["L1LU"]}
            ktdf.data_transfer from %buf_in[0, 0] size [1, 64] to %s0 size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %3 = arith.constant 1 : index
            %4 = arith.cmpi eq, %i, %3 : index
            scf.if %4 {
            } else {
              ktdf_lowering.signal %mnilu_2, %l1lu_2 {applicable_units = ["L1LU"]}
            }
          } {applicable_units = ["L1LU"]}
          ktdf_lowering.execute_on %sfu_2 {
            %a = ktdf.read_from_fifo %s0 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %e = tensor.empty() : tensor<1x64xf16>
            %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
            ^bb0(%p: f16, %o: f16):
              %m = arith.negf %p : f16
              linalg.yield %m : f16
            } -> tensor<1x64xf16>
            ktdf.write_to_fifo %n, %r0 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
          } {applicable_units = ["SFU"]}
          ktdf_lowering.execute_on %l1su_2 {
            %5 = arith.cmpi eq, %i, %c0 : index
            scf.if %5 {
            } else {
              ktdf_lowering.signal %l1su_2, %mnisu_2 {applicable_units = ["L1SU"]}
            }
            ktdf.data_transfer from %r0 size [64] to %buf_out[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
            ktdf_lowering.signal %l1su_2, %mnisu_2 {applicable_units = ["L1SU"]}
          } {applicable_units = ["L1SU"]}
          ktdf_lowering.execute_on %mnisu_2 {
            ktdf_lowering.signal %l1su_2, %mnisu_2 {applicable_units = ["MNISU"]}
            ktdf.data_transfer from %buf_out[0, 0] size [1, 64] to %yc[%row0 + %i, %c0] size [1, 64] : memref<1x64xf16, "L1">, memref<4x64xf16, "DDR">
            %6 = arith.constant 1 : index
            %7 = arith.cmpi eq, %i, %6 : index
            scf.if %7 {
            } else {
              ktdf_lowering.signal %l1su_2, %mnisu_2 {applicable_units = ["MNISU"]}
            }
          } {applicable_units = ["MNISU"]}
        } {applicable_units = ["MNILU", "L1LU", "SFU", "L1SU", "MNISU"]}
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}

