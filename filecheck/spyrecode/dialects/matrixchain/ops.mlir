// RUN: ktir-opt %s | filecheck %s
// RUN: ktir-opt %s | ktir-opt | filecheck %s

/// matrixchain.matmul round-trips: a 32 x 128 f16 block times a 128 x 512 one, added to an
/// f32 accumulator block (bf16 operands too).

// CHECK-LABEL: func.func @block_product
// CHECK-SAME:    (%[[A:.*]]: vector<4096xf16>, %[[B:.*]]: vector<65536xf16>, %[[C:.*]]: vector<16384xf32>)
// CHECK:         %[[R:.*]] = matrixchain.matmul %[[A]], %[[B]], %[[C]] {k = 128 : i64, m = 32 : i64, n = 512 : i64} : vector<4096xf16>, vector<65536xf16>, vector<16384xf32> -> vector<16384xf32>
// CHECK:         return %[[R]]
func.func @block_product(%a: vector<4096xf16>, %b: vector<65536xf16>, %c: vector<16384xf32>) -> vector<16384xf32> {
  %r = matrixchain.matmul %a, %b, %c {k = 128 : i64, m = 32 : i64, n = 512 : i64} : vector<4096xf16>, vector<65536xf16>, vector<16384xf32> -> vector<16384xf32>
  return %r : vector<16384xf32>
}

// CHECK-LABEL: func.func @bf16_block
// CHECK:         matrixchain.matmul {{.*}} : vector<8xbf16>, vector<8xbf16>, vector<16xf32> -> vector<16xf32>
func.func @bf16_block(%a: vector<8xbf16>, %b: vector<8xbf16>, %c: vector<16xf32>) -> vector<16xf32> {
  %r = matrixchain.matmul %a, %b, %c {k = 2 : i64, m = 4 : i64, n = 4 : i64} : vector<8xbf16>, vector<8xbf16>, vector<16xf32> -> vector<16xf32>
  return %r : vector<16xf32>
}
