// RUN: ktir compile %s -d spyre -q --stop-at fuse-compute-groups | filecheck %s
// RUN: ktir run %s -d spyre 2>/dev/null | filecheck %s --check-prefix=EMU

/// Groups that only a launch orders stay apart. s = x (read from device memory) and
/// t = exp(s) fuse; u = y into s's place would overwrite what the fused group reads, so it
/// is launched after it; out = s + t writes device memory, which the others read.

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @apart(
// CHECK-SAME:      %[[X:[A-Za-z0-9_]+]]: index, %[[Y:[A-Za-z0-9_]+]]: index, %[[OUT:[A-Za-z0-9_]+]]: index)
// CHECK-NEXT:    func.call @local_schedule_0(%[[X]]) : (index) -> ()
// CHECK-NEXT:    func.call @local_schedule_2(%[[Y]]) : (index) -> ()
// CHECK-NEXT:    func.call @local_schedule_3(%[[OUT]]) : (index) -> ()
// CHECK-NEXT:    func.return

// EMU: check out 128x256 float16: matches the reference
func.func @apart(%x: index, %y: index, %out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s_at = arith.constant 0 : index
  %t_at = arith.constant 16384 : index
  %id = ktdp.get_compute_tile_id : index
  %r = arith.muli %id, %c64 : index
  %X = ktdp.construct_memory_view %x, sizes: [128, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [128, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %O = ktdp.construct_memory_view %out, sizes: [128, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %S = ktdp.construct_memory_view %s_at, sizes: [64, 256], strides: [256, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<64x256xf16>
  %T = ktdp.construct_memory_view %t_at, sizes: [64, 256], strides: [256, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<64x256xf16>
  %xt = ktdp.construct_access_tile %X[%r, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<128x256xf16> -> !ktdp.access_tile<64x256xindex>
  %yt = ktdp.construct_access_tile %Y[%r, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<128x256xf16> -> !ktdp.access_tile<64x256xindex>
  %ot = ktdp.construct_access_tile %O[%r, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<128x256xf16> -> !ktdp.access_tile<64x256xindex>
  %st = ktdp.construct_access_tile %S[%c0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<64x256xf16> -> !ktdp.access_tile<64x256xindex>
  %tt = ktdp.construct_access_tile %T[%c0, %c0] {access_tile_order = #id, access_tile_set = #row} : memref<64x256xf16> -> !ktdp.access_tile<64x256xindex>
  %a = ktdp.load %xt : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  ktdp.store %a, %st : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  %s = ktdp.load %st : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  %e0 = tensor.empty() : tensor<64x256xf16>
  %t = linalg.exp ins(%s : tensor<64x256xf16>) outs(%e0 : tensor<64x256xf16>) -> tensor<64x256xf16>
  ktdp.store %t, %tt : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  %b = ktdp.load %yt : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  ktdp.store %b, %st : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  %u = ktdp.load %st : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  %t2 = ktdp.load %tt : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  %e1 = tensor.empty() : tensor<64x256xf16>
  %o = linalg.add ins(%u, %t2 : tensor<64x256xf16>, tensor<64x256xf16>) outs(%e1 : tensor<64x256xf16>) -> tensor<64x256xf16>
  ktdp.store %o, %ot : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  return
}
