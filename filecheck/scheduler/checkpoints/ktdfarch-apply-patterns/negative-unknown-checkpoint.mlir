// RUN: not ktir-opt %s -p 'ktdfarch-apply-patterns{groups=pre_mappin}' 2>&1 | filecheck %s

/// A misspelt checkpoint is an error that lists the four names (not a silent no-op).

// CHECK: error: unknown checkpoint 'pre_mappin' (expected one of pre_mapping, pre_scheduling, post_scheduling, post_lowering)
func.func @f() {
  return
}
