// RUN: ktir compile %S/Inputs/matmul-ksteps.mlir -d spyre --emit ktdf --stop-at construct-three-stage-pipeline 2>/dev/null | filecheck %s
// RUN: ktir compile %S/Inputs/matmul-ksteps.mlir -d sample_device --emit ktdf --stop-at construct-three-stage-pipeline 2>/dev/null | filecheck %s --check-prefix=SIMD

/// A K loop of two steps (16x32 . 32x64 each, f16 accumulator) on spyre, whose PE has a matrix
/// engine: the contraction pipeline (contraction_pipeline.py) makes one instance per tile's
/// 16 x 64 output block (the loop over n has one iteration); its load stage moves each k
/// step's A block and B block once, whole; its compute stage holds one linalg.matmul per k
/// step (the f16 blocks widened, into one f32 block filled with 0) and the kernel's rounding and
/// f16 accumulation as arith on whole blocks; the block is stored once. On sample_device (SIMD
/// only) the reduction path keeps one instance per row and vector of columns and a generic.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[A:.*]] = memref.memory_space_cast %Av
// CHECK:         %[[B:.*]] = memref.memory_space_cast %Bv
// CHECK:         %[[C:.*]] = memref.memory_space_cast %Cv
// CHECK:         arith.constant 64 : index
// CHECK-NEXT:    %[[NB:.*]] = arith.constant 64 : index
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK:         ktdf.pipeline
// CHECK:           ktdf.data_transfer from %[[A]][%{{.*}}, %[[K:.*]]] size [16, 32] to %[[SA0:.*]] size [512]
// CHECK-NEXT:      ktdf.data_transfer from %[[B]][%[[K]], %col + %[[N]]] size [32, 64] to %[[SB0:.*]] size [2048]
// CHECK-NEXT:      ktdf.data_transfer from %[[A]][%{{.*}}, %[[K]] + 32] size [16, 32] to %[[SA1:.*]] size [512]
// CHECK-NEXT:      ktdf.data_transfer from %[[B]][%[[K]] + 32, %col + %[[N]]] size [32, 64] to %[[SB1:.*]] size [2048]
// CHECK:           %[[RA0:.*]] = ktdf.read_from_fifo %[[SA0]] {{.*}} -> tensor<16x32xf16>
// CHECK-NEXT:      %[[RB0:.*]] = ktdf.read_from_fifo %[[SB0]] {{.*}} -> tensor<32x64xf16>
// CHECK:           %[[Z0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x64xf32>)
// CHECK-NOT:       linalg.fill
// CHECK:           %[[WA0:.*]] = arith.extf %[[RA0]] : tensor<16x32xf16> to tensor<16x32xf32>
// CHECK-NEXT:      %[[WB0:.*]] = arith.extf %[[RB0]] : tensor<32x64xf16> to tensor<32x64xf32>
// CHECK-NEXT:      %[[P0:.*]] = linalg.matmul ins(%[[WA0]], %[[WB0]] : tensor<16x32xf32>, tensor<32x64xf32>) outs(%[[Z0]] : tensor<16x64xf32>)
// CHECK:           %[[P1:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<32x64xf32>) outs(%[[Z0]] : tensor<16x64xf32>)
// CHECK:           %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x64xf16>
// CHECK-NEXT:      %[[WZ:.*]] = arith.extf %[[ZERO]] : tensor<16x64xf16> to tensor<16x64xf32>
// CHECK-NEXT:      %[[S0:.*]] = arith.addf %[[WZ]], %[[P0]] : tensor<16x64xf32>
// CHECK-NEXT:      %[[R0:.*]] = arith.truncf %[[S0]] : tensor<16x64xf32> to tensor<16x64xf16>
// CHECK-NEXT:      %[[ACC0:.*]] = arith.addf %[[ZERO]], %[[R0]] : tensor<16x64xf16>
// CHECK-NEXT:      %[[S1:.*]] = arith.addf %[[WZ]], %[[P1]] : tensor<16x64xf32>
// CHECK-NEXT:      %[[R1:.*]] = arith.truncf %[[S1]] : tensor<16x64xf32> to tensor<16x64xf16>
// CHECK-NEXT:      %[[ACC1:.*]] = arith.addf %[[ACC0]], %[[R1]] : tensor<16x64xf16>
// CHECK-NEXT:      ktdf.write_to_fifo %[[ACC1]], %[[OUT:.*]] : tensor<16x64xf16>
// CHECK-NOT:       linalg.generic
// CHECK:           } {applicable_units = ["PE"]}
// CHECK:           ktdf.data_transfer from %[[OUT]] size [1024] to %[[C]][%{{.*}}, %col + %[[N]]] size [16, 64]

// SIMD-LABEL: func.func @local_schedule_0(
// SIMD-NOT:     linalg.matmul
// SIMD:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// SIMD-NOT:     linalg.matmul
