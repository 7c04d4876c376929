// RUN: ktir-opt %s --split-input-file --verify-diagnostics | filecheck %s

/// One case per symbol verifier rule (shared/spec/dataflow-ir.md §6): ids, mapping keys and
/// values, and what a lookup key may be.

func.func @negative_id_rebound(%a: index, %b: index) {
  symbol.create_id %a {symbol_id = -1 : si64} : index
  symbol.create_id %b {symbol_id = -1 : si64} : index
  return
}
// CHECK: error: 'symbol.create_id' op symbol -1 is already bound to another value

// -----

func.func @negative_id_type(%a: index) {
  symbol.create_id %a {symbol_id = -1 : i64} : index
  return
}
// CHECK: error: 'symbol.create_id' op symbol_id must be an si64 integer, got i64

// -----

func.func @negative_id_of_float(%a: f32) {
  symbol.create_id %a {symbol_id = -1 : si64} : f32
  return
}
// CHECK: error: 'symbol.create_id' op a symbol holds an index or integer, got f32

// -----

func.func @negative_mapping_empty() {
  %t = symbol.symbol_immutable_mapping () : index
  return
}
// CHECK: error: 'symbol.symbol_immutable_mapping' op expects one or more [key -> value] pairs

// -----

func.func @negative_mapping_key(%k: index) {
  %s = symbol.create_symbol {SymbolId = -1 : i64} : index
  %t = symbol.symbol_immutable_mapping ([%k -> %s]) : index
  return
}
// CHECK: error: 'symbol.symbol_immutable_mapping' op every key must be a constant

// -----

func.func @negative_mapping_duplicate_key() {
  %s = symbol.create_symbol {SymbolId = -1 : i64} : index
  %c = arith.constant 0 : index
  %d = arith.constant 0 : index
  %t = symbol.symbol_immutable_mapping ([%c -> %s], [%d -> %s]) : index
  return
}
// CHECK: error: 'symbol.symbol_immutable_mapping' op key 0 : index appears twice

// -----

func.func @negative_mapping_value(%v: index) {
  %c = arith.constant 0 : index
  %t = symbol.symbol_immutable_mapping ([%c -> %v]) : index
  return
}
// CHECK: error: 'symbol.symbol_immutable_mapping' op every value must be a symbol.create_symbol result

// -----

func.func @negative_query_map(%m: index, %k: index) {
  %r = symbol.query_map(map:%m, key:%k) : index
  return
}
// CHECK: error: 'symbol.query_map' op the map must be a symbol.symbol_immutable_mapping result

// -----

func.func @negative_query_key(%k: index) {
  %s = symbol.create_symbol {SymbolId = -1 : i64} : index
  %c = arith.constant 0 : index
  %t = symbol.symbol_immutable_mapping ([%c -> %s]) : index
  %r = symbol.query_map(map:%t, key:%k) : index
  return
}
// CHECK: error: 'symbol.query_map' op a block-argument key must be a loop induction variable
