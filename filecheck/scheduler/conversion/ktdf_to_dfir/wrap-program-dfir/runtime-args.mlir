// RUN: ktir-opt %s -p wrap-program-dfir | filecheck %s

/// A `!ktdp.runtime_arg<T>` kernel argument reaches DataflowIR as its value, a plain `T`: the
/// host kernel, the group function and the host's declaration of it take `index`, the host's
/// `runtime_arg_extract value` is the argument itself and `upperbound` the constant its type
/// states (granularity alike), and the group binds the value to the argument's symbol. The
/// former type stays as the argument attribute `ktdp.runtime_arg` (its granularity and upper
/// bound, for whoever launches the kernel).

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:    %[[M:[^:]*]]: index {ktdp.runtime_arg = !ktdp.runtime_arg<index, granularity=32, upperbound=300>}, %[[A:[^:]*]]: index)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[UB:.*]] = arith.constant 300 : index
// CHECK-NEXT:    %[[END:.*]] = arith.minsi %[[M]], %[[UB]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[END]] step %[[C1]] {
// CHECK-NEXT:      func.call @local_schedule_0(%[[M]], %[[A]], %[[I]]) : (index, index, index) -> ()
// CHECK:       func.func private @local_schedule_0(index, index, index) -> ()

// CHECK:       func.func @local_schedule_0(%[[GM:[^:]*]]: index {ktdp.runtime_arg = {{.*}}}, %[[GA:[^:]*]]: index, %[[GI:[^:]*]]: index)
// CHECK-NEXT:    symbol.create_id %[[GM]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[GA]] {symbol_id = -2 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[GI]] {symbol_id = -3 : si64} : index
// CHECK-NOT:   runtime_arg_extract
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module {
    func.func @kernel(%m: !ktdp.runtime_arg<index, granularity=32, upperbound=300>, %a: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %mv = ktdp.runtime_arg_extract value from %m : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
      %ub = ktdp.runtime_arg_extract upperbound from %m : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
      %end = arith.minsi %mv, %ub : index
      scf.for %i = %c0 to %end step %c1 {
        func.call @local_schedule_0(%m, %a, %i) : (!ktdp.runtime_arg<index, granularity=32, upperbound=300>, index, index) -> ()
      }
      func.return
    }
    func.func private @local_schedule_0(!ktdp.runtime_arg<index, granularity=32, upperbound=300>, index, index)
  }
  module @local_schedule_0 {
    func.func @local_schedule_0(%gm: !ktdp.runtime_arg<index, granularity=32, upperbound=300>, %ga: index, %gi: index) {
      %ddr = dataflow.get_unit {name = "DDR", type = "DDR"} : index
      %in0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      dataflow.program_unit iter_arg : %u -> (%in0) : {
        %s = symbol.create_symbol {SymbolId = -1 : i64} : index
      }
      func.return
    }
  }
}
