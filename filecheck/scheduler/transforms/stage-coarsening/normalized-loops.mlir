// RUN: ktir-opt %S/basic.mlir -p normalize-scf-for-loops,stage-coarsening | filecheck %s

/// The pipeline of basic.mlir with its loops normalised first (the pipeline's order): the
/// vector loop counts vectors (`0 to 4 step 1`) and the DMA subscripts carry the vector
/// length (`%v1 * 64`). The same blocks of 32 rows are chosen; the stages walking a block
/// address its buffers at the vector's offset, the point index times its scale.

// CHECK-LABEL: func.func @local_schedule_0(%A
// CHECK:         %[[STEP:.*]] = arith.constant 32 : index
// CHECK-NEXT:    scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %[[STEP]] {
// CHECK:           ktdf.data_transfer from %Av_cast[%row0 + %[[B]], %{{.*}} * 64] size [32, 256] to %[[A:.*]][0, 0] size [32, 256]
// CHECK:           scf.for %[[P0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[N:.*]] = arith.constant 4 : index
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:        scf.for %[[P1:.*]] = %{{.*}} to %[[N]] step %[[ONE]] {
// CHECK-NEXT:          ktdf.data_transfer from %[[A]][%[[P0]], %[[P1]] * 64] size [1, 64] to %{{.*}} size [64]
// CHECK:         } {applicable_units = ["L1LU"]}
// CHECK:           ktdf.data_transfer from %{{.*}}[0, 0] size [32, 256] to %Cv_cast[%row0 + %[[B]], %{{.*}} * 64] size [32, 256]
