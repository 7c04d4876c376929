// B = A over 8xN (N = 2 n, n bound with --arg n=...): A in two device-memory pieces, columns
// [0, n) at %A0 and [n, 2n) at %A1, each n wide with row stride n; a loop copies 8x32 column
// blocks at the loop index, so each block's piece is known only once the loop is unrolled
// (test_cross_core.py).

#p0 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#p1 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 7 >= 0, d1 - s0 >= 0, -d1 + 2*s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#o = affine_map<(d0, d1) -> (d0, d1)>

func.func @column_blocks(%A0: index, %A1: index, %B: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %v0 = ktdp.construct_memory_view %A0, sizes: [8, %n], strides: [%n, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<8x?xf16>
  %v1 = ktdp.construct_memory_view %A1, sizes: [8, %n], strides: [%n, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<8x?xf16>
  %A = ktdp.construct_distributed_memory_view (%v0, %v1 : memref<8x?xf16>, memref<8x?xf16>) : memref<8x128xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 128], strides: [128, 1] {memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  scf.for %col = %c0 to %c128 step %c32 {
    %at = ktdp.construct_access_tile %A[%c0, %col] {access_tile_order = #o, access_tile_set = #blk} : memref<8x128xf16> -> !ktdp.access_tile<8x32xindex>
    %bt = ktdp.construct_access_tile %Bv[%c0, %col] {access_tile_order = #o, access_tile_set = #blk} : memref<8x128xf16> -> !ktdp.access_tile<8x32xindex>
    %x = ktdp.load %at : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
    ktdp.store %x, %bt : tensor<8x32xf16>, !ktdp.access_tile<8x32xindex>
  }
  return
}
