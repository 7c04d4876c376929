// RUN: not ktir emulate %s -d %S/Inputs/one-core.mlir --arg 0 2>&1 | filecheck %s

/// A template device (one core written out) is instantiated once per tile of the grid: a grid
/// of millions is refused at the entry, within a second (it took minutes building the cores'
/// datapaths; a fuzz mutant of negative-spin.mlir).

func.func @k(%a0: index) attributes {grid = [2658254]} {
  symbol.create_id %a0 {symbol_id = -1 : si64} : index
  func.call @k_body() : () -> ()
  func.return
}
func.func @k_body() attributes {grid = [1]} {
  %lu = dataflow.get_unit {core = 0 : i32, name = "C0-LU", type = "LU"} : index
  dataflow.program_unit %lu : {
    %t = arith.constant true
    scf.while () : () -> () {
      scf.condition(%t)
    } do {
      scf.yield
    }
  }
  func.return
}
// CHECK: negative-huge-grid.mlir:7:1: error: 'func.func' op the kernel's grid has 2,658,254 tiles: the emulator instantiates template device @{{.*}}'s core once per tile, for at most 16,384 tiles
