// RUN: ktir emulate %s -d sample_device --arg 8 --arg 3 | filecheck %s --check-prefix=OK
// RUN: not ktir emulate %s -d sample_device --arg 6 --arg 3 2>&1 | filecheck %s --check-prefix=GRAN
// RUN: not ktir emulate %s -d sample_device --arg 20 --arg 3 2>&1 | filecheck %s --check-prefix=UPPER

/// A runtime argument keeps its former type as the argument attribute `ktdp.runtime_arg`; the
/// launch must respect its granularity and upper bound (ktir.md §2), else a located error
/// names the argument. Arguments without the attribute take any value.

// OK: cycles on @sample_device
// GRAN: negative-runtime-arg.mlir:[[# @LINE + 2]]:1: error: 'func.func' op argument 0 (%m) of @k: 6 is not a multiple of its granularity 4 (!ktdp.runtime_arg<index, granularity=4, upperbound=16>)
// UPPER: negative-runtime-arg.mlir:[[# @LINE + 1]]:1: error: 'func.func' op argument 0 (%m) of @k: 20 exceeds its upper bound 16 (!ktdp.runtime_arg<index, granularity=4, upperbound=16>)
func.func @k(%m: index {ktdp.runtime_arg = !ktdp.runtime_arg<index, granularity=4, upperbound=16>}, %x: index) {
  func.return
}
