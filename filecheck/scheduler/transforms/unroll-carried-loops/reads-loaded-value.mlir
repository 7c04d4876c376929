// RUN: ktir-opt %s -p unroll-carried-loops | filecheck %s

/// A loop without iter_args is unrolled too when its body reads a value computed outside it
/// from loaded data (a row's maximum scaling each block): as a host loop, each group it calls
/// would load the row and compute the maximum again. A loop that reads only its own loads
/// stays a loop.

#v = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @scaled_blocks
// CHECK:         %[[M:.*]] = tensor.extract
// CHECK-NOT:     scf.for
// CHECK:         %[[B0:.*]] = arith.constant 0 : index
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[B0]]]
// CHECK:         tensor.splat %[[M]]
// CHECK:         %[[B1:.*]] = arith.constant 64 : index
// CHECK:         ktdp.construct_access_tile %{{.*}}[%[[B1]]]
// CHECK-LABEL: func.func @own_loads
// CHECK:         scf.for
func.func @scaled_blocks(%X: index, %Y: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %ninf = arith.constant 0xFC00 : f16
  %xv = ktdp.construct_memory_view %X, sizes: [128], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [128], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_order = #id, access_tile_set = #v} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  %m0 = tensor.splat %ninf : tensor<f16>
  %mx = linalg.reduce { arith.maximumf } ins(%x : tensor<128xf16>) outs(%m0 : tensor<f16>) dimensions = [0]
  %m = tensor.extract %mx[] : tensor<f16>
  scf.for %j = %c0 to %c128 step %c64 {
    %bt = ktdp.construct_access_tile %xv[%j] {access_tile_order = #id, access_tile_set = #blk} : memref<128xf16> -> !ktdp.access_tile<64xindex>
    %b = ktdp.load %bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %mb = tensor.splat %m : tensor<64xf16>
    %y = arith.divf %b, %mb : tensor<64xf16>
    %yt = ktdp.construct_access_tile %yv[%j] {access_tile_order = #id, access_tile_set = #blk} : memref<128xf16> -> !ktdp.access_tile<64xindex>
    ktdp.store %y, %yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  return
}

func.func @own_loads(%X: index, %Y: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %xv = ktdp.construct_memory_view %X, sizes: [128], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [128], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  scf.for %j = %c0 to %c128 step %c64 {
    %bt = ktdp.construct_access_tile %xv[%j] {access_tile_order = #id, access_tile_set = #blk} : memref<128xf16> -> !ktdp.access_tile<64xindex>
    %b = ktdp.load %bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %yt = ktdp.construct_access_tile %yv[%j] {access_tile_order = #id, access_tile_set = #blk} : memref<128xf16> -> !ktdp.access_tile<64xindex>
    ktdp.store %b, %yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  }
  return
}
