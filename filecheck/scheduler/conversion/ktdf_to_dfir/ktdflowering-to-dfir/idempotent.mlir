// RUN: ktir-opt %S/basic.mlir -p ktdflowering-to-dfir,ktdflowering-to-dfir | filecheck %S/basic.mlir

/// Running the pass twice gives exactly what basic.mlir checks for one run: the programs the
/// first run built are DataflowIR, and no `execute_on` is left outside them, so the second
/// run builds nothing and lowers nothing. (This file has no IR of its own.)
