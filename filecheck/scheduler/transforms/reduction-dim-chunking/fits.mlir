// RUN: ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/small-scratchpad.mlir"},reduction-dim-chunking' | filecheck %s

/// A row of 1024 f16 (2 KiB; in and out 4 KiB) fits in the 8 KiB scratchpad: the row
/// program is left as it is (one load, one pass each, one store; no workspace argument).

// CHECK-LABEL: func.func @softmax_fits
// CHECK-SAME:    (%{{.*}}: index, %{{.*}}: index) attributes
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     scf.for
// CHECK:         %[[X:.*]] = ktdp.load %{{.*}} : <1x1024xindex> -> tensor<1x1024xf16>
// CHECK:         linalg.reduce ins(%[[X]]:tensor<1x1024xf16>)
// CHECK:         ktdp.store %{{.*}}, %{{.*}} : tensor<1x1024xf16>, <1x1024xindex>
// CHECK-NOT:     ktdf.host_loop
module {
  func.func @softmax_fits(
      %output_ptr: index,
      %input_ptr: index
  ) attributes {grid = [1, 1]} {
    %core_id = ktdp.get_compute_tile_id : index
    %c_chunk = arith.constant 2 : index
    %c_R = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %start = arith.muli %core_id, %c_chunk : index
    %end_raw = arith.addi %start, %c_chunk : index
    %cmp = arith.cmpi slt, %end_raw, %c_R : index
    %end = arith.select %cmp, %end_raw, %c_R : index
    %input_view_1 = ktdp.construct_memory_view %input_ptr, sizes: [2, 1024], strides: [1024, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
        memory_space = #ktdp.memory_space<global>
    } : memref<2x1024xf16>
    %output_view_2 = ktdp.construct_memory_view %output_ptr, sizes: [2, 1024], strides: [1024, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
        memory_space = #ktdp.memory_space<global>
    } : memref<2x1024xf16>
    scf.for %row = %start to %end step %c1  : index {
      %c0 = arith.constant 0 : index
      %input_acc_1 = ktdp.construct_access_tile %input_view_1[%row, %c0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<2x1024xf16> -> !ktdp.access_tile<1x1024xindex>
      %row_13 = ktdp.load %input_acc_1 : !ktdp.access_tile<1x1024xindex> -> tensor<1x1024xf16>
      %neg_inf = arith.constant 0xFC00 : f16
      %max_init = tensor.splat %neg_inf : tensor<1xf16>
      %row_max = linalg.reduce { arith.maxnumf }
          ins(%row_13 : tensor<1x1024xf16>)
          outs(%max_init : tensor<1xf16>)
          dimensions = [1]
      %max_scalar = tensor.extract %row_max[%c0] : tensor<1xf16>
      %row_minus_max_15 = tensor.splat %max_scalar : tensor<1x1024xf16>
      %row_minus_max_16 = arith.subf %row_13, %row_minus_max_15 : tensor<1x1024xf16>
      %numerator = math.exp %row_minus_max_16 : tensor<1x1024xf16>
      %zero = arith.constant 0.0 : f16
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %denominator = linalg.reduce { arith.addf }
          ins(%numerator : tensor<1x1024xf16>)
          outs(%sum_init : tensor<1xf16>)
          dimensions = [1]
      %denom_scalar = tensor.extract %denominator[%c0] : tensor<1xf16>
      %softmax_output = tensor.splat %denom_scalar : tensor<1x1024xf16>
      %softmax_output_17 = arith.divf %numerator, %softmax_output : tensor<1x1024xf16>
      %output_acc_2 = ktdp.construct_access_tile %output_view_2[%row, %c0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<2x1024xf16> -> !ktdp.access_tile<1x1024xindex>
      ktdp.store %softmax_output_17, %output_acc_2 : tensor<1x1024xf16>, !ktdp.access_tile<1x1024xindex>
      scf.yield
    }
    return
  }
}
