// RUN: ktir-opt %s -p double-buffering | filecheck %s

/// One block per tile (a 16x256 add on two tiles, coarsened to one [8, 256] block each):
/// there is no next instance to overlap, so the pipeline keeps one copy of its buffers.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         ktdf.pipeline {
// CHECK-NOT:     ktdf.buffer_phase
// CHECK:           ktdf.private_yield

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
      %c8 = arith.constant 8 : index
      %id = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %id, %c8 : index
      %Av = ktdp.construct_memory_view %A, sizes: [16, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
      %Av_cast = memref.memory_space_cast %Av : memref<16x256xf16> to memref<16x256xf16, "DDR">
      %Bv = ktdp.construct_memory_view %B, sizes: [16, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
      %Bv_cast = memref.memory_space_cast %Bv : memref<16x256xf16> to memref<16x256xf16, "DDR">
      %Cv = ktdp.construct_memory_view %C, sizes: [16, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
      %Cv_cast = memref.memory_space_cast %Cv : memref<16x256xf16> to memref<16x256xf16, "DDR">
      %0 = arith.constant 0 : index
      %1 = arith.constant 8 : index
      %2 = arith.constant 1 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 256 : index
      %5 = arith.constant 64 : index
      %6 = arith.constant 0 : index
      %7 = arith.constant 8 : index
      %8 = arith.constant 8 : index
      scf.for %v0_block = %6 to %7 step %8 {
        ktdf.pipeline {
          %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x256xf16, "L1">, memref<8x256xf16, "L1">, memref<8x256xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
            %20 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %21 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %22 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            %buf_l1 = memref.alloc() : memref<8x256xf16, "L1">
            %buf_l1_1 = memref.alloc() : memref<8x256xf16, "L1">
            %buf_l1_2 = memref.alloc() : memref<8x256xf16, "L1">
            %23 = ktdf.create_token : !ktdf.token
            %24 = ktdf.create_token : !ktdf.token
            %25 = ktdf.create_token : !ktdf.token
            %26 = ktdf.create_token : !ktdf.token
            %27 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %20, %21, %22, %buf_l1, %buf_l1_1, %buf_l1_2, %23, %24, %25, %26, %27 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x256xf16, "L1">, memref<8x256xf16, "L1">, memref<8x256xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%15) {
            %28 = arith.constant 0 : index
            ktdf.data_transfer from %Av_cast[%row0 + %v0_block, %28] size [8, 256] to %12[0, 0] size [8, 256] : memref<16x256xf16, "DDR">, memref<8x256xf16, "L1">
            ktdf.data_transfer from %Bv_cast[%row0 + %v0_block, %28] size [8, 256] to %13[0, 0] size [8, 256] : memref<16x256xf16, "DDR">, memref<8x256xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%15) depends_out(%16) {
            %29 = arith.constant 0 : index
            %30 = arith.constant 8 : index
            %31 = arith.constant 1 : index
            scf.for %v0_p = %29 to %30 step %31 {
              %32 = arith.constant 0 : index
              %33 = arith.constant 256 : index
              %34 = arith.constant 64 : index
              scf.for %v1_p = %32 to %33 step %34 {
                ktdf.data_transfer from %12[%v0_p, %v1_p] size [1, 64] to %9 size [64] : memref<8x256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
                ktdf.data_transfer from %13[%v0_p, %v1_p] size [1, 64] to %10 size [64] : memref<8x256xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%16) depends_out(%17) {
            %35 = arith.constant 0 : index
            %36 = arith.constant 8 : index
            %37 = arith.constant 1 : index
            scf.for %v0_p_1 = %35 to %36 step %37 {
              %38 = arith.constant 0 : index
              %39 = arith.constant 256 : index
              %40 = arith.constant 64 : index
              scf.for %v1_p_1 = %38 to %39 step %40 {
                %41 = ktdf.read_from_fifo %9 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
                %42 = ktdf.read_from_fifo %10 : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
                %43 = tensor.empty() : tensor<1x64xf16>
                %44 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%41, %42 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%43 : tensor<1x64xf16>) {
                ^bb0(%45: f16, %46: f16, %47: f16):
                  %48 = arith.addf %45, %46 : f16
                  linalg.yield %48 : f16
                } -> tensor<1x64xf16>
                ktdf.write_to_fifo %44, %11 : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%17) depends_out(%18) {
            %49 = arith.constant 0 : index
            %50 = arith.constant 8 : index
            %51 = arith.constant 1 : index
            scf.for %v0_p_2 = %49 to %50 step %51 {
              %52 = arith.constant 0 : index
              %53 = arith.constant 256 : index
              %54 = arith.constant 64 : index
              scf.for %v1_p_2 = %52 to %53 step %54 {
                ktdf.data_transfer from %11 size [64] to %14[%v0_p_2, %v1_p_2] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<8x256xf16, "L1">
              } {loop_type = #ktdf.loop_type<parallel_loop>}
            } {loop_type = #ktdf.loop_type<parallel_loop>}
          } {applicable_units = ["L1SU"]}
          ktdf.stage depends_in(%18) depends_out(%19) {
            %55 = arith.constant 0 : index
            ktdf.data_transfer from %14[0, 0] size [8, 256] to %Cv_cast[%row0 + %v0_block, %55] size [8, 256] : memref<8x256xf16, "L1">, memref<16x256xf16, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }
}
