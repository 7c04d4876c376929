// RUN: not ktir emulate %s -d %S/Inputs/one-core.mlir --arg 0 2>&1 | filecheck %s
// RUN: not ktir emulate %s -d %S/Inputs/one-core.mlir --arg 0 --loop-limit 1000 2>&1 | filecheck %s --check-prefix=LIMIT

/// A loop that never ends and does no timed work (no transfer, vector op or signal) cannot be
/// stopped by the cycle limit: the loop limit (10^7 iterations by default, --loop-limit) stops
/// it within seconds, located at the loop and naming the unit.

func.func @k(%a0: index) attributes {grid = [1]} {
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
// CHECK: negative-spin.mlir:[[# @LINE - 8]]:5: error: 'scf.while' op C0-LU reached 10,000,001 iterations of loops that do no timed work (no transfer, vector op or signal), more than the loop limit of 10,000,000: an endless loop? (raise the limit with --loop-limit) [unit C0-LU, cycle 0]
// LIMIT: error: 'scf.while' op C0-LU reached 1,001 iterations of loops that do no timed work
