// RUN: ktir compile %S/Inputs/matmul-ksteps.mlir -d spyre 2>/dev/null | filecheck %s

/// The contraction pipeline's compute stage in DataflowIR (matrix.py): the k steps stream
/// through the PE's loop, which carries the f16 accumulator as a vector; each step's
/// linalg.matmul of widened f16 blocks is one matrixchain.matmul of the received f16 blocks
/// (the casts folded into the engine) into the zero f32 block; the kernel's rounding and f16
/// accumulation are vectorchain ops on the block's 1024 lanes; a splat block constant is one
/// lane broadcast by a shuffle; the load unit sends each step's blocks whole, as one vector
/// each, after the DMA's handshake of that step (inside the load unit's k loop).

// CHECK-LABEL: dataflow.program_unit iter_arg : %lx_load
// CHECK:         scf.for %[[KL:k[_0-9]*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      dataflow.sync_send
// CHECK-NEXT:      dataflow.sync_recv
// CHECK-NEXT:      agen.vector_load {{.*}} : memref<16x32xf16>, vector<512xf16>
// CHECK-NEXT:      dataflow.send
// CHECK-NEXT:      agen.vector_load {{.*}} : memref<32x64xf16>, vector<2048xf16>
// CHECK-LABEL: dataflow.program_unit iter_arg : %pe
// CHECK:         %[[Z1:.*]] = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf32>
// CHECK-NEXT:    %[[Z:.*]] = vectorchain.shuffle input(%[[Z1]]) {indices = [0 : i32], repetition = 1024 : i32} : vector<1xf32>, vector<1024xf32>
// CHECK-NEXT:    %[[H1:.*]] = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
// CHECK-NEXT:    %[[H:.*]] = vectorchain.shuffle input(%[[H1]]) {{.*}} : vector<1xf16>, vector<1024xf16>
// CHECK:         %[[WZ:.*]] = vectorchain.cast %[[H]] : vector<1024xf16>, vector<1024xf32>
// CHECK-NEXT:    %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PART:.*]] = %[[H]]) -> (vector<1024xf16>) {
// CHECK-NEXT:      %[[A:.*]] = dataflow.receive %{{.*}} : vector<512xf16>
// CHECK-NEXT:      %[[B:.*]] = dataflow.receive %{{.*}} : vector<2048xf16>
// CHECK-NEXT:      %[[P:.*]] = matrixchain.matmul %[[A]], %[[B]], %[[Z]] {k = 32 : i64, m = 16 : i64, n = 64 : i64} : vector<512xf16>, vector<2048xf16>, vector<1024xf32> -> vector<1024xf32>
// CHECK-NEXT:      %[[S:.*]] = vectorchain.binary %[[WZ]], %[[P]] {binary_op = #vectorchain<binary_operator add>{{.*}} : vector<1024xf32>, vector<1024xf32>, vector<1024xf32>
// CHECK-NEXT:      %[[R:.*]] = vectorchain.cast %[[S]] : vector<1024xf32>, vector<1024xf16>
// CHECK-NEXT:      %[[NEXT:.*]] = vectorchain.binary %[[PART]], %[[R]] {{.*}} : vector<1024xf16>, vector<1024xf16>, vector<1024xf16>
// CHECK-NEXT:      scf.yield %[[NEXT]] : vector<1024xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    dataflow.send %{{.*}}, %[[ACC]] : vector<1024xf16>
// CHECK-NOT:     linalg.matmul
