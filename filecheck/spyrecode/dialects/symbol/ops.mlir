// RUN: ktir-opt %s | ktir-opt | filecheck %s
// RUN: KTIR_GENERIC_ROUNDTRIP | filecheck %s

/// Every symbol op survives print -> parse -> print, custom and generic: a program's "what it
/// is" function binds kernel inputs and a derived address to symbols; its body reads them and
/// picks one per loop iteration through a constant-keyed mapping.

// CHECK-LABEL: func.func @prog(
// CHECK-SAME:    %[[A:[^:]*]]: index, %[[B:[^:]*]]: index)
// CHECK-NEXT:    symbol.create_id %[[A]] {symbol_id = -1 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[B]] {symbol_id = -2 : si64} : index
// CHECK-NEXT:    %[[C:.*]] = arith.constant 4096 : index
// CHECK-NEXT:    %[[D:.*]] = arith.addi %[[A]], %[[C]] : index
// CHECK-NEXT:    symbol.create_id %[[D]] {symbol_id = -3 : si64} : index
// CHECK-NEXT:    symbol.create_id %[[D]] {symbol_id = -3 : si64} : index
// CHECK-NEXT:    call @prog_body() : () -> ()
func.func @prog(%a: index, %b: index) {
  symbol.create_id %a {symbol_id = -1 : si64} : index
  symbol.create_id %b {symbol_id = -2 : si64} : index
  %c4096 = arith.constant 4096 : index
  %d = arith.addi %a, %c4096 : index
  symbol.create_id %d {symbol_id = -3 : si64} : index
  symbol.create_id %d {symbol_id = -3 : si64} : index
  call @prog_body() : () -> ()
  return
}

// CHECK-LABEL: func.func @prog_body()
// CHECK-NEXT:    %[[S0:.*]] = symbol.create_symbol {SymbolId = -1 : i64} : index
// CHECK-NEXT:    %[[S1:.*]] = symbol.create_symbol {SymbolId = -2 : i64} : index
// CHECK-NEXT:    %{{.*}} = symbol.create_symbol : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T:.*]] = symbol.symbol_immutable_mapping ([%[[C0]] -> %[[S0]]], [%[[C1]] -> %[[S1]]]) : index
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 2 {
// CHECK-NEXT:      %{{.*}} = symbol.query_map(map:%[[T]], key:%[[I]]) : index
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = symbol.query_map(map:%[[T]], key:%[[C1]]) : index
func.func @prog_body() {
  %s0 = symbol.create_symbol {SymbolId = -1 : i64} : index
  %s1 = symbol.create_symbol {SymbolId = -2 : i64} : index
  %unnumbered = symbol.create_symbol : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = symbol.symbol_immutable_mapping ([%c0 -> %s0],[%c1 -> %s1]) : index
  affine.for %i = 0 to 2 {
    %q = symbol.query_map (map: %t, key: %i) : index
  }
  %r = symbol.query_map(map:%t, key:%c1) : index
  return
}
