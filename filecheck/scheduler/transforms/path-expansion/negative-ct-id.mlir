// RUN: not ktir-opt %s -p 'ensure-device-declaration{device=sample_device},ktir-to-ktdf,path-expansion' 2>&1 | filecheck %s

/// The sample device has no unit that links its scratchpads (L1) to each other: a view of a
/// given tile's scratchpad (ct_id) stays refused there, with the reason.

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

// CHECK: error: 'ktdf.data_transfer' op device @sample_device has no inter-core path for memory 'L1' (a unit with datapaths from and to it and links between its own instances, like a ring): views of a given tile's scratchpad (ct_id) cannot be reached
func.func @remote(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %a = arith.constant 4096 : index
  %X = ktdp.construct_memory_view %a, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
