// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every uniform op survives print -> parse -> print, custom and generic: tables keyed by unit
/// (peer units, addresses, non-index values), lookups by the program's iter_arg, per-unit
/// regions with results, and equalized patterns.

// CHECK-LABEL: func.func @tables()
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[F:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT:    %[[G:.*]] = arith.constant 2.000000e+00 : f16
// CHECK-NEXT:    %[[U0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
// CHECK-NEXT:    %[[U1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
// CHECK-NEXT:    %[[L0:.*]] = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
// CHECK-NEXT:    %[[L1:.*]] = dataflow.get_unit {core = 1 : i32, name = "C1-L1LU", type = "L1LU"} : index
// CHECK-NEXT:    %[[CORE:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[C0]]], [%[[U1]] -> %[[C3]]]):index
// CHECK-NEXT:    %[[PEER:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[L0]]], [%[[U1]] -> %[[L1]]]):index
// CHECK-NEXT:    %[[SCALE:.*]] = uniform.def_immutable_mapping([%[[U0]] -> %[[F]]], [%[[U1]] -> %[[G]]]):index, f16
// CHECK-NEXT:    %[[BYCONST:.*]] = uniform.def_immutable_mapping([%[[C0]] -> %[[U0]]], [%[[C3]] -> %[[U1]]]):index
// CHECK-NEXT:    dataflow.program_unit iter_arg : %[[ME:.*]] -> (%[[U0]], %[[U1]]) : {
// CHECK-NEXT:      %[[K:.*]] = uniform.query_map(map:%[[CORE]], key:%[[ME]]) : index
// CHECK-NEXT:      %{{.*}} = uniform.query_map(map:%[[PEER]], key:%[[ME]]) : index
// CHECK-NEXT:      %{{.*}} = uniform.query_map(map:%[[SCALE]], key:%[[ME]]) : f16
// CHECK-NEXT:      %{{.*}} = uniform.query_map(map:%[[BYCONST]], key:%[[K]]) : index
// CHECK-NEXT:    }
func.func @tables() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %f = arith.constant 1.0 : f16
  %g = arith.constant 2.0 : f16
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-MNILU", type = "MNILU"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-MNILU", type = "MNILU"} : index
  %l0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
  %l1 = dataflow.get_unit {core = 1 : i32, name = "C1-L1LU", type = "L1LU"} : index
  %core = uniform.def_immutable_mapping([%u0 -> %c0], [%u1 -> %c3]):index
  %peer = uniform.def_immutable_mapping([%u0 -> %l0], [%u1 -> %l1]) : index
  %scale = uniform.def_immutable_mapping([%u0 -> %f], [%u1 -> %g]):index, f16
  %byconst = uniform.def_immutable_mapping([%c0 -> %u0], [%c3 -> %u1]):index
  dataflow.program_unit iter_arg : %me -> (%u0, %u1) : {
    %k = uniform.query_map(map:%core, key:%me) : index
    %p = uniform.query_map(map: %peer, key: %me) : index
    %s = uniform.query_map(map:%scale, key:%me) : f16
    %b = uniform.query_map(map:%byconst, key:%k) : index
  }
  return
}

// CHECK-LABEL: func.func @regions()
// CHECK:         %[[R:.*]] = uniform.uniformize_regions -> index {
// CHECK-NEXT:      (%[[A:.*]] -> %[[U0:.*]], %[[U1:.*]]) {
// CHECK-NEXT:        %[[Q:.*]] = uniform.query_map(map:%{{.*}}, key:%[[A]]) : index
// CHECK-NEXT:        uniform.yield %[[Q]] : index
// CHECK-NEXT:      }
// CHECK-NEXT:      (%[[B:.*]] -> %[[U2:.*]]) {
// CHECK-NEXT:        uniform.yield %{{.*}} : index
// CHECK-NEXT:      }
// CHECK-NEXT:    } {regIndices = [0 : i32, 1 : i32]}
// CHECK-NEXT:    %{{.*}}, %{{.*}} = uniform.uniformize_regions -> (index, index) {
// CHECK:         uniform.uniformize_regions {
// CHECK-NEXT:      (%{{.*}} -> %[[G:.*]]) {
// CHECK-NEXT:        uniform.yield
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    uniform.equalize_pattern {
// CHECK-NEXT:      (%{{.*}} -> %[[U0]]) {
// CHECK-NEXT:        %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:        uniform.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      (%{{.*}} -> %[[U1]], %[[U2]]) {
// CHECK-NEXT:        %{{.*}} = arith.constant 2 : index
// CHECK-NEXT:        uniform.yield
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @regions() {
  %c7 = arith.constant 7 : index
  %u0 = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
  %u1 = dataflow.get_unit {core = 1 : i32, name = "C1-SFU", type = "SFU"} : index
  %u2 = dataflow.get_unit {core = 2 : i32, name = "C2-SFU", type = "SFU"} : index
  %m = uniform.def_immutable_mapping([%u0 -> %c7], [%u1 -> %c7]):index
  %g = dataflow.create_group(%u0, %u1 : index, index) : index
  %r = uniform.uniformize_regions -> (index) {
    (%a -> %u0, %u1) {
      %q = uniform.query_map(map:%m, key:%a) : index
      uniform.yield %q : index
    }
    (%b -> %u2) {
      uniform.yield %c7 : index
    }
  } {regIndices = [0 : i32, 1 : i32]}
  %x, %y = uniform.uniformize_regions -> (index, index) {
    (%c -> %u0) {
      uniform.yield %c7, %c7 : index, index
    }
  }
  uniform.uniformize_regions {
    (%d -> %g) {
    }
  }
  uniform.equalize_pattern {
    (%e -> %u0) {
      %one = arith.constant 1 : index
    }
    (%f -> %u1, %u2) {
      %two = arith.constant 2 : index
    }
  }
  return
}

/// uniform.yield needs no particular parent (upstream's own test ends a function with it).
// CHECK-LABEL: func.func @yield_alone()
// CHECK-NEXT:    uniform.yield
func.func @yield_alone() {
  uniform.yield
}
