// RUN: ktir-opt %s -p normalize-grid-to-1d | filecheck %s

/// A 2x2 grid becomes a grid of 4 and the two tile coordinates are rebuilt from the one linear
/// tile id, first grid dimension fastest (ktir.md D2): x = id mod 2, y = id div 2. Every use of
/// the old coordinates (here the row and column offsets of the transfers) reads the new ones.
/// The host function's grid is flattened too; a 1-D grid is left alone.

// CHECK-LABEL: func.func @copy_blocks(
// CHECK-SAME:    attributes {grid = [4 : i64]}

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK-SAME:    attributes {grid = [4 : i64]}
// CHECK:         %[[ID:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT:    %[[D0:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[X:.*]] = arith.remui %[[ID]], %[[D0]] : index
// CHECK-NEXT:    %[[Y:.*]] = arith.divui %[[ID]], %[[D0]] : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %[[X]], %{{.*}} : index
// CHECK-NEXT:    %[[COL:.*]] = arith.muli %[[Y]], %{{.*}} : index
// CHECK-NOT:     ktdp.get_compute_tile_id
// CHECK:         ktdf.data_transfer from %{{.*}}[%[[ROW]] + %{{.*}}, %[[COL]]] size [1, 64]
// CHECK:         ktdf.data_transfer from %{{.*}} to %{{.*}}[%[[ROW]] + %{{.*}}, %[[COL]]] size [1, 64]
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module {
    func.func @copy_blocks(%x: index, %y: index) attributes {grid = [2, 2]} {
      func.call @local_schedule_0(%x, %y) : (index, index) -> ()
      func.return
    }
    func.func private @local_schedule_0(index, index)
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2, 2]} {
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %tx, %ty = ktdp.get_compute_tile_id : index, index
      %row = arith.muli %tx, %c2 : index
      %col = arith.muli %ty, %c64 : index
      %xv = ktdp.construct_memory_view %x, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
      %xc = memref.memory_space_cast %xv : memref<4x128xf16> to memref<4x128xf16, "DDR">
      %yv = ktdp.construct_memory_view %y, sizes: [4, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
      %yc = memref.memory_space_cast %yv : memref<4x128xf16> to memref<4x128xf16, "DDR">
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %buf, %t0, %t1 = ktdf.private -> (memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token) {
            %a = arith.constant 0 : index
            %b = builtin.unrealized_conversion_cast %a : index to memref<1x64xf16, "L1">
            %k0 = ktdf.create_token : !ktdf.token
            %k1 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %b, %k0, %k1 : memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%t0) {
            ktdf.data_transfer from %xc[%row + %i, %col] size [1, 64] to %buf[0, 0] size [1, 64] : memref<4x128xf16, "DDR">, memref<1x64xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%t0) depends_out(%t1) {
            ktdf.data_transfer from %buf[0, 0] size [1, 64] to %yc[%row + %i, %col] size [1, 64] : memref<1x64xf16, "L1">, memref<4x128xf16, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }

  // Three dimensions: a chain of remainders and quotients, the last coordinate is what is left.
  // CHECK-LABEL: func.func @grid_2x3x2(
  // CHECK-SAME:    attributes {grid = [12 : i64]}
  // CHECK-NEXT:    %[[ID:.*]] = ktdp.get_compute_tile_id : index
  // CHECK-NEXT:    %[[D0:.*]] = arith.constant 2 : index
  // CHECK-NEXT:    %[[A:.*]] = arith.remui %[[ID]], %[[D0]] : index
  // CHECK-NEXT:    %[[Q:.*]] = arith.divui %[[ID]], %[[D0]] : index
  // CHECK-NEXT:    %[[D1:.*]] = arith.constant 3 : index
  // CHECK-NEXT:    %[[B:.*]] = arith.remui %[[Q]], %[[D1]] : index
  // CHECK-NEXT:    %[[C:.*]] = arith.divui %[[Q]], %[[D1]] : index
  // CHECK-NEXT:    func.call @use3(%[[A]], %[[B]], %[[C]])
  func.func @grid_2x3x2() attributes {grid = [2, 3, 2]} {
    %a, %b, %c = ktdp.get_compute_tile_id : index, index, index
    func.call @use3(%a, %b, %c) : (index, index, index) -> ()
    func.return
  }
  func.func private @use3(index, index, index)

  // A single-result query already is the linear id: only the grid changes.
  // CHECK-LABEL: func.func @linear_id(
  // CHECK-SAME:    attributes {grid = [6 : i64]}
  // CHECK-NEXT:    %[[ID:.*]] = ktdp.get_compute_tile_id : index
  // CHECK-NEXT:    func.call @use1(%[[ID]])
  func.func @linear_id() attributes {grid = [3, 2]} {
    %id = ktdp.get_compute_tile_id : index
    func.call @use1(%id) : (index) -> ()
    func.return
  }
  func.func private @use1(index)

  // A 1-D grid is left as it is.
  // CHECK-LABEL: func.func @one_d(
  // CHECK-SAME:    attributes {grid = [8 : i64]}
  // CHECK-NEXT:    %[[ID:.*]] = ktdp.get_compute_tile_id : index
  // CHECK-NEXT:    func.call @use1(%[[ID]])
  func.func @one_d() attributes {grid = [8]} {
    %id = ktdp.get_compute_tile_id : index
    func.call @use1(%id) : (index) -> ()
    func.return
  }
}
