// RUN: ktir-opt %s -p 'ktdfarch-apply-patterns{groups=pre_mapping}' | filecheck %s --check-prefix=ON
// RUN: ktir-opt %s -p 'ktdfarch-apply-patterns{groups=post_lowering}' | filecheck %s --check-prefix=ON
// RUN: ktir-opt %s -p 'ktdfarch-apply-patterns{groups=pre_scheduling}' | filecheck %s --check-prefix=OFF
// RUN: ktir-opt %s -p 'ktdfarch-apply-patterns{groups=post_scheduling}' | filecheck %s --check-prefix=OFF

/// The device's `patterns ["pre_mapping", "post_lowering"]` block runs at those two
/// checkpoints only: the constant factor of a `muli` moves to the front there, and nowhere else.

ktdf_arch.device @tiny {
  %ddr = memory {kind = "DDR", size = 1024}
  %u = exec_unit {kind = "ALU", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %ddr to %u : memory, exec_unit
  datapath %u to %ddr : exec_unit, memory
  patterns ["pre_mapping", "post_lowering"] {
    pdl.pattern @commute_constant_factor : benefit(1) {
      %t = pdl.type : index
      %x = pdl.operand
      %v = pdl.attribute
      %cst = pdl.operation "arith.constant" {"value" = %v} -> (%t : !pdl.type)
      %c = pdl.result 0 of %cst
      %mul = pdl.operation "arith.muli" (%x, %c : !pdl.value, !pdl.value) -> (%t : !pdl.type)
      pdl.rewrite %mul {
        %new = pdl.operation "arith.muli" (%c, %x : !pdl.value, !pdl.value) -> (%t : !pdl.type)
        pdl.replace %mul with %new
      }
    }
  }
}

// ON-LABEL:  func.func @scale(
// ON-SAME:     %[[A:.*]]: index)
// ON:          %[[C:.*]] = arith.constant 3 : index
// ON-NEXT:     %[[M:.*]] = arith.muli %[[C]], %[[A]] : index
// ON-NEXT:     func.return %[[M]] : index

// OFF-LABEL: func.func @scale(
// OFF-SAME:    %[[A:.*]]: index)
// OFF:         %[[C:.*]] = arith.constant 3 : index
// OFF-NEXT:    %[[M:.*]] = arith.muli %[[A]], %[[C]] : index
func.func @scale(%a: index) -> index {
  %c3 = arith.constant 3 : index
  %m = arith.muli %a, %c3 : index
  return %m : index
}
