// RUN: ktir-opt %s -p 'compute-group-extraction,construct-three-stage-pipeline,path-expansion,reduction-loop-exposure' | filecheck %s

/// One generic writes two stored blocks (a 512-column row minus its maximum, as two 256-column
/// tiles). Cut into vectors it writes one vector of each per step, so the store stage drains
/// both slots in one loop, in that order: a loop per slot would wait for the second slot's
/// first vector while the generic waits to write the first slot's second.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:           %[[Y0:[^ ]*]], %[[Y1:[^ ]*]] = linalg.generic
// CHECK:           ktdf.write_to_fifo %[[Y0]], %[[S0:[^ ]*]] :
// CHECK-NEXT:      ktdf.write_to_fifo %[[Y1]], %[[S1:[^ ]*]] :
// CHECK:         ktdf.stage
// CHECK:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        ktdf.data_transfer from %[[S0]] size [64] to %{{.*}}[0, %[[R]]] size [1, 64]
// CHECK-NEXT:        ktdf.data_transfer from %[[S1]] size [64] to %{{.*}}[0, %[[R]]] size [1, 64]
// CHECK-NEXT:      }
ktdf_arch.device @sample_device import("sample_device.mlir")
#v = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_out(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 256 : index
  %ninf = arith.constant 0xFC00 : f16
  %xv = ktdp.construct_memory_view %X, sizes: [1, 512], strides: [512, 1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<1x512xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [1, 512], strides: [512, 1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<1x512xf16>
  %t0 = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<1x512xf16> -> !ktdp.access_tile<1x256xindex>
  %t1 = ktdp.construct_access_tile %xv[%c0, %c64] {access_tile_order = #id, access_tile_set = #blk} : memref<1x512xf16> -> !ktdp.access_tile<1x256xindex>
  %x0 = ktdp.load %t0 : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
  %x1 = ktdp.load %t1 : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
  %a = arith.maximumf %x0, %x1 : tensor<1x256xf16>
  %m0 = tensor.splat %ninf : tensor<1xf16>
  %mx = linalg.reduce { arith.maximumf } ins(%a : tensor<1x256xf16>) outs(%m0 : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %mx[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x256xf16>
  %y0 = arith.subf %x0, %mb : tensor<1x256xf16>
  %y1 = arith.subf %x1, %mb : tensor<1x256xf16>
  %u0 = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_order = #id, access_tile_set = #blk} : memref<1x512xf16> -> !ktdp.access_tile<1x256xindex>
  %u1 = ktdp.construct_access_tile %yv[%c0, %c64] {access_tile_order = #id, access_tile_set = #blk} : memref<1x512xf16> -> !ktdp.access_tile<1x256xindex>
  ktdp.store %y0, %u0 : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
  ktdp.store %y1, %u1 : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
  return
}
