// RUN: ktir-opt %s -p wrap-program-dfir --verify-diagnostics | filecheck %s

/// Symbols hold index values: a compute group that reads a float kernel argument inside its
/// programs cannot be wrapped; the error names the reader and says how to bind the value.

// CHECK: 'arith.addf' op reads the f32 kernel argument %eps inside a compute group: symbols hold index values, so a float argument must be bound at compile time (--arg NAME=VALUE)
module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  module @local_schedule_0 {
    func.func @local_schedule_0(%eps: f32) {
      %in0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
      dataflow.program_unit iter_arg : %u -> (%in0) : {
        %x = arith.addf %eps, %eps : f32
      }
      func.return
    }
  }
}
