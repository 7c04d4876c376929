// RUN: not ktir emulate %s -d %S/Inputs/one-core.mlir --arg 0 2>&1 | filecheck %s

/// A load set whose constant lies beyond 64 bits (fuzz seed 4 dfir:805 mutated a time set to
/// `d0 == -9223372036854775809 + 1`): a located error at the access (it was "internal error:
/// OverflowError" enumerating the set).

func.func @k(%a0: index) attributes {grid = [1]} {
  symbol.create_id %a0 {symbol_id = -1 : si64} : index
  func.call @k_body() : () -> ()
  func.return
}
func.func @k_body() attributes {grid = [1]} {
  %sp = dataflow.get_unit {core = 0 : i32, name = "C0-SP", type = "SP"} : index
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-LU", type = "LU"} : index
  %c0 = arith.constant 0 : index
  dataflow.program_unit %lu : {
    %v = dataflow.get_logical_memory_view %sp, %c0 {layout_map = affine_map<(d0, d1) -> (d0 * 64 + d1)>} : index, index, memref<1x64xf16>
    %x = agen.vector_load %v[0, 0] {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == -9223372036854775809 + 1, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16>, vector<64xf16>
  }
  func.return
}
// CHECK-NOT: internal error
// CHECK: negative-huge-set-constant.mlir:18:5: error: 'agen.vector_load' op {{.*}}beyond 64 bits
