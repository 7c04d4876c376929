// RUN: ktir compile %S/Inputs/matmul-ksteps.mlir -d spyre 2>/dev/null | filecheck %s

/// The contraction pipeline's compute stage in DataflowIR (matrix.py): each k step's
/// linalg.matmul of widened f16 blocks is one matrixchain.matmul of the received f16 blocks
/// (the casts folded into the engine) into the zero f32 block; the kernel's rounding and f16
/// accumulation are vectorchain ops on the block's 1024 lanes; the load unit sends each
/// block whole, as one vector.

// CHECK-LABEL: dataflow.program_unit iter_arg : %lx_load
// CHECK:         agen.vector_load {{.*}} : memref<16x32xf16>, vector<512xf16>
// CHECK:         agen.vector_load {{.*}} : memref<32x64xf16>, vector<2048xf16>
// CHECK-LABEL: dataflow.program_unit iter_arg : %pe
// CHECK:         %[[A0:.*]] = dataflow.receive %{{.*}} : vector<512xf16>
// CHECK-NEXT:    %[[B0:.*]] = dataflow.receive %{{.*}} : vector<2048xf16>
// CHECK-NEXT:    %[[A1:.*]] = dataflow.receive %{{.*}} : vector<512xf16>
// CHECK-NEXT:    %[[B1:.*]] = dataflow.receive %{{.*}} : vector<2048xf16>
// CHECK-NEXT:    %[[Z:.*]] = vectorchain.constant_bitstream {{.*}} : vector<1024xf32>
// CHECK-NEXT:    %[[P0:.*]] = matrixchain.matmul %[[A0]], %[[B0]], %[[Z]] {k = 32 : i64, m = 16 : i64, n = 64 : i64} : vector<512xf16>, vector<2048xf16>, vector<1024xf32> -> vector<1024xf32>
// CHECK-NEXT:    %[[P1:.*]] = matrixchain.matmul %[[A1]], %[[B1]], %[[Z]] {k = 32 : i64, m = 16 : i64, n = 64 : i64}
// CHECK-NOT:     vectorchain.cast %[[A0]]
// CHECK:         %[[S0:.*]] = vectorchain.binary %{{.*}}, %[[P0]] {binary_op = #vectorchain<binary_operator add>{{.*}} : vector<1024xf32>, vector<1024xf32>, vector<1024xf32>
// CHECK-NEXT:    %[[R0:.*]] = vectorchain.cast %[[S0]] : vector<1024xf32>, vector<1024xf16>
// CHECK:         %[[S1:.*]] = vectorchain.binary %{{.*}}, %[[P1]]
// CHECK-NEXT:    %[[R1:.*]] = vectorchain.cast %[[S1]] : vector<1024xf32>, vector<1024xf16>
// CHECK-NEXT:    %[[ACC:.*]] = vectorchain.binary %{{.*}}, %[[R1]] {{.*}} : vector<1024xf16>, vector<1024xf16>, vector<1024xf16>
// CHECK-NEXT:    dataflow.send %{{.*}}, %[[ACC]] : vector<1024xf16>
// CHECK-NOT:     linalg.matmul
