// RUN: ktir-opt %s -p construct-three-stage-pipeline | filecheck %s

/// The compute group of a 4x64 fp16 add over 2 tiles (as compute-group-extraction leaves it)
/// becomes one Load -> Compute -> Store pipeline per 64-lane vector of the 2x64 tile: two
/// parallel loops (2 rows step 1, 64 columns step 64), views cast to the device memory "DDR",
/// FIFO slots "DDR" -> "SFU" and "SFU" -> "DDR" of 64 elements, the add fused into one
/// linalg.generic on the SFU, and the KTIR loads, tiles and store gone. The host function has
/// no store and is left alone.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @add_rows(
// CHECK-NEXT:    func.call @local_schedule_0(
// CHECK-NEXT:    func.return

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:    %[[X:[^:]*]]: index, %[[Y:[^:]*]]: index, %[[Z:[^:]*]]: index) attributes {grid = [2 : i64]}
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[ROW0:.*]] = arith.muli %[[TID]], %[[TWO]] : index
// CHECK-NEXT:    %[[XV:.*]] = ktdp.construct_memory_view %[[X]]
// CHECK-NEXT:    %[[XC:.*]] = memref.memory_space_cast %[[XV]] : memref<4x64xf16> to memref<4x64xf16, "DDR">
// CHECK-NEXT:    %[[YV:.*]] = ktdp.construct_memory_view %[[Y]]
// CHECK-NEXT:    %[[YC:.*]] = memref.memory_space_cast %[[YV]] : memref<4x64xf16> to memref<4x64xf16, "DDR">
// CHECK-NEXT:    %[[ZV:.*]] = ktdp.construct_memory_view %[[Z]]
// CHECK-NEXT:    %[[ZC:.*]] = memref.memory_space_cast %[[ZV]] : memref<4x64xf16> to memref<4x64xf16, "DDR">
// CHECK-NEXT:    %[[L0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[U0:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[S0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[L1:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[U1:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[S1:.*]] = arith.constant 64 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[L0]] to %[[U0]] step %[[S0]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[L1]] to %[[U1]] step %[[S1]] {
// CHECK-NEXT:        ktdf.pipeline {
// CHECK-NEXT:          %[[A:[^,]*]], %[[B:[^,]*]], %[[C:[^,]*]], %[[T0:[^,]*]], %[[T1:[^,]*]], %[[T2:[^ ]*]] = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, !ktdf.token, !ktdf.token, !ktdf.token) {
// CHECK-COUNT-2:         ktdf.fifo.allocate() -> !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// CHECK-NEXT:            ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>
// CHECK-COUNT-3:         ktdf.create_token : !ktdf.token
// CHECK-NEXT:            ktdf.private_yield
// CHECK-NEXT:          }
// CHECK-NEXT:          ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK-NEXT:            ktdf.data_transfer from %[[XC]][%[[ROW0]] + %[[I]], %[[J]]] size [1, 64] to %[[A]] size [64] : memref<4x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// CHECK-NEXT:            ktdf.data_transfer from %[[YC]][%[[ROW0]] + %[[I]], %[[J]]] size [1, 64] to %[[B]] size [64] : memref<4x64xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>
// CHECK-NEXT:          }{{$}}
// CHECK-NEXT:          ktdf.stage depends_in(%[[T0]]) depends_out(%[[T1]]) {
// CHECK-NEXT:            %[[RA:.*]] = ktdf.read_from_fifo %[[A]] : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:            %[[RB:.*]] = ktdf.read_from_fifo %[[B]] : <"DDR" -> "SFU", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:            %[[E:.*]] = tensor.empty() : tensor<1x64xf16>
// CHECK-NEXT:            %[[R:.*]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[RA]], %[[RB]] : tensor<1x64xf16>, tensor<1x64xf16>) outs(%[[E]] : tensor<1x64xf16>) {
// CHECK-NEXT:            ^bb0(%[[P:.*]]: f16, %[[Q:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:              %[[SUM:.*]] = arith.addf %[[P]], %[[Q]] : f16
// CHECK-NEXT:              linalg.yield %[[SUM]] : f16
// CHECK-NEXT:            } -> tensor<1x64xf16>
// CHECK-NEXT:            ktdf.write_to_fifo %[[R]], %[[C]] : tensor<1x64xf16>, <"SFU" -> "DDR", 64xf16>
// CHECK-NEXT:          } {applicable_units = ["SFU"]}
// CHECK-NEXT:          ktdf.stage depends_in(%[[T1]]) depends_out(%[[T2]]) {
// CHECK-NEXT:            ktdf.data_transfer from %[[C]] size [64] to %[[ZC]][%[[ROW0]] + %[[I]], %[[J]]] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>, memref<4x64xf16, "DDR">
// CHECK-NEXT:          }{{$}}
// CHECK-NEXT:        }
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT:    func.return

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @add_rows(%x: index, %y: index, %z: index) attributes {grid = [2]} {
      func.call @local_schedule_0(%x, %y, %z) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index, %z: index) attributes {grid = [2]} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tid = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %tid, %c2 : index
      %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %xt = ktdp.construct_access_tile %xv[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
      %a = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
      %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %yt = ktdp.construct_access_tile %yv[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
      %b = ktdp.load %yt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
      %e = tensor.empty() : tensor<2x64xf16>
      %s = linalg.add ins(%a, %b : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) -> tensor<2x64xf16>
      %zv = ktdp.construct_memory_view %z, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %zt = ktdp.construct_access_tile %zv[%row0, %c0] {access_tile_order = #id, access_tile_set = #slab} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
      ktdp.store %s, %zt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
      func.return
    }
  }
}
