// RUN: ktir-opt %s -p 'ktir-to-dfir{device=sample_device stop_at=post_lowering}' | filecheck %s --check-prefix=LOW
// RUN: ktir-opt %s -p 'ktir-to-dfir{device=sample_device disable=path-expansion stop_at=normalize-grid-to-1d}' | filecheck %s --check-prefix=DIS

/// `stop_at` ends the pipeline after a checkpoint or a pass, `disable` skips passes by name.
/// At the post_lowering checkpoint the stages are bound to units but no program is built yet.
/// With path-expansion disabled (and stopping after normalize-grid-to-1d) the pipelines stay
/// unrouted (FIFOs straight from DDR to the SFU), there is no buffer to place, and the grid
/// still becomes 1-D.

// LOW-LABEL: func.func @local_schedule_0(
// LOW:         dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"}
// LOW:         ktdf_lowering.execute_on
// LOW:         } {applicable_units = ["MNILU", "L1LU", "SFU", "L1SU", "MNISU"]}
// LOW-NOT:     dataflow.program_unit

// DIS-LABEL: func.func @local_schedule_0(
// DIS-SAME:    attributes {grid = [2 : i64]}
// DIS:         %[[X:.*]] = ktdp.get_compute_tile_id : index
// DIS-NEXT:    %[[D0:.*]] = arith.constant 1 : index
// DIS-NEXT:    arith.remui %[[X]], %[[D0]] : index
// DIS:         ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "DDR", 64xf16>,
// DIS-NOT:     builtin.unrealized_conversion_cast

func.func @neg_rows(%x: index, %y: index) attributes {grid = [1, 2]} {
  %c0 = arith.constant 0 : index
  %y0, %y1 = ktdp.get_compute_tile_id : index, index
  %xv = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %xt = ktdp.construct_access_tile %xv[%y1, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %n = arith.negf %a : tensor<1x64xf16>
  %yv = ktdp.construct_memory_view %y, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %yt = ktdp.construct_access_tile %yv[%y1, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %n, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
