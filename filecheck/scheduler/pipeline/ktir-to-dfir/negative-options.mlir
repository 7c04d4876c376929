// RUN: not ktir-opt %s -p 'ktir-to-dfir{device=sample_device disable=nope}' 2>&1 | filecheck %s --check-prefix=DISABLE
// RUN: not ktir-opt %s -p 'ktir-to-dfir{device=sample_device stop_at=nope}' 2>&1 | filecheck %s --check-prefix=STOP
// RUN: not ktir-opt %s -p 'ktir-to-dfir{device=sample_device disable=path-expansion}' 2>&1 | filecheck %s --check-prefix=UNROUTED

/// Bad pipeline options are errors with exit code 1 that list what is valid: `disable` takes
/// pass names, `stop_at` a checkpoint or a pass. Disabling a pass the later ones need is
/// caught where it matters: without path-expansion no stage is bound to a unit, and the
/// lowering says so at the source op the pipeline came from.

// DISABLE: error: unknown pass 'nope' to disable (the pipeline's passes: fold-constant-bitcasts, normalize-view-origins, normalize-tile-loops, reduction-dim-chunking, unroll-carried-loops, inter-tile-exchange, single-tile-branches, share-invariant-loads, split-distributed-views, fold-reshapes-into-views, generalize-contractions, split-compute-chains, ktir-legality-check, compute-group-extraction, tile-invariant-groups, construct-three-stage-pipeline, path-expansion, scalar-broadcast-legalization, normalize-scf-for-loops, tile-scf-for-loops, stage-coarsening, elide-copy-stages, reduction-loop-exposure, loop-invariant-code-motion, unroll-compute-loops, interleave-compute-chains, sink-host-loops, broadcast-promotion, double-buffering, parallelize-loops-across-instances, tile-size-selection, affine-min-canonicalization, subsume-linearize-index, fuse-compute-groups, address-assignment, normalize-grid-to-1d, ktdf-to-ktdflowering, ktdflowering-to-dfir, wrap-program-dfir)
// STOP: error: cannot stop at 'nope': neither a checkpoint nor a pass of this pipeline (pre_mapping, fold-constant-bitcasts, normalize-view-origins, normalize-tile-loops, reduction-dim-chunking, unroll-carried-loops, inter-tile-exchange, single-tile-branches, share-invariant-loads, split-distributed-views, fold-reshapes-into-views, generalize-contractions, split-compute-chains, ktir-legality-check, compute-group-extraction, tile-invariant-groups, construct-three-stage-pipeline, pre_scheduling, path-expansion, scalar-broadcast-legalization, normalize-scf-for-loops, tile-scf-for-loops, stage-coarsening, elide-copy-stages, reduction-loop-exposure, loop-invariant-code-motion, unroll-compute-loops, interleave-compute-chains, sink-host-loops, broadcast-promotion, double-buffering, parallelize-loops-across-instances, tile-size-selection, affine-min-canonicalization, subsume-linearize-index, fuse-compute-groups, post_scheduling, address-assignment, normalize-grid-to-1d, ktdf-to-ktdflowering, post_lowering, ktdflowering-to-dfir, wrap-program-dfir)

func.func @neg_row(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_order = affine_map<(d0, d1) -> (d0, d1)>, access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %n = arith.negf %a : tensor<1x64xf16>
  // UNROUTED: negative-options.mlir:[[# @LINE + 1]]:3: error: 'ktdf.stage' op every stage must be bound to exactly one unit kind before lowering (run path-expansion)
  ktdp.store %n, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
