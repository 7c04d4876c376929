// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per uniform verifier rule (shared/spec/dataflow-ir.md §5): mapping keys and
/// values, lookups (including a missing key for a unit that runs the code), and the per-unit
/// regions.

func.func @negative_empty_mapping() {
  %m = uniform.def_immutable_mapping():index
  return
}
// CHECK: error: 'uniform.def_immutable_mapping' op expects one or more [key -> value] pairs

// -----

func.func @negative_keys_mixed(%c: index) {
  %u = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %m = uniform.def_immutable_mapping([%u -> %c], [%c -> %c]):index
  return
}
// CHECK: error: 'uniform.def_immutable_mapping' op the first key is a unit, so every key must be a dataflow.get_unit result

// -----

func.func @negative_values_mixed_ops(%k: index, %j: index) {
  %c = arith.constant 0 : index
  %d = arith.addi %c, %c : index
  %m = uniform.def_immutable_mapping([%k -> %c], [%j -> %d]):index
  return
}
// CHECK: error: 'uniform.def_immutable_mapping' op all values must be made by the same kind of op, got arith.addi, arith.constant

// -----

func.func @negative_values_not_all_symbols(%k: index, %j: index) {
  %s = symbol.create_symbol {SymbolId = -1 : i64} : index
  %c = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %s], [%j -> %c]):index
  return
}
// CHECK: error: 'uniform.def_immutable_mapping' op the first value is a symbol, so every value must be one

// -----

func.func @negative_value_types(%k: index, %j: index, %a: index, %b: i32) {
  %m = "uniform.def_immutable_mapping"(%k, %j, %a, %b) <{operandSegmentSizes = array<i32: 2, 2>}> : (index, index, index, i32) -> index
  return
}
// CHECK: error: 'uniform.def_immutable_mapping' op all values must have the same type

// -----

func.func @negative_duplicate_unit_key() {
  %c = arith.constant 0 : index
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %b = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %m = uniform.def_immutable_mapping([%a -> %c], [%b -> %c]):index
  return
}
// CHECK: error: 'uniform.def_immutable_mapping' op a key appears twice

// -----

func.func @negative_query_not_a_mapping(%m: index, %k: index) {
  %v = uniform.query_map(map:%m, key:%k) : index
  return
}
// CHECK: error: 'uniform.query_map' op the map must be a uniform.def_immutable_mapping result

// -----

func.func @negative_query_type(%k: index) {
  %c = arith.constant 0 : index
  %m = uniform.def_immutable_mapping([%k -> %c]):index
  %v = uniform.query_map(map:%m, key:%k) : f16
  return
}
// CHECK: error: 'uniform.query_map' op the result type f16 differs from the mapping's value type index

// -----

func.func @negative_query_missing_unit() {
  %c = arith.constant 0 : index
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %b = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  %m = uniform.def_immutable_mapping([%a -> %c]):index
  dataflow.program_unit iter_arg : %me -> (%a, %b) : {
    %v = uniform.query_map(map:%m, key:%me) : index
  }
  return
}
// CHECK: error: 'uniform.query_map' op the mapping has no key for unit 'C1-SFU', which runs this code

// -----

func.func @negative_region_missing_unit() {
  %c = arith.constant 0 : index
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %b = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  %m = uniform.def_immutable_mapping([%a -> %c]):index
  uniform.uniformize_regions {
    (%r -> %a, %b) {
      %v = uniform.query_map(map:%m, key:%r) : index
    }
  }
  return
}
// CHECK: error: 'uniform.query_map' op the mapping has no key for unit 'C1-SFU', which runs this code

// -----

func.func @negative_regions_duplicate_unit() {
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  uniform.uniformize_regions {
    (%r -> %a) {
    }
    (%s -> %a) {
    }
  }
  return
}
// CHECK: error: 'uniform.uniformize_regions' op a unit appears twice

// -----

func.func @negative_regions_unit_kind(%u: index) {
  uniform.uniformize_regions {
    (%r -> %u) {
    }
  }
  return
}
// CHECK: error: 'uniform.uniformize_regions' op a unit list holds dataflow.get_unit results (or one dataflow.create_group)

// -----

func.func @negative_regions_group_in_list() {
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %b = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  %g = dataflow.create_group(%a : index) : index
  uniform.uniformize_regions {
    (%r -> %g, %b) {
    }
  }
  return
}
// CHECK: error: 'uniform.uniformize_regions' op a unit list holds dataflow.get_unit results (or one dataflow.create_group)

// -----

func.func @negative_regions_yield_types() {
  %c = arith.constant 0 : index
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %r = uniform.uniformize_regions -> index {
    (%x -> %a) {
      uniform.yield
    }
  }
  return
}
// CHECK: error: 'uniform.uniformize_regions' op every region must yield the op's result types (index)

// -----

func.func @negative_regions_no_region() {
  uniform.uniformize_regions {
  }
  return
}
// CHECK: error: 'uniform.uniformize_regions' op expects one unit list per region, and at least one region

// -----

func.func @negative_regions_sizes() {
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  "uniform.uniformize_regions"(%a) <{list_sizes = [2 : i32]}> ({
  ^bb0(%x: index):
    "uniform.yield"() : () -> ()
  }) : (index) -> ()
  return
}
// CHECK: error: 'uniform.uniformize_regions' op each region needs at least one unit, and list_sizes must add up to the number of units

// -----

func.func @negative_regions_argument() {
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  "uniform.uniformize_regions"(%a) <{list_sizes = [1 : i32]}> ({
    "uniform.yield"() : () -> ()
  }) : (index) -> ()
  return
}
// CHECK: error: 'uniform.uniformize_regions' op each region takes one 'index' argument, the unit

// -----

func.func @negative_equalize_one_region() {
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  uniform.equalize_pattern {
    (%x -> %a) {
    }
  }
  return
}
// CHECK: error: 'uniform.equalize_pattern' op expects at least two regions to equalize

// -----

func.func @negative_equalize_sequences() {
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %b = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  uniform.equalize_pattern {
    (%x -> %a) {
      %c = arith.constant 0 : index
    }
    (%y -> %b) {
    }
  }
  return
}
// CHECK: error: 'uniform.equalize_pattern' op the regions must hold the same sequence of operations

// -----

func.func @negative_equalize_yields() {
  %c = arith.constant 0 : index
  %a = dataflow.get_unit {name = "C0-SFU", type = "SFU"} : index
  %b = dataflow.get_unit {name = "C1-SFU", type = "SFU"} : index
  uniform.equalize_pattern {
    (%x -> %a) {
      uniform.yield %c : index
    }
    (%y -> %b) {
      uniform.yield %c : index
    }
  }
  return
}
// CHECK: error: 'uniform.equalize_pattern' op the regions must not yield values
