// RUN: ktir-opt %s --split-input-file -p ktdflowering-to-dfir | filecheck %s

/// The fused generic of a compute stage becomes vectorchain ops, one recipe per scalar op of
/// scheduler/analysis/compute_ops.py: an op vectorchain has (`binary`, `fast_exp`, `cast`,
/// `element_wise_compare` / `element_wise_selection`), an exact identity sequence where it has
/// the parts (ceil = -floor(-x), ugt = not le, maxnumf through NaN tests), or the extension
/// `lane_function` (division). An input read through a broadcasting map arrives with fewer
/// lanes and is widened by a shuffle; constants become constant bitstreams of the vector's
/// lanes (once per value); a scalar from outside the stage is spread over the lanes by a
/// shuffle of its value.

// CHECK-LABEL: func.func @float_ops(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%sfu) : {
// CHECK:           %[[A:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      %[[COL:.*]] = dataflow.receive %{{.*}} : vector<1xf16>
// CHECK-NEXT:      %[[B:.*]] = vectorchain.shuffle input(%[[COL]]) {indices = [0 : i32], repetition = 64 : i32} : vector<1xf16>, vector<64xf16>
// CHECK-NEXT:      %[[Q:.*]] = vectorchain.lane_function "div" %[[A]], %[[B]] : vector<64xf16>, vector<64xf16> -> vector<64xf16>
// CHECK-NEXT:      %[[NA:.*]] = vectorchain.neg %[[Q]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[FL:.*]] = vectorchain.floor %[[NA]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[CEIL:.*]] = vectorchain.neg %[[FL]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[LE:.*]] = vectorchain.element_wise_compare %[[CEIL]], %[[A]] {compare_op = #vectorchain<element_wise_compare_operator compare_le>} : vector<64xf16>, vector<64xf16>, vector<64xi1>
// CHECK-NEXT:      %[[F:.*]] = vectorchain.constant_bitstream {value = [0x0{{(, 0x0)+}}]} : vector<64xi1>
// CHECK-NEXT:      %[[UGT:.*]] = vectorchain.binary %[[LE]], %[[F]] {binary_op = #vectorchain<binary_operator xnor>, {{.*}}} : vector<64xi1>, vector<64xi1>, vector<64xi1>
// CHECK-NEXT:      %[[SEL:.*]] = vectorchain.element_wise_selection %[[UGT]] ? %[[CEIL]] : %[[A]] : vector<64xi1>, vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[W:.*]] = vectorchain.cast %[[SEL]] : vector<64xf16>, vector<64xf32>
// CHECK-NEXT:      %[[E:.*]] = vectorchain.fast_exp %[[W]] : vector<64xf32>, vector<64xf32>
// CHECK-NEXT:      %[[H:.*]] = vectorchain.cast %[[E]] : vector<64xf32>, vector<64xf16>
// CHECK-NEXT:      %[[TWO:.*]] = vectorchain.constant_bitstream {value = [0x4000{{(, 0x4000)+}}]} : vector<64xf16>
// CHECK-NEXT:      %[[M:.*]] = vectorchain.binary %[[H]], %[[TWO]] {binary_op = #vectorchain<binary_operator mul>, {{.*}}} : vector<64xf16>, vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[SEED:.*]] = vectorchain.constant_bitstream {value = [0x0]} : vector<1xf16>
// CHECK-NEXT:      %[[S:.*]] = vectorchain.shuffle input(%[[SEED]]), variable(%{{.*}}) {indices = [-1 : i32], repetition = 64 : i32} : vector<1xf16>, f16, vector<64xf16>
// CHECK-NEXT:      %[[ANAN:.*]] = vectorchain.element_wise_compare %[[M]], %[[M]] {compare_op = #vectorchain<element_wise_compare_operator compare_neq>}
// CHECK-NEXT:      %[[BNAN:.*]] = vectorchain.element_wise_compare %[[S]], %[[S]] {compare_op = #vectorchain<element_wise_compare_operator compare_neq>}
// CHECK-NEXT:      %[[MAX:.*]] = vectorchain.binary %[[M]], %[[S]] {binary_op = #vectorchain<binary_operator max>, {{.*}}}
// CHECK-NEXT:      %[[IN:.*]] = vectorchain.element_wise_selection %[[ANAN]] ? %[[S]] : %[[MAX]]
// CHECK-NEXT:      %[[NUM:.*]] = vectorchain.element_wise_selection %[[BNAN]] ? %[[M]] : %[[IN]]
// CHECK-NEXT:      %[[TWO2:.*]] = vectorchain.binary %[[NUM]], %[[TWO]] {binary_op = #vectorchain<binary_operator add>, {{.*}}}
// CHECK-NEXT:      dataflow.send %{{.*}}, %[[TWO2]] : vector<64xf16>
// CHECK-NOT:     linalg
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module @local_schedule_0 {
    func.func @float_ops(%s: f16) attributes {grid = [1 : i64]} {
      %tid = ktdp.get_compute_tile_id : index
      %0 = arith.constant 0 : index
      %lu0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
      %lus = uniform.def_immutable_mapping([%0 -> %lu0]):index
      %lu = uniform.query_map(map:%lus, key:%tid) : index
      %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      %sfus = uniform.def_immutable_mapping([%0 -> %sfu]):index
      %sf = uniform.query_map(map:%sfus, key:%tid) : index
      %su0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
      %sus = uniform.def_immutable_mapping([%0 -> %su0]):index
      %su = uniform.query_map(map:%sus, key:%tid) : index
      ktdf_lowering.execute_on %lu, %sf, %su {
        %in = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 64xf16>
        %col = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 1xf16>
        %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 64xf16>
        ktdf_lowering.execute_on %sf {
          %a = ktdf.read_from_fifo %in : <"L1LU" -> "SFU", 64xf16> -> tensor<1x64xf16>
          %b = ktdf.read_from_fifo %col : <"L1LU" -> "SFU", 1xf16> -> tensor<1x1xf16>
          %e = tensor.empty() : tensor<1x64xf16>
          %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1x64xf16>, tensor<1x1xf16>) outs(%e : tensor<1x64xf16>) {
          ^bb0(%x: f16, %y: f16, %o: f16):
            %q = arith.divf %x, %y : f16
            %c = math.ceil %q : f16
            %gt = arith.cmpf ugt, %c, %x : f16
            %m = arith.select %gt, %c, %x : f16
            %w = arith.extf %m : f16 to f32
            %ex = math.exp %w : f32
            %h = arith.truncf %ex : f32 to f16
            %two = arith.constant 2.0 : f16
            %t = arith.mulf %h, %two : f16
            %n = arith.maxnumf %t, %s : f16
            %two2 = arith.constant 2.0 : f16
            %z = arith.addf %n, %two2 : f16
            linalg.yield %z : f16
          } -> tensor<1x64xf16>
          ktdf.write_to_fifo %r, %out : tensor<1x64xf16>, <"SFU" -> "L1SU", 64xf16>
        } {applicable_units = ["SFU"]}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
      func.return
    }
  }
}

