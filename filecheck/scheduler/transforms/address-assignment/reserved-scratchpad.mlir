// RUN: ktir-opt %s -p 'ensure-device-declaration{device=spyre},ktir-to-ktdf,path-expansion,address-assignment' | filecheck %s

/// A constant-address scratchpad view (data left on chip by an earlier operator, here 4x64
/// f16 at element 0 of tile 1's LX, 512 B) reserves its range: the scratchpad buffers of the
/// ring and store hops start after it (element 256 = byte 512, then one stick further).

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[A0:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %{{.*}} = builtin.unrealized_conversion_cast %[[A0]] : index to memref<1x64xf16, "LX">
// CHECK-NEXT:    %[[A1:.*]] = arith.constant 320 : index
// CHECK-NEXT:    %{{.*}} = builtin.unrealized_conversion_cast %[[A1]] : index to memref<1x64xf16, "LX">
func.func @reserved(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %x, %bt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
