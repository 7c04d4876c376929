// RUN: not ktir-opt %s -p 'emit-split-dfir{output_dir="%s/out"}' 2>&1 | filecheck %s

/// An output directory that cannot be created (here: below a file) is an error naming the
/// directory and the reason, with exit code 1.

// CHECK: error: cannot write to '{{.*}}negative-unwritable.mlir/out': Not a directory
// CHECK-NOT: Traceback

func.func @kernel() {
  func.return
}
