// RUN: ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/small-scratchpad.mlir"},reduction-dim-chunking' | filecheck %s
// RUN: ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/small-scratchpad.mlir"},reduction-dim-chunking,reduction-dim-chunking' | filecheck %s

/// Softmax over 2 rows of 4096 f16 (8 KiB a row) on an 8 KiB scratchpad: a row and its output
/// row do not fit, so the row program becomes host loops over C = 4 chunks of 1024 columns
/// (a chunk in and out, double-buffered: 4 x 2 KiB). The max and the sum each store one
/// partial a chunk in the workspace (a last kernel argument), reduce the 1x4 partials into
/// the original init and store that too; the later passes read it back. Each loop reloads its
/// chunk of X at column 1024 x %chunk and recomputes exp(x - max) there; the store loop stores
/// each chunk. Run twice: the chunks fit, nothing more changes.

// CHECK-LABEL: func.func @softmax_long
// CHECK-SAME:    (%[[OUT:.*]]: index, %[[IN:.*]]: index, %[[WS:.*]]: index {ktdf.workspace = {bytes = 512 : i64, element_bytes = 2 : i64}})
// CHECK:         %[[TID:.*]] = ktdp.get_compute_tile_id : index
// CHECK:         %[[MINE:.*]] = arith.muli %[[TID]], %{{.*}} : index
// CHECK:         %[[BASE:.*]] = arith.addi %[[WS]], %[[MINE]] : index
// CHECK:         %[[PMAX:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK:         %[[RMAX:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK:         %[[PSUM:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK:         %[[RSUM:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK:         %[[XV:.*]] = ktdp.construct_memory_view %[[IN]]
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %[[UB]] step %[[ONE]] {
// CHECK-NEXT:        %[[T:.*]] = ktdp.construct_access_tile %[[XV]][%[[ROW]], %{{.*}} + %[[K]] * 1024] {{.*}} -> !ktdp.access_tile<1x1024xindex>
// CHECK-NEXT:        %[[X:.*]] = ktdp.load %[[T]] : <1x1024xindex> -> tensor<1x1024xf16>
// CHECK-NEXT:        %[[NINF:.*]] = arith.constant 0xfc00 : f16
// CHECK-NEXT:        %[[ID:.*]] = tensor.splat %[[NINF]] : tensor<1xf16>
// CHECK-NEXT:        %[[P:.*]] = linalg.reduce ins(%[[X]]:tensor<1x1024xf16>) outs(%[[ID]]:tensor<1xf16>) dimensions = [1]
// CHECK:             arith.maxnumf
// CHECK:             %[[PV:.*]] = ktdp.construct_memory_view %[[PMAX]], sizes: [4], strides: [1]
// CHECK-NEXT:        %[[PT:.*]] = ktdp.construct_access_tile %[[PV]][%[[K]]] {{.*}} -> !ktdp.access_tile<1xindex>
// CHECK-NEXT:        ktdp.store %[[P]], %[[PT]]
// CHECK:           } {ktdf.host_loop}
// CHECK:           %[[PS:.*]] = ktdp.load %{{.*}} : <1x4xindex> -> tensor<1x4xf16>
// CHECK-NEXT:      %[[MAX:.*]] = linalg.reduce ins(%[[PS]]:tensor<1x4xf16>) outs(%{{.*}}:tensor<1xf16>) dimensions = [1]
// CHECK:           %{{.*}} = ktdp.construct_memory_view %[[RMAX]], sizes: [1], strides: [1]
// CHECK:           ktdp.store %[[MAX]], %[[RT:.*]] :
// CHECK-NEXT:      %[[MAXB:.*]] = ktdp.load %[[RT]] : <1xindex> -> tensor<1xf16>
// CHECK:           %[[MS:.*]] = tensor.extract %[[MAXB]][%{{.*}}] : tensor<1xf16>
// CHECK:           scf.for %[[K2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[X2:.*]] = ktdp.load %{{.*}} : <1x1024xindex> -> tensor<1x1024xf16>
// CHECK-NEXT:        %[[B2:.*]] = tensor.splat %[[MS]] : tensor<1x1024xf16>
// CHECK-NEXT:        %[[D2:.*]] = arith.subf %[[X2]], %[[B2]] : tensor<1x1024xf16>
// CHECK-NEXT:        %[[E2:.*]] = math.exp %[[D2]] : tensor<1x1024xf16>
// CHECK:             linalg.reduce ins(%[[E2]]:tensor<1x1024xf16>)
// CHECK:             ktdp.construct_memory_view %[[PSUM]]
// CHECK:           } {ktdf.host_loop}
// CHECK:           ktdp.construct_memory_view %[[RSUM]]
// CHECK:           scf.for %[[K3:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             math.exp
// CHECK:             %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : tensor<1x1024xf16>
// CHECK-NEXT:        %[[YT:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]], %{{.*}} + %[[K3]] * 1024] {{.*}} -> !ktdp.access_tile<1x1024xindex>
// CHECK-NEXT:        ktdp.store %[[Q]], %[[YT]] : tensor<1x1024xf16>, <1x1024xindex>
// CHECK:           } {ktdf.host_loop}
// CHECK-NOT:       tensor<1x4096xf16>
// CHECK:         func.return
module {
  func.func @softmax_long(
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
    %input_view_1 = ktdp.construct_memory_view %input_ptr, sizes: [2, 4096], strides: [4096, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 4095 >= 0)>,
        memory_space = #ktdp.memory_space<global>
    } : memref<2x4096xf16>
    %output_view_2 = ktdp.construct_memory_view %output_ptr, sizes: [2, 4096], strides: [4096, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 4095 >= 0)>,
        memory_space = #ktdp.memory_space<global>
    } : memref<2x4096xf16>
    scf.for %row = %start to %end step %c1  : index {
      %c0 = arith.constant 0 : index
      %input_acc_1 = ktdp.construct_access_tile %input_view_1[%row, %c0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<2x4096xf16> -> !ktdp.access_tile<1x4096xindex>
      %row_13 = ktdp.load %input_acc_1 : !ktdp.access_tile<1x4096xindex> -> tensor<1x4096xf16>
      %neg_inf = arith.constant 0xFC00 : f16
      %max_init = tensor.splat %neg_inf : tensor<1xf16>
      %row_max = linalg.reduce { arith.maxnumf }
          ins(%row_13 : tensor<1x4096xf16>)
          outs(%max_init : tensor<1xf16>)
          dimensions = [1]
      %max_scalar = tensor.extract %row_max[%c0] : tensor<1xf16>
      %row_minus_max_15 = tensor.splat %max_scalar : tensor<1x4096xf16>
      %row_minus_max_16 = arith.subf %row_13, %row_minus_max_15 : tensor<1x4096xf16>
      %numerator = math.exp %row_minus_max_16 : tensor<1x4096xf16>
      %zero = arith.constant 0.0 : f16
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %denominator = linalg.reduce { arith.addf }
          ins(%numerator : tensor<1x4096xf16>)
          outs(%sum_init : tensor<1xf16>)
          dimensions = [1]
      %denom_scalar = tensor.extract %denominator[%c0] : tensor<1xf16>
      %softmax_output = tensor.splat %denom_scalar : tensor<1x4096xf16>
      %softmax_output_17 = arith.divf %numerator, %softmax_output : tensor<1x4096xf16>
      %output_acc_2 = ktdp.construct_access_tile %output_view_2[%row, %c0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>,
          access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<2x4096xf16> -> !ktdp.access_tile<1x4096xindex>
      ktdp.store %softmax_output_17, %output_acc_2 : tensor<1x4096xf16>, !ktdp.access_tile<1x4096xindex>
      scf.yield
    }
    return
  }
}
