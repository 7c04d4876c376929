"""The scheduler: KTIR -> ScheduleIR (`ktdf`) -> DataflowIR (dialects, analyses, passes, the
pipeline and its driver)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass


def _ktdf() -> Dialect:
    from scheduler.dialects.ktdf import Ktdf

    return Ktdf


def _ktdf_lowering() -> Dialect:
    from scheduler.dialects.ktdf_lowering import KtdfLowering

    return KtdfLowering


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {"ktdf": _ktdf, "ktdf_lowering": _ktdf_lowering}


_PASSES = {
    # name: (module, class), imported on first use
    "ktir-legality-check": ("conversion.ktir_to_ktdf.ktir_legality_check",
                            "KtirLegalityCheckPass"),
    "compute-group-extraction": ("conversion.ktir_to_ktdf.compute_group_extraction",
                                 "ComputeGroupExtractionPass"),
    "construct-three-stage-pipeline": ("conversion.ktir_to_ktdf.construct_three_stage_pipeline",
                                       "ConstructThreeStagePipelinePass"),
    "path-expansion": ("transforms.path_expansion", "PathExpansionPass"),
    "normalize-scf-for-loops": ("transforms.normalize_scf_for_loops",
                                "NormalizeScfForLoopsPass"),
    "tile-scf-for-loops": ("transforms.tile_scf_for_loops", "TileScfForLoopsPass"),
    "stage-coarsening": ("transforms.stage_coarsening", "StageCoarseningPass"),
    "tile-size-selection": ("transforms.tile_size_selection", "TileSizeSelectionPass"),
    "affine-min-canonicalization": ("transforms.affine_min_canonicalization",
                                    "AffineMinCanonicalizationPass"),
    "subsume-linearize-index": ("transforms.subsume_linearize_index",
                                "SubsumeLinearizeIndexPass"),
    "double-buffering": ("transforms.double_buffering", "DoubleBufferingPass"),
    "scalar-broadcast-legalization": ("transforms.scalar_broadcast_legalization",
                                      "ScalarBroadcastLegalizationPass"),
    "parallelize-loops-across-instances": ("transforms.parallelize_loops_across_instances",
                                           "ParallelizeLoopsAcrossInstancesPass"),
    "broadcast-promotion": ("transforms.broadcast_promotion", "BroadcastPromotionPass"),
    "elide-copy-stages": ("transforms.elide_copy_stages", "ElideCopyStagesPass"),
    "tile-invariant-groups": ("transforms.tile_invariant_groups", "TileInvariantGroupsPass"),
    "fuse-compute-groups": ("transforms.fuse_compute_groups", "FuseComputeGroupsPass"),
    "inter-tile-exchange": ("transforms.inter_tile_exchange", "InterTileExchangePass"),
    "generalize-contractions": ("transforms.generalize_contractions",
                                "GeneralizeContractionsPass"),
    "split-compute-chains": ("transforms.split_compute_chains", "SplitComputeChainsPass"),
    "fold-reshapes-into-views": ("transforms.fold_reshapes_into_views",
                                 "FoldReshapesIntoViewsPass"),
    "single-tile-branches": ("transforms.single_tile_branches", "SingleTileBranchesPass"),
    "share-invariant-loads": ("transforms.share_invariant_loads", "ShareInvariantLoadsPass"),
    "split-distributed-views": ("transforms.split_distributed_views",
                                "SplitDistributedViewsPass"),
    "sink-host-loops": ("transforms.sink_host_loops", "SinkHostLoopsPass"),
    "reduction-loop-exposure": ("transforms.reduction_loop_exposure",
                                "ReductionLoopExposurePass"),
    "loop-invariant-code-motion": ("transforms.loop_invariant_code_motion",
                                   "LoopInvariantCodeMotionPass"),
    "unroll-compute-loops": ("transforms.unroll_compute_loops", "UnrollComputeLoopsPass"),
    "interleave-compute-chains": ("transforms.interleave_compute_chains",
                                  "InterleaveComputeChainsPass"),
    "address-assignment": ("transforms.address_assignment", "AddressAssignmentPass"),
    "normalize-grid-to-1d": ("transforms.normalize_grid_to_1d", "NormalizeGridTo1DPass"),
    "ensure-device-declaration": ("transforms.ensure_device_declaration",
                                  "EnsureDeviceDeclarationPass"),
    "emit-split-dfir": ("transforms.emit_split_dfir", "EmitSplitDfirPass"),
    "bind-arguments": ("transforms.bind_arguments", "BindArgumentsPass"),
    "normalize-tile-loops": ("transforms.normalize_tile_loops", "NormalizeTileLoopsPass"),
    "normalize-view-origins": ("transforms.normalize_view_origins", "NormalizeViewOriginsPass"),
    "fold-constant-bitcasts": ("transforms.fold_constant_bitcasts", "FoldConstantBitcastsPass"),
    "reduction-dim-chunking": ("transforms.reduction_dim_chunking", "ReductionDimChunkingPass"),
    "unroll-carried-loops": ("transforms.unroll_carried_loops", "UnrollCarriedLoopsPass"),
    "ktdf-to-ktdflowering": ("conversion.ktdf_to_dfir.ktdf_to_ktdflowering",
                             "KtdfToKtdfloweringPass"),
    "ktdflowering-to-dfir": ("conversion.ktdf_to_dfir.ktdflowering_to_dfir",
                             "KtdfloweringToDfirPass"),
    "wrap-program-dfir": ("conversion.ktdf_to_dfir.wrap_program_dfir", "WrapProgramDfirPass"),
    "ktdfarch-apply-patterns": ("checkpoints", "KtdfarchApplyPatternsPass"),
    "ktir-to-dfir": ("pipeline", "KtirToDfirPass"),
    "ktir-to-ktdf": ("pipeline", "KtirToKtdfPass"),
    "ktdf-schedule": ("pipeline", "KtdfSchedulePass"),
    "ktdf-to-dfir": ("pipeline", "KtdfToDfirPass"),
}


def _pass_factory(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        from importlib import import_module

        return getattr(import_module(f"scheduler.{module}"), cls)

    return load


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {name: _pass_factory(m, c) for name, (m, c) in _PASSES.items()}
