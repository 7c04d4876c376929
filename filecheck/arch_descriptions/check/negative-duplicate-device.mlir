// RUN: not ktir arch check %s 2>&1 | filecheck %s

/// A device declared twice under one name is an error at the second declaration, naming the
/// first (not an unlocated "Redefinition of symbol" on the implicit module).

ktdf_arch.device @twice {
  %m = memory {kind = "M", size = 1024}
}

ktdf_arch.device @twice {
  %m = memory {kind = "M", size = 1024}
}
// CHECK: negative-duplicate-device.mlir:[[# @LINE - 3]]:1: error: 'ktdf_arch.device' op Redefinition of symbol "twice" (first defined at {{.*}}negative-duplicate-device.mlir:6:1)
