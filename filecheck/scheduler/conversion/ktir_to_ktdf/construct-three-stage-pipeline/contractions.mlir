// RUN: ktir compile %S/Inputs/matmul-ksteps.mlir -d spyre --emit ktdf --stop-at construct-three-stage-pipeline 2>/dev/null | filecheck %s
// RUN: ktir compile %S/Inputs/matmul-ksteps.mlir -d sample_device --emit ktdf --stop-at construct-three-stage-pipeline 2>/dev/null | filecheck %s --check-prefix=SIMD

/// A K loop of two steps (16x32 . 32x64 each, f16 accumulator) on spyre, whose PE has a matrix
/// engine: the contraction pipeline (contraction_pipeline.py) makes one instance per tile's
/// 16 x 64 output block (the loop over n has one iteration) and streams the k steps through
/// it: the load stage walks K in steps of 32, moving one step's A block and B block into one
/// slot each; the compute stage walks K too, one linalg.matmul per step (the f16 blocks
/// widened, into an f32 zero block) and the kernel's rounding and f16 accumulation as arith on
/// whole blocks, the accumulator carried by the loop (its zero init and the widened zero
/// hoisted before it); the block is stored once. On sample_device (SIMD only) the reduction
/// path keeps one instance per row and vector of columns and a generic.

// CHECK-LABEL: func.func @local_schedule_0(
// CHECK:         %[[A:.*]] = memref.memory_space_cast %Av
// CHECK:         %[[B:.*]] = memref.memory_space_cast %Bv
// CHECK:         %[[C:.*]] = memref.memory_space_cast %Cv
// CHECK:         arith.constant 64 : index
// CHECK-NEXT:    %[[NB:.*]] = arith.constant 64 : index
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK:         ktdf.pipeline
// CHECK:           %[[SA:.*]], %[[SB:.*]], %[[OUT:.*]], %{{.*}}, %{{.*}}, %{{.*}} = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "PE", 512xf16>, !ktdf.fifo.slot<"DDR" -> "PE", 2048xf16>, !ktdf.fifo.slot<"PE" -> "DDR", 1024xf16>,
// CHECK:           %[[K0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[KN:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[KC:.*]] = arith.constant 32 : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %[[K0]] to %[[KN]] step %[[KC]] {
// CHECK-NEXT:        ktdf.data_transfer from %[[A]][%{{.*}}, %[[K]]] size [16, 32] to %[[SA]] size [512]
// CHECK-NEXT:        ktdf.data_transfer from %[[B]][%[[K]], %col + %[[N]]] size [32, 64] to %[[SB]] size [2048]
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NOT:       ktdf.data_transfer
// CHECK:           %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x64xf32>
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x64xf16>
// CHECK:           %[[WZ:.*]] = arith.extf %[[ZERO]] : tensor<16x64xf16> to tensor<16x64xf32>
// CHECK-NEXT:      %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PART:.*]] = %[[ZERO]]) -> (tensor<16x64xf16>) {
// CHECK-NEXT:        %[[RA:.*]] = ktdf.read_from_fifo %[[SA]] {{.*}} -> tensor<16x32xf16>
// CHECK-NEXT:        %[[RB:.*]] = ktdf.read_from_fifo %[[SB]] {{.*}} -> tensor<32x64xf16>
// CHECK-NEXT:        %[[WA:.*]] = arith.extf %[[RA]] : tensor<16x32xf16> to tensor<16x32xf32>
// CHECK-NEXT:        %[[WB:.*]] = arith.extf %[[RB]] : tensor<32x64xf16> to tensor<32x64xf32>
// CHECK-NEXT:        %[[P:.*]] = linalg.matmul ins(%[[WA]], %[[WB]] : tensor<16x32xf32>, tensor<32x64xf32>) outs(%[[Z]] : tensor<16x64xf32>)
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[WZ]], %[[P]] : tensor<16x64xf32>
// CHECK-NEXT:        %[[R:.*]] = arith.truncf %[[S]] : tensor<16x64xf32> to tensor<16x64xf16>
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addf %[[PART]], %[[R]] : tensor<16x64xf16>
// CHECK-NEXT:        scf.yield %[[NEXT]] : tensor<16x64xf16>
// CHECK-NEXT:      } {loop_type = #ktdf.loop_type<reduction_loop>}
// CHECK-NEXT:      ktdf.write_to_fifo %[[ACC]], %[[OUT]] : tensor<16x64xf16>
// CHECK-NOT:       linalg.generic
// CHECK-NOT:       linalg.matmul
// CHECK:           } {applicable_units = ["PE"]}
// CHECK:           ktdf.data_transfer from %[[OUT]] size [1024] to %[[C]][%{{.*}}, %col + %[[N]]] size [16, 64]

// SIMD-LABEL: func.func @local_schedule_0(
// SIMD-NOT:     linalg.matmul
// SIMD:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// SIMD-NOT:     linalg.matmul
