// RUN: ktir-opt %s -p 'ensure-device-declaration{device=sample_device},inter-tile-exchange' | filecheck %s

/// sample_device's cores share only device memory (no ring): the slots are in a device-memory
/// workspace, the kernel's new last argument, whose size the argument attribute gives (two
/// tiles x a partial slot and a result slot of one stick). Tile t's copy of a slot is at
/// workspace + slot + t x stride; the fold reads tile p's at a constant offset.

#group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g == 0)>

// CHECK-LABEL: func.func @no_ring(
// CHECK-SAME:      %[[WS:workspace]]: index {ktdf.workspace = {bytes = 512 : i64, element_bytes = 2 : i64}})
// CHECK:         %[[T:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[ST:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[A:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %[[T]], %[[ST]] : index
// CHECK-NEXT:    %[[B:.*]] = arith.addi %[[WS]], %[[A]] : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[B]], %[[ROW]] : index
// CHECK-NEXT:    %[[PV:.*]] = ktdp.construct_memory_view %[[OFF]], sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<global>}
// CHECK:         ktdp.store
// CHECK:         %[[P1:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[P1O:.*]] = arith.addi %[[WS]], %[[P1]] : index
// CHECK-NEXT:    ktdp.construct_memory_view %[[P1O]], {{.*}}memory_space = #ktdp.memory_space<global>}
// CHECK:         %[[R1:.*]] = arith.constant 192 : index
// CHECK-NEXT:    %[[R1O:.*]] = arith.addi %[[WS]], %[[R1]] : index
// CHECK-NEXT:    ktdp.construct_memory_view %[[R1O]], {{.*}}memory_space = #ktdp.memory_space<global>}
func.func @no_ring(%X: index) attributes {grid = [2]} {
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #group -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %zero : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group, identity(%zero : tensor<1x64xf16>) : !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %a = arith.addf %l, %r : tensor<1x64xf16>
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}
