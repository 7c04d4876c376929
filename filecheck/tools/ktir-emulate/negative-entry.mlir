// RUN: not ktir emulate %s -d %S/Inputs/one-core.mlir --arg 0 2>&1 | filecheck %s
// RUN: not ktir emulate %S/Inputs/calls-cycle.mlir -d %S/Inputs/one-core.mlir 2>&1 | filecheck %s --check-prefix=CYCLE
// RUN: not ktir emulate %S/Inputs/no-function.mlir -d %S/Inputs/one-core.mlir 2>&1 | filecheck %s --check-prefix=NONE
// RUN: ktir emulate %s -d %S/Inputs/one-core.mlir --arg 0 --entry k | filecheck %s --check-prefix=GIVEN

/// Without --entry, `ktir emulate` runs the one function no other calls; when there are
/// several (here the host function no longer calls its body) or none, the error is located at
/// a function of the program and says to give --entry.

func.func @k(%a0: index) attributes {grid = [1]} {
  symbol.create_id %a0 {symbol_id = -1 : si64} : index
  func.return
}
// CHECK: negative-entry.mlir:[[# @LINE + 1]]:1: error: 'func.func' op is one of the program's entry candidates (@k, @k_body: functions no other calls): give --entry NAME
func.func @k_body() attributes {grid = [1]} {
  func.return
}
// CYCLE: calls-cycle.mlir:2:1: error: 'func.func' op is called, as is every function of the program, so none is the entry: give --entry NAME
// NONE: no-function.mlir:1:1: error: the program has no function to run
// GIVEN: cycles on @fdev