// -----

// CHECK-LABEL: func.func @integer_ops(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%sfu) : {
// CHECK:           %[[A:.*]] = dataflow.receive %{{.*}} : vector<32xi32>
// CHECK-NEXT:      %[[B:.*]] = dataflow.receive %{{.*}} : vector<32xi32>
// CHECK-NEXT:      %[[D:.*]] = vectorchain.lane_function "divui" %[[A]], %[[B]] : vector<32xi32>, vector<32xi32> -> vector<32xi32>
// CHECK-NEXT:      %[[MAX:.*]] = vectorchain.constant_bitstream {value = [0x7FFFFFFF{{(, 0x7FFFFFFF)+}}]} : vector<32xi32>
// CHECK-NEXT:      %[[FA:.*]] = vectorchain.binary %[[D]], %[[MAX]] {binary_op = #vectorchain<binary_operator xnor>, {{.*}}}
// CHECK-NEXT:      %[[FB:.*]] = vectorchain.binary %[[B]], %[[MAX]] {binary_op = #vectorchain<binary_operator xnor>, {{.*}}}
// CHECK-NEXT:      %[[LT:.*]] = vectorchain.element_wise_compare %[[FA]], %[[FB]] {compare_op = #vectorchain<element_wise_compare_operator compare_lt>}
// CHECK-NEXT:      %[[SEL:.*]] = vectorchain.element_wise_selection %[[LT]] ? %[[D]] : %[[B]]
// CHECK-NEXT:      %[[XN:.*]] = vectorchain.binary %[[SEL]], %[[A]] {binary_op = #vectorchain<binary_operator xnor>, {{.*}}}
// CHECK-NEXT:      %[[Z:.*]] = vectorchain.constant_bitstream {value = [0x0{{(, 0x0)+}}]} : vector<32xi32>
// CHECK-NEXT:      %[[XOR:.*]] = vectorchain.binary %[[XN]], %[[Z]] {binary_op = #vectorchain<binary_operator xnor>, {{.*}}}
// CHECK-NEXT:      %[[SH:.*]] = vectorchain.lane_function "shrsi" %[[XOR]], %[[B]] : vector<32xi32>, vector<32xi32> -> vector<32xi32>
// CHECK-NEXT:      %[[NARROW:.*]] = vectorchain.cast %[[SH]] : vector<32xi32>, vector<32xi8>
// CHECK-NEXT:      dataflow.send %{{.*}}, %[[NARROW]] : vector<32xi8>
builtin.module {
  ktdf_arch.device @sample_device import("sample_device.mlir")
  builtin.module @local_schedule_0 {
    func.func @integer_ops() attributes {grid = [1 : i64]} {
      %tid = ktdp.get_compute_tile_id : index
      %0 = arith.constant 0 : index
      %lu0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1LU", type = "L1LU"} : index
      %lus = uniform.def_immutable_mapping([%0 -> %lu0]):index
      %lu = uniform.query_map(map:%lus, key:%tid) : index
      %sfu = dataflow.get_unit {core = 0 : i32, name = "C0-SFU", type = "SFU"} : index
      %sfus = uniform.def_immutable_mapping([%0 -> %sfu]):index
      %sf = uniform.query_map(map:%sfus, key:%tid) : index
      %su0 = dataflow.get_unit {core = 0 : i32, name = "C0-L1SU", type = "L1SU"} : index
      %sus = uniform.def_immutable_mapping([%0 -> %su0]):index
      %su = uniform.query_map(map:%sus, key:%tid) : index
      ktdf_lowering.execute_on %lu, %sf, %su {
        %in0 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 32xi32>
        %in1 = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"L1LU" -> "SFU", 32xi32>
        %out = ktdf.fifo.allocate() -> !ktdf.fifo.slot<"SFU" -> "L1SU", 32xi8>
        ktdf_lowering.execute_on %sf {
          %a = ktdf.read_from_fifo %in0 : <"L1LU" -> "SFU", 32xi32> -> tensor<32xi32>
          %b = ktdf.read_from_fifo %in1 : <"L1LU" -> "SFU", 32xi32> -> tensor<32xi32>
          %e = tensor.empty() : tensor<32xi8>
          %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<32xi32>, tensor<32xi32>) outs(%e : tensor<32xi8>) {
          ^bb0(%x: i32, %y: i32, %o: i8):
            %d = arith.divui %x, %y : i32
            %lt = arith.cmpi ult, %d, %y : i32
            %m = arith.select %lt, %d, %y : i32
            %xo = arith.xori %m, %x : i32
            %sh = arith.shrsi %xo, %y : i32
            %t = arith.trunci %sh : i32 to i8
            linalg.yield %t : i8
          } -> tensor<32xi8>
          ktdf.write_to_fifo %r, %out : tensor<32xi8>, <"SFU" -> "L1SU", 32xi8>
        } {applicable_units = ["SFU"]}
      } {applicable_units = ["L1LU", "SFU", "L1SU"]}
      func.return
    }
  }
}
