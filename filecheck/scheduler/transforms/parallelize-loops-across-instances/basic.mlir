// RUN: ktir-opt %s -p parallelize-loops-across-instances | filecheck %s
// RUN: ktir-opt %s -p parallelize-loops-across-instances,parallelize-loops-across-instances | filecheck %s
// RUN: ktir-opt %s -p parallelize-loops-across-instances,address-assignment,normalize-grid-to-1d,ktdf-to-ktdflowering | filecheck %s --check-prefix=UNITS

/// A 4x128 slab per tile on sample_device (two sub-cores per core), after stage-coarsening:
/// one DMA per operand, then the load, compute and store stages each walk the slab's 4 rows.
/// The pass gives rows 0-1 to sub-core 0 and rows 2-3 to a copy of those three stages on
/// sub-core 1, with FIFO slots and tokens of its own; the DMA stages stay as they are. Run
/// twice, it changes nothing more. Lowered, the copy runs on the C<k>-...-CL1 units: the DMA
/// signals both load units, and both store units signal the store DMA.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.pipeline {
// CHECK:           %[[S0:[0-9]+]], %[[S1:[0-9]+]], %[[S2:[0-9]+]], %[[A:[0-9]+]], %[[B:[0-9]+]], %[[C:[0-9]+]], %[[T0:[0-9]+]], %[[T1:[0-9]+]], %[[T2:[0-9]+]], %[[T3:[0-9]+]], %[[T4:[0-9]+]], %[[S0B:[0-9]+]], %[[S1B:[0-9]+]], %[[S2B:[0-9]+]], %[[T1B:[0-9]+]], %[[T2B:[0-9]+]] = ktdf.private
// CHECK:           ktdf.stage depends_in(none) depends_out(%[[T0]]) {
// CHECK:           } {applicable_units = ["MNILU"]}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T0]]) depends_out(%[[T1]]) {
// CHECK:             %[[LO:.*]] = arith.constant 0 : index
// CHECK-NEXT:        %[[HI:.*]] = arith.constant 2 : index
// CHECK-NEXT:        scf.for %{{.*}} = %[[LO]] to %[[HI]] step
// CHECK:               ktdf.data_transfer from %[[A]][{{.*}}] size [1, 64] to %[[S0]] size [64]
// CHECK:           } {applicable_units = ["L1LU"], instance = 0 : i64}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T1]]) depends_out(%[[T2]]) {
// CHECK:             ktdf.read_from_fifo %[[S0]]
// CHECK:             ktdf.write_to_fifo %{{.*}}, %[[S2]]
// CHECK:           } {applicable_units = ["SFU"], instance = 0 : i64}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T2]]) depends_out(%[[T3]]) {
// CHECK:             ktdf.data_transfer from %[[S2]] size [64] to %[[C]]
// CHECK:           } {applicable_units = ["L1SU"], instance = 0 : i64}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T0]]) depends_out(%[[T1B]]) {
// CHECK:             %[[LO1:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[HI1:.*]] = arith.constant 4 : index
// CHECK-NEXT:        scf.for %{{.*}} = %[[LO1]] to %[[HI1]] step
// CHECK:               ktdf.data_transfer from %[[A]][{{.*}}] size [1, 64] to %[[S0B]] size [64]
// CHECK:           } {applicable_units = ["L1LU"], instance = 1 : i64}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T1B]]) depends_out(%[[T2B]]) {
// CHECK:             ktdf.read_from_fifo %[[S0B]]
// CHECK:             ktdf.write_to_fifo %{{.*}}, %[[S2B]]
// CHECK:           } {applicable_units = ["SFU"], instance = 1 : i64}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T2B]]) depends_out(%[[T3]]) {
// CHECK:             ktdf.data_transfer from %[[S2B]] size [64] to %[[C]]
// CHECK:           } {applicable_units = ["L1SU"], instance = 1 : i64}
// CHECK-NEXT:      ktdf.stage depends_in(%[[T3]]) depends_out(%[[T4]]) {
// CHECK:           } {applicable_units = ["MNISU"]}
// CHECK-NOT:     instance = 2

