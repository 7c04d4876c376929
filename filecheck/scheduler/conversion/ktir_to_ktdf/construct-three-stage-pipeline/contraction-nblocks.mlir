// RUN: ktir compile %S/Inputs/matmul-nblocks.mlir -d spyre --emit ktdf --stop-at construct-three-stage-pipeline 2>/dev/null | filecheck %s

/// A resident-steps contraction (one k step, M = 4) on spyre's 4 tiles sharing DDR: the whole
/// 256-column width in one instance would serialize DMA, load stream and engine; the cost
/// model (contraction_width.py) picks Nb = 32, eight instances along n that double-buffering
/// overlaps (emulated 8,703 -> 5,691 cycles). Each instance moves A whole and a 256 x 32 block
/// of B, and stores a 4 x 32 block.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[W:.*]] = memref.memory_space_cast %Wv
// CHECK:         %[[Y:.*]] = memref.memory_space_cast %Yv
// CHECK:         %[[NB:.*]] = arith.constant 32 : index
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK:           %[[SA:.*]], %[[SB:.*]], %[[OUT:.*]], %{{.*}}, %{{.*}}, %{{.*}} = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "PE", 1024xf16>, !ktdf.fifo.slot<"DDR" -> "PE", 8192xf16>, !ktdf.fifo.slot<"PE" -> "DDR", 128xf16>,
// CHECK:           ktdf.data_transfer from %{{.*}} size [4, 256] to %[[SA]] size [1024]
// CHECK-NEXT:      ktdf.data_transfer from %[[W]][%{{.*}}, %col + %[[N]]] size [256, 32] to %[[SB]] size [8192]
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x256xf32>, tensor<256x32xf32>)
// CHECK:           ktdf.data_transfer from %[[OUT]] size [128] to %[[Y]][%{{.*}}, %col + %[[N]]] size [4, 32]
