// RUN: not ktir-opt %s -p 'bind-arguments{values="nope=1"}' 2>&1 | filecheck %s --check-prefix=NAME
// RUN: not ktir-opt %s -p 'bind-arguments{values="n=300"}' 2>&1 | filecheck %s --check-prefix=RANGE
// RUN: not ktir-opt %s -p 'bind-arguments{values="M=96"}' 2>&1 | filecheck %s --check-prefix=RUNTIME
// RUN: not ktir-opt %s -p 'bind-arguments{values="n"}' 2>&1 | filecheck %s --check-prefix=SYNTAX

/// What cannot be bound says why: an unknown name (with the arguments there are), a value the
/// type cannot hold, a runtime argument (bound at launch, never by the compiler), a binding
/// without a value.

// NAME: error: --arg nope: no kernel has an argument named 'nope' (arguments: M, n)
// RANGE: error: --arg n=300: argument 'n' of type i8 cannot take the value '300'
// RUNTIME: error: --arg M: 'M' is a runtime argument (!ktdp.runtime_arg<index, upperbound=300>); runtime arguments stay symbolic down to DataflowIR and are bound at launch
// SYNTAX: error: bind-arguments expects NAME=VALUE, got 'n'
func.func @k(%n: i8, %M: !ktdp.runtime_arg<index, upperbound=300>) {
  %n2 = arith.addi %n, %n : i8
  return
}
