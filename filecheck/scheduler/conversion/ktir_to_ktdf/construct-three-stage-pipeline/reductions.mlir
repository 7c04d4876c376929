// RUN: ktir-opt %s -p construct-three-stage-pipeline | filecheck %s

/// A row softmax of a 2x128 fp16 tile on the sample device: the group reduces dimension 1, so
/// one pipeline instance covers a whole row (the loop over columns has one iteration). The
/// load stage moves the row once per pass that reads it (three slots of 128 elements from the
/// same region); the compute stage holds one generic per pass: the maximum (a reduction
/// iterator, the init filled from the splat), the sum of exponentials reading the maximum
/// through (d0, d1) -> (d0), and the normalisation reading both; the result is written whole.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             ktdf.stage depends_in(none) depends_out(%{{.*}}) {
// CHECK-NEXT:          ktdf.data_transfer from %[[X:.*]][%[[I]], %[[J]]] size [1, 128] to %[[S0:.*]] size [128] : memref<2x128xf16, "DDR">, !ktdf.fifo.slot<"DDR" -> "SFU", 128xf16>
// CHECK-NEXT:          ktdf.data_transfer from %[[X]][%[[I]], %[[J]]] size [1, 128] to %[[S1:.*]] size [128]
// CHECK-NEXT:          ktdf.data_transfer from %[[X]][%[[I]], %[[J]]] size [1, 128] to %[[S2:.*]] size [128]
// CHECK-NEXT:        }
// CHECK:             %[[A:.*]] = ktdf.read_from_fifo %[[S0]] : <"DDR" -> "SFU", 128xf16> -> tensor<1x128xf16>
// CHECK:             %[[F0:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<1xf16>) -> tensor<1xf16>
// CHECK-NEXT:        %[[MAX:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[A]] : tensor<1x128xf16>) outs(%[[F0]] : tensor<1xf16>) {
// CHECK:               arith.maximumf
// CHECK:             %[[B:.*]] = ktdf.read_from_fifo %[[S1]]
// CHECK:             %[[SUM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[B]], %[[MAX]] : tensor<1x128xf16>, tensor<1xf16>)
// CHECK:               arith.subf
// CHECK-NEXT:          math.exp
// CHECK-NEXT:          arith.addf
// CHECK:             %[[C:.*]] = ktdf.read_from_fifo %[[S2]]
// CHECK:             %[[Y:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[C]], %[[MAX]], %[[SUM]] : tensor<1x128xf16>, tensor<1xf16>, tensor<1xf16>)
// CHECK:               arith.divf
// CHECK:             ktdf.write_to_fifo %[[Y]], %{{.*}} : tensor<1x128xf16>, <"SFU" -> "DDR", 128xf16>
// CHECK:           } {applicable_units = ["SFU"]}
// CHECK:           ktdf.data_transfer from %{{.*}} size [128] to %{{.*}}[%[[I]], %[[J]]] size [1, 128]

builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module {
    func.func @softmax(%X: index, %Y: index) attributes {grid = [1 : i64]} {
      func.call @local_schedule_0(%X, %Y) : (index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index) -> ()
  }
  builtin.module @local_schedule_0 {
    func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1 : i64]} {
      %c0 = arith.constant 0 : index
      %ninf = arith.constant 0xfc00 : f16
      %zero = arith.constant 0.000000e+00 : f16
      %Xv = ktdp.construct_memory_view %X, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [2, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x128xf16>
      %xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>} : memref<2x128xf16> -> !ktdp.access_tile<2x128xindex>
      %x = ktdp.load %xt : <2x128xindex> -> tensor<2x128xf16>
      %m0 = tensor.splat %ninf : tensor<2xf16>
      %mx = linalg.reduce ins(%x:tensor<2x128xf16>) outs(%m0:tensor<2xf16>) dimensions = [1]
      (%0: f16, %1: f16) {
        %2 = arith.maximumf %0, %1 : f16
        linalg.yield %2 : f16
      }
      %e = tensor.empty() : tensor<2x128xf16>
      %mb = linalg.broadcast ins(%mx:tensor<2xf16>) outs(%e:tensor<2x128xf16>) dimensions = [1]
      %d = arith.subf %x, %mb : tensor<2x128xf16>
      %ex = math.exp %d : tensor<2x128xf16>
      %s0 = tensor.splat %zero : tensor<2xf16>
      %sum = linalg.reduce ins(%ex:tensor<2x128xf16>) outs(%s0:tensor<2xf16>) dimensions = [1]
      (%3: f16, %4: f16) {
        %5 = arith.addf %3, %4 : f16
        linalg.yield %5 : f16
      }
      %sb = linalg.broadcast ins(%sum:tensor<2xf16>) outs(%e:tensor<2x128xf16>) dimensions = [1]
      %y = arith.divf %ex, %sb : tensor<2x128xf16>
      %yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>} : memref<2x128xf16> -> !ktdp.access_tile<2x128xindex>
      ktdp.store %y, %yt : tensor<2x128xf16>, <2x128xindex>
      func.return
    }
  }
}
