// RUN: ktir-opt %s -p 'ensure-device-declaration{device=spyre},ktir-to-ktdf,path-expansion' | filecheck %s

/// On spyre a view of a given tile's scratchpad (ct_id = 1) is reached over the ring: the
/// load's first hop is a RING stage from that view (core 1's LX) into a buffer of the
/// executing core's LX, then LX_LOAD feeds the PE as for a local view. A store into core 0's
/// scratchpad ends with a RING stage from the local LX buffer into the view. The device
/// memory side (B) keeps its DMA hops.

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[X:.*]] = memref.memory_space_cast %X : memref<4x64xf16> to memref<4x64xf16, "LX">
// CHECK:         %[[Y:.*]] = memref.memory_space_cast %Y : memref<4x64xf16> to memref<4x64xf16, "LX">
// CHECK:         ktdf.private -> (!ktdf.fifo.slot<"LX_LOAD" -> "PE", 64xf16>, !ktdf.fifo.slot<"PE" -> "LX_STORE", 64xf16>, memref<1x64xf16, "LX">, memref<1x64xf16, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token)
// CHECK:         ktdf.stage depends_in(none) depends_out(%{{.*}}) {
// CHECK-NEXT:      ktdf.data_transfer from %[[X]][%{{.*}}, %{{.*}}] size [1, 64] to %[[IN:.*]][0, 0] size [1, 64] : memref<4x64xf16, "LX">, memref<1x64xf16, "LX">
// CHECK-NEXT:    } {applicable_units = ["RING"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %[[IN]][0, 0] size [1, 64] to %{{.*}} size [64]
// CHECK-NEXT:    } {applicable_units = ["LX_LOAD"]}
// CHECK:         } {applicable_units = ["PE"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %{{.*}} size [64] to %[[OUT:.*]][0, 0] size [1, 64]
// CHECK-NEXT:    } {applicable_units = ["LX_STORE"]}
// CHECK-NEXT:    ktdf.stage
// CHECK-NEXT:      ktdf.data_transfer from %[[OUT]][0, 0] size [1, 64] to %[[Y]][%{{.*}}, %{{.*}}] size [1, 64] : memref<1x64xf16, "LX">, memref<4x64xf16, "LX">
// CHECK-NEXT:    } {applicable_units = ["RING"]}
func.func @remote(%B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %a = arith.constant 4096 : index
  %X = ktdp.construct_memory_view %a, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %Y = ktdp.construct_memory_view %a, sizes: [4, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x64xf16>
  %xt = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %yt = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_order = #o, access_tile_set = #s} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %n = arith.negf %x : tensor<4x64xf16>
  ktdp.store %n, %yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
