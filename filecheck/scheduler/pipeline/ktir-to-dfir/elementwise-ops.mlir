// RUN: ktir-opt %s --split-input-file -p 'ktir-to-dfir{device=sample_device disable=interleave-compute-chains}' | filecheck %s

/// The element-wise op families of real kernels, compiled end to end: the compute unit's
/// program holds one vectorchain recipe per op (scheduler/analysis/compute_ops.py). math
/// functions vectorchain has become its estimates (exp, log, tanh, rsqrt) or the extension
/// `lane_function` (sqrt, exp2, log2, erf, sin, cos, pow), absf an abs_max of the value with
/// itself; the spyreop intrinsics become estimates (exp, reciprocal, sigmoid), lane functions
/// (gelu, silu, softplus with its parameters, realdiv, the layer-norm steps) or a multiply
/// (exx2's mean of squares); conversions are casts, the unsigned ones through a 64-bit zero
/// extension (and0 with the mask) or a clamp (max, min). A group mixing i8 and f32 computes on
/// vectors of the narrowest-lane type (32 lanes of i32/f32 on 64 f16 lanes). The recipes are
/// pinned in the body's order: interleave-compute-chains, which reorders independent chains by
/// readiness, is disabled here.

// CHECK-LABEL: func.func @math_unary(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%sfu) : {
// CHECK:           %[[X:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      %[[V0:.*]] = vectorchain.fast_exp %[[X]] : vector<64xf16>, vector<64xf16>
// CHECK-NEXT:      %[[V1:.*]] = vectorchain.ln_estimate %[[V0]]
// CHECK-NEXT:      %[[V2:.*]] = vectorchain.tanh_estimate %[[V1]]
// CHECK-NEXT:      %[[V3:.*]] = vectorchain.rsqrt_estimate %[[V2]]
// CHECK-NEXT:      %[[V4:.*]] = vectorchain.lane_function "sqrt" %[[V3]] : vector<64xf16> -> vector<64xf16>
// CHECK-NEXT:      %[[V5:.*]] = vectorchain.lane_function "exp2" %[[V4]]
// CHECK-NEXT:      %[[V6:.*]] = vectorchain.lane_function "log2" %[[V5]]
// CHECK-NEXT:      %[[V7:.*]] = vectorchain.lane_function "erf" %[[V6]]
// CHECK-NEXT:      %[[V8:.*]] = vectorchain.lane_function "sin" %[[V7]]
// CHECK-NEXT:      %[[V9:.*]] = vectorchain.lane_function "cos" %[[V8]]
// CHECK-NEXT:      %[[V10:.*]] = vectorchain.binary %[[V9]], %[[V9]] {binary_op = #vectorchain<binary_operator abs_max>, {{.*}}}
// CHECK-NEXT:      %[[R:.*]] = vectorchain.lane_function "pow" %[[V10]], %[[X]] : vector<64xf16>, vector<64xf16> -> vector<64xf16>
// CHECK-NEXT:      dataflow.send %{{.*}}, %[[R]] : vector<64xf16>
func.func @math_unary(%in0: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 1 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x0 : tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a0: f16, %o: f16):
    %v0 = math.exp %a0 : f16
    %v1 = math.log %v0 : f16
    %v2 = math.tanh %v1 : f16
    %v3 = math.rsqrt %v2 : f16
    %v4 = math.sqrt %v3 : f16
    %v5 = math.exp2 %v4 : f16
    %v6 = math.log2 %v5 : f16
    %v7 = math.erf %v6 : f16
    %v8 = math.sin %v7 : f16
    %v9 = math.cos %v8 : f16
    %v10 = math.absf %v9 : f16
    %r = math.powf %v10, %a0 : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %res, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @spyre_intrinsics(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%sfu) : {
// CHECK:           %[[X:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      %[[Y:.*]] = dataflow.receive %{{.*}} : vector<64xf16>
// CHECK-NEXT:      %[[V0:.*]] = vectorchain.fast_exp %[[X]]
// CHECK-NEXT:      %[[V1:.*]] = vectorchain.rec_estimate %[[V0]]
// CHECK-NEXT:      %[[V2:.*]] = vectorchain.sigmoid_estimate %[[V1]]
// CHECK-NEXT:      %[[V3:.*]] = vectorchain.lane_function "gelu" %[[V2]]
// CHECK-NEXT:      %[[V4:.*]] = vectorchain.lane_function "silu" %[[V3]]
// CHECK-NEXT:      %[[V5:.*]] = vectorchain.lane_function "softplus" %[[V4]] {parameters = [5.000000e-01 : f32, 2.000000e+01 : f32]}
// CHECK-NEXT:      %[[V6:.*]] = vectorchain.lane_function "div" %[[V5]], %[[Y]]
// CHECK-NEXT:      %[[SQ:.*]] = vectorchain.binary %[[V6]], %[[V6]] {binary_op = #vectorchain<binary_operator mul>, {{.*}}}
// CHECK-NEXT:      %[[S:.*]] = vectorchain.lane_function "layernormscale" %[[V6]], %[[SQ]]
// CHECK-NEXT:      %[[R:.*]] = vectorchain.lane_function "layernormnorm" %[[X]], %[[V6]], %[[S]], %[[Y]], %[[V6]]
// CHECK-NEXT:      dataflow.send %{{.*}}, %[[R]] : vector<64xf16>
func.func @spyre_intrinsics(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 1 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %x1v = ktdp.construct_memory_view %in1, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %x1t = ktdp.construct_access_tile %x1v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x0, %x1 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %v0 = spyreop.exp %a0 : f16
    %v1 = spyreop.reciprocal %v0 : f16
    %v2 = spyreop.sigmoid %v1 : f16
    %v3 = spyreop.gelu %v2 : f16
    %v4 = spyreop.silu %v3 : f16
    %v5 = spyreop.softplus %v4 beta 0.5 threshold 20.0 : f16
    %v6 = spyreop.realdiv %v5, %a1 : f16
    %m, %sq = spyreop.exx2 %v6 : f16
    %s = spyreop.layernormscale %m squares %sq : f16
    %r = spyreop.layernormnorm %a0 squares %m scale %s weight %a1 bias %v6 : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %res, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

// CHECK-LABEL: func.func @casts(
// CHECK:         dataflow.program_unit iter_arg : %{{.*}} -> (%sfu) : {
// CHECK:           %[[I8:.*]] = dataflow.receive %{{.*}} : vector<32xi8>
// CHECK-NEXT:      %[[BF:.*]] = dataflow.receive %{{.*}} : vector<32xbf16>
// CHECK-NEXT:      %[[W:.*]] = vectorchain.cast %[[I8]] : vector<32xi8>, vector<32xi32>
// CHECK-NEXT:      %[[F:.*]] = vectorchain.cast %[[W]] : vector<32xi32>, vector<32xf32>
// CHECK-NEXT:      %[[WIDE:.*]] = vectorchain.cast %[[I8]] : vector<32xi8>, vector<32xi64>
// CHECK-NEXT:      %[[MASK:.*]] = vectorchain.constant_bitstream {value = [0xFF{{(, 0xFF)+}}]} : vector<32xi64>
// CHECK-NEXT:      %[[ZX:.*]] = vectorchain.binary %[[WIDE]], %[[MASK]] {binary_op = #vectorchain<binary_operator and0>, {{.*}}}
// CHECK-NEXT:      %[[U:.*]] = vectorchain.cast %[[ZX]] : vector<32xi64>, vector<32xf32>
// CHECK-NEXT:      %[[S:.*]] = vectorchain.binary %[[F]], %[[U]] {binary_op = #vectorchain<binary_operator add>, {{.*}}}
// CHECK-NEXT:      %[[B:.*]] = vectorchain.cast %[[BF]] : vector<32xbf16>, vector<32xf32>
// CHECK-NEXT:      %[[T:.*]] = vectorchain.binary %[[S]], %[[B]] {binary_op = #vectorchain<binary_operator add>, {{.*}}}
// CHECK-NEXT:      %[[T64:.*]] = vectorchain.cast %[[T]] : vector<32xf32>, vector<32xi64>
// CHECK-NEXT:      %[[ZERO:.*]] = vectorchain.constant_bitstream {value = [0x0{{(, 0x0)+}}]} : vector<32xi64>
// CHECK-NEXT:      %[[LO:.*]] = vectorchain.binary %[[T64]], %[[ZERO]] {binary_op = #vectorchain<binary_operator max>, {{.*}}}
// CHECK-NEXT:      %[[TOP:.*]] = vectorchain.constant_bitstream {value = [0xFFFF{{(, 0xFFFF)+}}]} : vector<32xi64>
// CHECK-NEXT:      %[[HI:.*]] = vectorchain.binary %[[LO]], %[[TOP]] {binary_op = #vectorchain<binary_operator min>, {{.*}}}
// CHECK-NEXT:      %[[I16:.*]] = vectorchain.cast %[[HI]] : vector<32xi64>, vector<32xi16>
// CHECK-NEXT:      %[[I64:.*]] = vectorchain.cast %[[I16]] : vector<32xi16>, vector<32xi64>
// CHECK-NEXT:      %[[ZX2:.*]] = vectorchain.binary %[[I64]], %[[TOP]] {binary_op = #vectorchain<binary_operator and0>, {{.*}}}
// CHECK-NEXT:      %[[H:.*]] = vectorchain.cast %[[ZX2]] : vector<32xi64>, vector<32xf16>
// CHECK-NEXT:      %[[R:.*]] = vectorchain.neg %[[H]] : vector<32xf16>, vector<32xf16>
// CHECK-NEXT:      dataflow.send %{{.*}}, %[[R]] : vector<32xf16>
func.func @casts(%in0: index, %in1: index, %out: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %rows = arith.constant 1 : index
  %tid = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %tid, %rows : index
  %x0v = ktdp.construct_memory_view %in0, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xi8>
  %x0t = ktdp.construct_access_tile %x0v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xi8> -> !ktdp.access_tile<1x64xindex>
  %x0 = ktdp.load %x0t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xi8>
  %x1v = ktdp.construct_memory_view %in1, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xbf16>
  %x1t = ktdp.construct_access_tile %x1v[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xbf16> -> !ktdp.access_tile<1x64xindex>
  %x1 = ktdp.load %x1t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xbf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x0, %x1 : tensor<1x64xi8>, tensor<1x64xbf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%a0: i8, %a1: bf16, %o: f16):
    %w = arith.extsi %a0 : i8 to i32
    %f = arith.sitofp %w : i32 to f32
    %u = arith.uitofp %a0 : i8 to f32
    %b = arith.extf %a1 : bf16 to f32
    %s = arith.addf %f, %u : f32
    %t = arith.addf %s, %b : f32
    %i = arith.fptoui %t : f32 to i16
    %h = arith.uitofp %i : i16 to f16
    %r = arith.negf %h : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ot = ktdp.construct_access_tile %ov[%row0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %res, %ot : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

