// RUN: not ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/small-scratchpad.mlir"},reduction-dim-chunking' 2>&1 | filecheck %s

/// A row of 8192 f16 (16 KiB) too long for the 8 KiB scratchpad, reduced, but also read whole
/// (an element of it, by tensor.extract), cannot be chunked: a located diagnostic names the op
/// and why.

// CHECK: negative-unchunkable.mlir:[[# @LINE + 12]]:{{[0-9]+}}: error: 'tensor.extract' op reads a row of 8192 columns too long for the scratchpad, and is not element-wise, a reduction or a store: reduction-dim-chunking can only chunk element-wise ops, reductions over the last dimension and stores of such rows
module {
  func.func @extract(%out: index, %in: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %in, sizes: [1, 8192], strides: [8192, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 8191 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<1x8192xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 8191 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<1x8192xf16> -> !ktdp.access_tile<1x8192xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x8192xindex> -> tensor<1x8192xf16>
    %e = tensor.extract %x[%c0, %c0] : tensor<1x8192xf16>
    %y_view = ktdp.construct_memory_view %out, sizes: [1], strides: [1] {
        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<1xf16>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {
        access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>,
        access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %s = tensor.splat %e : tensor<1xf16>
    %m = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x8192xf16>) outs(%s : tensor<1xf16>)
        dimensions = [1]
    ktdp.store %m, %y_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
    return
  }
}
