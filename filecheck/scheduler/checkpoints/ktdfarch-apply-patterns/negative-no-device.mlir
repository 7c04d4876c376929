// RUN: not ktir-opt %s -p 'ktdfarch-apply-patterns{groups=pre_mapping}' 2>&1 | filecheck %s

/// Without a device there is nothing to take patterns from: an error that says how to give
/// one, not a silent no-op.

// CHECK: error: pass 'ktdfarch-apply-patterns' needs a device: declare one in the module
func.func @scale(%a: index) -> index {
  %c3 = arith.constant 3 : index
  %m = arith.muli %a, %c3 : index
  return %m : index
}
