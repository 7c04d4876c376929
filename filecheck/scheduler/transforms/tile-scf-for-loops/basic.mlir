// RUN: ktir-opt %s -p tile-scf-for-loops | filecheck %s

/// A perfect nest of two normalised parallel loops becomes tile loops over
/// `ceildivui(N, size)` around point loops over `derive_size`, each size reserved; the body
/// reads the old indices rebuilt by `linearize_index` from the tile and point indices. Not
/// tiled: a single loop (strip-mining's, not tiling's), a nest whose only other loop runs
/// once, and a nest cut by a loop that is not `parallel_loop` (there the loop nested in it
/// is a single loop again).

module {
  ktdf_arch.device @stream_device import("stream_device.mlir")

  // CHECK-LABEL: func.func @tile_2d(
  // CHECK-SAME:    %[[OUT:.*]]: memref<23x12xindex>)
  // CHECK:         %[[N0:.*]] = arith.constant 23 : index
  // CHECK:         %[[N1:.*]] = arith.constant 12 : index
  // CHECK:         %[[TS0:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  // CHECK-NEXT:    %[[TS1:.*]] = ktdf.tiling.reserve_size {divisibility = 1 : index, min_value = 1 : index} : index
  // CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
  // CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
  // CHECK-NEXT:    %[[T0N:.*]] = arith.ceildivui %[[N0]], %[[TS0]] : index
  // CHECK-NEXT:    scf.for %[[T0:.*]] = %[[C0]] to %[[T0N]] step %[[C1]] {
  // CHECK-NEXT:      %[[T1N:.*]] = arith.ceildivui %[[N1]], %[[TS1]] : index
  // CHECK-NEXT:      scf.for %[[T1:.*]] = %[[C0]] to %[[T1N]] step %[[C1]] {
  // CHECK-NEXT:        %[[S0:.*]] = ktdf.tiling.derive_size [%[[T0]] : %[[TS0]]], total_size = %[[N0]] : index
  // CHECK-NEXT:        %[[S1:.*]] = ktdf.tiling.derive_size [%[[T1]] : %[[TS1]]], total_size = %[[N1]] : index
  // CHECK-NEXT:        scf.for %[[P0:.*]] = %[[C0]] to %[[S0]] step %[[C1]] {
  // CHECK-NEXT:          scf.for %[[P1:.*]] = %[[C0]] to %[[S1]] step %[[C1]] {
  // CHECK-NEXT:            %[[I:.*]] = ktdf.tiling.linearize_index [%[[T0]] : %[[TS0]]], [%[[P0]] : %[[C1]]] : index
  // CHECK-NEXT:            %[[J:.*]] = ktdf.tiling.linearize_index [%[[T1]] : %[[TS1]]], [%[[P1]] : %[[C1]]] : index
  // CHECK-NEXT:            %[[SUM:.*]] = arith.addi %[[I]], %[[J]] : index
  // CHECK-NEXT:            memref.store %[[SUM]], %[[OUT]][%[[I]], %[[J]]] : memref<23x12xindex>
  // CHECK-NEXT:          } {loop_type = #ktdf.loop_type<parallel_loop>}
  // CHECK-NEXT:        } {loop_type = #ktdf.loop_type<parallel_loop>}
  // CHECK-NEXT:      } {loop_type = #ktdf.loop_type<parallel_loop>}
  // CHECK-NEXT:    } {loop_type = #ktdf.loop_type<parallel_loop>}
  // CHECK-NEXT:    func.return
  func.func @tile_2d(%out: memref<23x12xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c23 = arith.constant 23 : index
    %c12 = arith.constant 12 : index
    scf.for %i = %c0 to %c23 step %c1 {
      scf.for %j = %c0 to %c12 step %c1 {
        %s = arith.addi %i, %j : index
        memref.store %s, %out[%i, %j] : memref<23x12xindex>
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }

  // CHECK-LABEL: func.func @single_loop(
  // CHECK-NOT:     ktdf.tiling
  // CHECK:         func.return
  func.func @single_loop(%out: memref<8xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %i, %out[%i] : memref<8xindex>
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }

  // CHECK-LABEL: func.func @one_iteration(
  // CHECK-NOT:     ktdf.tiling
  // CHECK:         func.return
  func.func @one_iteration(%out: memref<1x8xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c1 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        memref.store %j, %out[%i, %j] : memref<1x8xindex>
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    } {loop_type = #ktdf.loop_type<parallel_loop>}
    func.return
  }

  // CHECK-LABEL: func.func @not_parallel(
  // CHECK-NOT:     ktdf.tiling
  // CHECK:         func.return
  func.func @not_parallel(%out: memref<4x8xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        memref.store %j, %out[%i, %j] : memref<4x8xindex>
      } {loop_type = #ktdf.loop_type<parallel_loop>}
    }
    func.return
  }
}
