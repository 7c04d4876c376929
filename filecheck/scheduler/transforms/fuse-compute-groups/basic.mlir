// RUN: ktir compile %s -d spyre -q --stop-at fuse-compute-groups | filecheck %s
// RUN: ktir compile %s -d spyre -q --stop-at ktdf-to-ktdflowering | filecheck %s --check-prefix=SIG
// RUN: ktir run %s -d spyre 2>/dev/null | filecheck %s --check-prefix=EMU
// RUN: ktir compile %s -d spyre -q --stop-at fuse-compute-groups --disable fuse-compute-groups | filecheck %s --check-prefix=OFF
// RUN: ktir compile %s -d spyre -q --stop-at subsume-linearize-index | ktir-opt -p fuse-compute-groups,fuse-compute-groups | filecheck %s

/// Three phases on each of 2 tiles, through the tile's own scratchpad: s = exp(x) (x read
/// from device memory), t = s + y (y read), out = t * t. The first two write no device
/// memory: they fuse into one launch, and the second's DMA of y no longer waits for the
/// first's drain; its load of s waits for the first's last store (a signal). The third
/// writes device memory that the fused group reads, so it stays a launch of its own.

#row = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @phases(
// CHECK-SAME:      %[[X:[A-Za-z0-9_]+]]: index, %[[Y:[A-Za-z0-9_]+]]: index, %[[OUT:[A-Za-z0-9_]+]]: index)
// CHECK-NEXT:    func.call @local_schedule_0(%[[X]], %[[Y]]) : (index, index) -> ()
// CHECK-NEXT:    func.call @local_schedule_2(%[[OUT]]) : (index) -> ()
// CHECK-NEXT:    func.return
// CHECK:       func.func private @local_schedule_0(index, index) -> ()
// CHECK-NOT:   @local_schedule_1
// CHECK:       builtin.module @local_schedule_0 {
// CHECK-NEXT:    func.func @local_schedule_0(%[[X0:[A-Za-z0-9_]+]]: index, %[[Y0:[A-Za-z0-9_]+]]: index)
// CHECK:           %[[S:[A-Za-z0-9_]+]] = memref.memory_space_cast %{{.*}} to memref<64x256xf16, "LX">
// CHECK:           ktdf.data_transfer from %{{.*}} to %[[S]][
// CHECK:           ktdf.data_transfer from %{{.*}}[%{{.*}}] size [{{.*}}] to %{{.*}} : memref<128x256xf16, "DDR">
// CHECK:           ktdf.data_transfer from %[[S]][
// CHECK-NOT:   builtin.module @local_schedule_1
// CHECK:       builtin.module @local_schedule_2 {

// the fused group's load of s waits for its store's signal, in its first instance only
// SIG-LABEL:   func.func @local_schedule_0(
// SIG:           scf.if %{{.*}} {
// SIG-NEXT:        ktdf_lowering.signal %[[STORE:[A-Za-z0-9_]+]], %[[LOAD:[A-Za-z0-9_]+]] {applicable_units = ["LX_STORE"], sync = "send"}
// SIG:           ktdf_lowering.execute_on %[[LOAD]] {
// SIG:             scf.if %{{.*}} {
// SIG-NEXT:          ktdf_lowering.signal %[[STORE]], %[[LOAD]] {applicable_units = ["LX_LOAD"], sync = "recv"}
// SIG-LABEL:   func.func @local_schedule_2(

// EMU: kernel @phases on spyre: 2 tile(s)
// EMU: check out 128x256 float16: matches the reference

// OFF:         func.call @local_schedule_0(%{{.*}}) : (index) -> ()
// OFF-NEXT:    func.call @local_schedule_1(%{{.*}}) : (index) -> ()
// OFF-NEXT:    func.call @local_schedule_2(%{{.*}}) : (index) -> ()
func.func @phases(%x: index, %y: index, %out: index) attributes {grid = [2]} {
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
  %e0 = tensor.empty() : tensor<64x256xf16>
  %s = linalg.exp ins(%a : tensor<64x256xf16>) outs(%e0 : tensor<64x256xf16>) -> tensor<64x256xf16>
  ktdp.store %s, %st : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  %s2 = ktdp.load %st : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  %b = ktdp.load %yt : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  %e1 = tensor.empty() : tensor<64x256xf16>
  %t = linalg.add ins(%s2, %b : tensor<64x256xf16>, tensor<64x256xf16>) outs(%e1 : tensor<64x256xf16>) -> tensor<64x256xf16>
  ktdp.store %t, %tt : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  %t2 = ktdp.load %tt : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  %e2 = tensor.empty() : tensor<64x256xf16>
  %o = linalg.mul ins(%t2, %t2 : tensor<64x256xf16>, tensor<64x256xf16>) outs(%e2 : tensor<64x256xf16>) -> tensor<64x256xf16>
  ktdp.store %o, %ot : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  return
}
