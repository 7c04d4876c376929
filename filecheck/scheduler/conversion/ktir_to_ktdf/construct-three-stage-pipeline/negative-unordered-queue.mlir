// RUN: not ktir-opt %s -p construct-three-stage-pipeline 2>&1 | filecheck %s

/// FIFO slots need links that deliver in order: a device whose load unit feeds the compute
/// unit through a queue without `ordered` is refused, naming the link.

#q = {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4, ordered}}}
ktdf_arch.device @unordered {
  %ddr = memory {kind = "DDR", size = 1048576}
  group {kind = "core"} share(%ddr) {
    %lu = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
    %su = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
    %sfu = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64>}}}
    datapath #q %ddr to %lu : memory, exec_unit
    datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 4}}} %lu to %sfu : exec_unit, exec_unit
    datapath #q %sfu to %su : exec_unit, exec_unit
    datapath #q %su to %ddr : exec_unit, memory
  }
}
// CHECK: error: {{.*}}"LU" -> "SFU"{{.*}}ordered
func.func @negative_unordered_queue(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %n = arith.negf %a : tensor<1x64xf16>
  ktdp.store %n, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  func.return
}
