// RUN: ktir-opt %S/basic.mlir -p ktdflowering-to-dfir | filecheck %s

/// DataflowIR carries no ScheduleIR attribute: the loops cloned into the programs lose their
/// `#ktdf.loop_type` marks. (The input is basic.mlir's.)

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         dataflow.program_unit
// CHECK-NOT:     loop_type
// CHECK:         func.return
