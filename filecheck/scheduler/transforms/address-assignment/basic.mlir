// RUN: ktir-opt %s -p address-assignment | filecheck %s

/// Every `memref.alloc` in a device memory gets an address in that memory, counted in elements
/// of its element type, bump-allocated per memory kind and per compute group and aligned to a
/// 128-byte stick: the alloc becomes an `arith.constant` address and an
/// `unrealized_conversion_cast` to the same memref type (the name is kept), deallocs vanish.
/// Buffers outside the device memories (no string memory space) are not touched.

// The routed negation: two 128-byte L1 buffers at elements 0 and 64.
// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %{{[^,]*}}, %{{[^,]*}}, %[[BIN:[^,]*]], %[[BOUT:[^,]*]], %{{.*}} = ktdf.private
// CHECK:           ktdf.fifo.allocate
// CHECK-NEXT:      ktdf.fifo.allocate
// CHECK-NEXT:      %[[A0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[IN:.*]] = builtin.unrealized_conversion_cast %[[A0]] : index to memref<1x64xf16, "L1">
// CHECK-NEXT:      %[[A1:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[A1]] : index to memref<1x64xf16, "L1">
// CHECK-NEXT:      ktdf.create_token
// CHECK:           ktdf.private_yield %{{[^,]*}}, %{{[^,]*}}, %[[IN]], %[[OUT]],
// CHECK:         ktdf.data_transfer from %{{.*}} to %[[BIN]][0, 0] size [1, 64]
// CHECK:         ktdf.data_transfer from %[[BOUT]][0, 0] size [1, 64] to
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%x: index, %y: index) attributes {grid = [2]} {
      %c2 = arith.constant 2 : index
      %tid = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %tid, %c2 : index
      %xv = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %xc = memref.memory_space_cast %xv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %yv = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %yc = memref.memory_space_cast %yv : memref<4x64xf16> to memref<4x64xf16, "DDR">
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c2 step %c1 {
        ktdf.pipeline {
          %s, %r, %bin, %bout, %t0, %t1, %t2, %t3, %t4 = ktdf.private -> (!ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
            %s0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
            %r0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
            %buf_in = memref.alloc() : memref<1x64xf16, "L1">
            %buf_out = memref.alloc() : memref<1x64xf16, "L1">
            %k0 = ktdf.create_token : !ktdf.token
            %k1 = ktdf.create_token : !ktdf.token
            %k2 = ktdf.create_token : !ktdf.token
            %k3 = ktdf.create_token : !ktdf.token
            %k4 = ktdf.create_token : !ktdf.token
            ktdf.private_yield %s0, %r0, %buf_in, %buf_out, %k0, %k1, %k2, %k3, %k4 : !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>, !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">, memref<1x64xf16, "L1">, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%t0) {
            ktdf.data_transfer from %xc[%row0 + %i, %c0] size [1, 64] to %bin[0, 0] size [1, 64] : memref<4x64xf16, "DDR">, memref<1x64xf16, "L1">
          } {applicable_units = ["MNILU"]}
          ktdf.stage depends_in(%t0) depends_out(%t1) {
            ktdf.data_transfer from %bin[0, 0] size [1, 64] to %s size [64] : memref<1x64xf16, "L1">, !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
          } {applicable_units = ["L1LU"]}
          ktdf.stage depends_in(%t1) depends_out(%t2) {
            %a = ktdf.read_from_fifo %s : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
            %e = tensor.empty() : tensor<1x64xf16>
            %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
            ^bb0(%p: f16, %o: f16):
              %m = arith.negf %p : f16
              linalg.yield %m : f16
            } -> tensor<1x64xf16>
            ktdf.write_to_fifo %n, %r : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
          } {applicable_units = ["SFU"]}
          ktdf.stage depends_in(%t2) depends_out(%t3) {
            ktdf.data_transfer from %r size [64] to %bout[0, 0] size [1, 64] : !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>, memref<1x64xf16, "L1">
          } {applicable_units = ["L1SU"]}
          ktdf.stage depends_in(%t3) depends_out(%t4) {
            ktdf.data_transfer from %bout[0, 0] size [1, 64] to %yc[%row0 + %i, %c0] size [1, 64] : memref<1x64xf16, "L1">, memref<4x64xf16, "DDR">
          } {applicable_units = ["MNISU"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>}
      func.return
    }
  }

  // A second group starts again at address 0. A 64-byte f32 buffer still takes a whole stick,
  // so the next L1 buffer starts at byte 128: element 32 of f32, element 64 of f16. Each memory
  // kind has its own counter (SFU_REG starts at 0); the dealloc goes, the plain memref stays.
  // CHECK-LABEL: func.func @local_schedule_1(
  // CHECK-NEXT:    %[[B0:.*]] = arith.constant 0 : index
  // CHECK-NEXT:    %[[ACC:.*]] = builtin.unrealized_conversion_cast %[[B0]] : index to memref<16xf32, "L1">
  // CHECK-NEXT:    %[[B1:.*]] = arith.constant 64 : index
  // CHECK-NEXT:    %[[ROW:.*]] = builtin.unrealized_conversion_cast %[[B1]] : index to memref<1x64xf16, "L1">
  // CHECK-NEXT:    %[[B2:.*]] = arith.constant 0 : index
  // CHECK-NEXT:    %[[REG:.*]] = builtin.unrealized_conversion_cast %[[B2]] : index to memref<64xf16, "SFU_REG">
  // CHECK-NEXT:    %[[HOST:.*]] = memref.alloc() : memref<4xf16>
  // CHECK-NEXT:    func.call @use(%[[ACC]], %[[ROW]], %[[REG]], %[[HOST]])
  // CHECK-NEXT:    func.return
  module @local_schedule_1 {
    func.func @local_schedule_1() attributes {grid = [1]} {
      %acc = memref.alloc() : memref<16xf32, "L1">
      %row = memref.alloc() : memref<1x64xf16, "L1">
      %reg = memref.alloc() : memref<64xf16, "SFU_REG">
      %host = memref.alloc() : memref<4xf16>
      func.call @use(%acc, %row, %reg, %host) : (memref<16xf32, "L1">, memref<1x64xf16, "L1">, memref<64xf16, "SFU_REG">, memref<4xf16>) -> ()
      memref.dealloc %acc : memref<16xf32, "L1">
      func.return
    }
    func.func private @use(memref<16xf32, "L1">, memref<1x64xf16, "L1">, memref<64xf16, "SFU_REG">, memref<4xf16>)
  }
}
