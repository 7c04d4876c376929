// RUN: not ktir emulate %s -d %S/Inputs/one-core.mlir --arg 0 2>&1 | filecheck %s

/// A view whose layout has a coefficient beyond 64 bits (a fuzz mutant of a fault program): a
/// located error at the view (it was "internal error: OverflowError" planning the access).

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
    %v = dataflow.get_logical_memory_view %sp, %c0 {layout_map = affine_map<(d0, d1) -> (d0 * 1000000000000000000000000000000 + d1)>} : index, index, memref<1x64xf16>
    %x = agen.vector_load %v[0, 0] {load_order = affine_map<(d0, d1) -> (d0, d1)>, load_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16>, vector<64xf16>
  }
  func.return
}
// CHECK: negative-huge-layout.mlir:16:5: error: 'dataflow.get_logical_memory_view' op the view's layout has the coefficient 1000000000000000000000000000000, beyond the 64-bit range of element addresses
