// RUN: not ktir-opt %s 2>&1 | filecheck %s
/// A property of the wrong type, rejected while a declarative format parses the attribute
/// dictionary, is reported at the op that holds it, not at the op after it.
func.func @negative_property_type() {
  %n = ktdf.tiling.reserve_size {min_value = "x", divisibility = 1} : index
  func.return
}
// CHECK: negative-property-type.mlir:5:3: error: "x" should be of base attribute integer
// CHECK-NEXT: %n = ktdf.tiling.reserve_size
