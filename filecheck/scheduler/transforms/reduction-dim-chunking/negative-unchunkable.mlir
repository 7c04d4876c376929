// RUN: not ktir-opt %s -p 'ensure-device-declaration{device="%S/Inputs/small-scratchpad.mlir"},reduction-dim-chunking' 2>&1 | filecheck %s

/// A row of 4096 f16 too long for the 8 KiB scratchpad whose whole value is needed at once (an
/// element read from it by tensor.extract, a reduction over the rows) cannot be chunked: a
/// located diagnostic names the op and why.

// CHECK: negative-unchunkable.mlir:[[# @LINE + 12]]:{{[0-9]+}}: error: 'tensor.extract' op reads a row of 4096 columns too long for the scratchpad, and is not element-wise, a reduction or a store: reduction-dim-chunking can only chunk element-wise ops, reductions over the last dimension and stores of such rows
module {
  func.func @extract(%out: index, %in: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %in, sizes: [1, 4096], strides: [4096, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<1x4096xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<1x4096xf16> -> !ktdp.access_tile<1x4096xindex>
    %x = ktdp.load %x_tile : !ktdp.access_tile<1x4096xindex> -> tensor<1x4096xf16>
    %e = tensor.extract %x[%c0, %c0] : tensor<1x4096xf16>
    %y_view = ktdp.construct_memory_view %out, sizes: [1], strides: [1] {
        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<1xf16>
    %y_tile = ktdp.construct_access_tile %y_view[%c0] {
        access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>,
        access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %s = tensor.splat %e : tensor<1xf16>
    ktdp.store %s, %y_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
    return
  }
}