// UNITS-LABEL: func.func @local_schedule_0(
// UNITS:       %[[LU1:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-L1LU-CL1", type = "L1LU"} : index
// UNITS:       %[[SFU1:.*]] = dataflow.get_unit {core = 0 : i32, corelet = 1 : i32, name = "C0-SFU-CL1", type = "SFU"} : index
// UNITS:       ktdf_lowering.execute_on %[[DMA:mnilu_[0-9]+]] {
// UNITS:         ktdf_lowering.signal %[[DMA]], %[[L0:l1lu_[0-9]+]] {applicable_units = ["MNILU"]}
// UNITS-NEXT:    ktdf_lowering.signal %[[DMA]], %[[L1:l1lu_cl1_[0-9]+]] {applicable_units = ["MNILU"]}
// UNITS:       ktdf_lowering.execute_on %[[L1]] {
// UNITS-NEXT:    ktdf_lowering.signal %[[DMA]], %[[L1]] {applicable_units = ["L1LU-CL1"]}
// UNITS:       ktdf_lowering.execute_on %[[OUT:mnisu_[0-9]+]] {
// UNITS-NEXT:    ktdf_lowering.signal %{{l1su_[0-9]+}}, %[[OUT]] {applicable_units = ["MNISU"]}
// UNITS-NEXT:    ktdf_lowering.signal %{{l1su_cl1_[0-9]+}}, %[[OUT]] {applicable_units = ["MNISU"]}

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @add(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
      func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
      %rows = arith.constant 4 : index
      %id = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %id, %rows : index
      %Av = ktdp.construct_memory_view %A, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %Av_cast = memref.memory_space_cast %Av : memref<8x128xf16> to memref<8x128xf16, "DDR">
      %Bv = ktdp.construct_memory_view %B, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %Bv_cast = memref.memory_space_cast %Bv : memref<8x128xf16> to memref<8x128xf16, "DDR">
      %Cv = ktdp.construct_memory_view %C, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
      %Cv_cast = memref.memory_space_cast %Cv : memref<8x128xf16> to memref<8x128xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 4 : index
      %2 = arith.constant 4 : index
      scf.for %v0_block = %0 to %1 step %2 {
        ktdf.pipeline {
          %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x128xf16, "L1">, memref<4x128xf16, "L1">, memref<4x128xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
            %14 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %15 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %16 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            %buf_l1 = memref.alloc() : memref<4x128xf16, "L1">
            %buf_l1_1 = memref.alloc() : memref<4x128xf16, "L1">
            %buf_l1_2 = memref.alloc() : memref<4x128xf16, "L1">
            %17 = ktdf.create_token : !ktdf.token
            %18 = ktdf.create_token : !ktdf.token
            %19 = ktdf.create_token : !ktdf.token
            %20 = ktdf.create_token : !ktdf.token
            %21 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %14, %15, %16, %buf_l1, %buf_l1_1, %buf_l1_2, %17, %18, %19, %20, %21 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x128xf16, "L1">, memref<4x128xf16, "L1">, memref<4x128xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%9) {
            %22 = arith.constant 0 : index
            ktdf.data_transfer from %Av_cast[%row0 + %v0_block, %22 * 64] size [4, 128] to %6[0, 0] size [4, 128] : memref<8x128xf16, "DDR">, memref<4x128xf16, "L1">
            ktdf.data_transfer from %Bv_cast[%row0 + %v0_block, %22 * 64] size [4, 128] to %7[0, 0] size [4, 128] : memref<8x128xf16, "DDR">, memref<4x128xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%9) depends_out(%10) {
            %23 = arith.constant 0 : index
            %24 = arith.constant 4 : index
            %25 = arith.constant 1 : index
            scf.for %v0_p = %23 to %24 step %25 {
              %26 = arith.constant 0 : index
              %27 = arith.constant 2 : index
              %28 = arith.constant 1 : index
              scf.for %v1_p = %26 to %27 step %28 {
                ktdf.data_transfer from %6[%v0_p, %v1_p * 64] size [1, 64] to %3 size [64] : memref<4x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
                ktdf.data_transfer from %7[%v0_p, %v1_p * 64] size [1, 64] to %4 size [64] : memref<4x128xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%10) depends_out(%11) {
            %29 = arith.constant 0 : index
            %30 = arith.constant 4 : index
            %31 = arith.constant 1 : index
            scf.for %v0_p_1 = %29 to %30 step %31 {
              %32 = arith.constant 0 : index
              %33 = arith.constant 2 : index
              %34 = arith.constant 1 : index
              scf.for %v1_p_1 = %32 to %33 step %34 {
                %35 = ktdf.read_from_fifo %3 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
                %36 = ktdf.read_from_fifo %4 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
                %37 = tensor.empty() : tensor<1x64xf16>
                %38 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%35, %36 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%37 : tensor<1x64xf16>) {
                ^bb0(%39: f16, %40: f16, %41: f16):
                  %42 = arith.addf %39, %40 : f16
                  linalg.yield %42 : f16
                } -> tensor<1x64xf16>
                ktdf.write_to_fifo %38, %5 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%11) depends_out(%12) {
            %43 = arith.constant 0 : index
            %44 = arith.constant 4 : index
            %45 = arith.constant 1 : index
            scf.for %v0_p_2 = %43 to %44 step %45 {
              %46 = arith.constant 0 : index
              %47 = arith.constant 2 : index
              %48 = arith.constant 1 : index
              scf.for %v1_p_2 = %46 to %47 step %48 {
                ktdf.data_transfer from %5 size [64] to %8[%v0_p_2, %v1_p_2 * 64] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<4x128xf16, "L1">
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1SU"]}
          ktdf.stage depends_in(%12) depends_out(%13) {
            %49 = arith.constant 0 : index
            ktdf.data_transfer from %8[0, 0] size [4, 128] to %Cv_cast[%row0 + %v0_block, %49 * 64] size [4, 128] : memref<4x128xf16, "L1">, memref<8x128xf16, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
