// RUN: ktir-opt %s -p 'ktir-to-dfir{device=sample_device disable=address-assignment stop_at=address-assignment}' | filecheck %s

/// Stopping at a disabled pass stops where that pass would have run: here after
/// post_scheduling, with the L1 buffers still `memref.alloc` and no program built.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         memref.alloc() : memref<1x64xf16, "L1">
// CHECK-NOT:     dataflow.program_unit

func.func @neg_row(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %n = arith.negf %a : tensor<1x64xf16>
  ktdp.store %n, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
