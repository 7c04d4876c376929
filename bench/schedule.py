"""Schedule quality: what the optimisation passes buy, kernel by kernel, against the bound.

    python -m bench.schedule [--devices spyre,sample_device] [--only NAME] [--no-simd-matmul]

For each kernel on each device: emulated cycles of the naive schedule (`-O0`: every pass of
`scheduler.pipeline.OPTIMISATIONS` disabled — one vector per transfer behind a handshake),
of the optimised one (the default pipeline), the bound (`ktir run`'s: compulsory bytes over
the shared bandwidths, element operations over the compute lanes, one round trip), the
efficiency (bound / optimised cycles), the speed-up (naive / optimised), the compile seconds
of the optimised schedule, and one ablation row per pass (that pass alone disabled: its
cycles and how much slower than the optimised schedule). Every run is checked bitwise
against the reference interpreter (`match`); a kernel that does not run yet is reported as
such. Kernels: the element-wise examples (add_96x64, bias_add, eltwise_chain), a 1024 x 1024
fp16 add (2 MiB per operand) as one slab per tile and in the Inductor / Triton style (an
`scf.for` over the rows, strided by the tile id), and the softmax / layer norm examples
(reductions: one row per DMA; their gain comes from sink-host-loops and the compute
passes).

Measured on the project's 2-core machine (other jobs running; compile seconds include a
cold start on the first row), races checked, every run equal to the reference (bitwise;
layer norm within its header's tolerance, its f32 sums accumulating in another order):

    kernel                 device         row                                               cycles    bound   eff speed-up compile s match
    add_96x64              spyre          naive (-O0)                                          579      412  0.71    1.00x      1.55 True
    add_96x64              spyre          optimised                                            438      412  0.94    1.32x      0.52 True
    add_96x64              spyre            without scalar-broadcast-legalization              438      412  0.94    1.32x      0.31 True
    add_96x64              spyre            without stage-coarsening                           548      412  0.75    1.06x      0.39 True
    add_96x64              spyre            without loop-invariant-code-motion                 438      412  0.94    1.32x      0.35 True
    add_96x64              spyre            without unroll-compute-loops                       438      412  0.94    1.32x      0.59 True
    add_96x64              spyre            without interleave-compute-chains                  438      412  0.94    1.32x      0.34 True
    add_96x64              spyre            without sink-host-loops                            438      412  0.94    1.32x      0.27 True
    add_96x64              spyre            without broadcast-promotion                        438      412  0.94    1.32x      0.25 True
    add_96x64              spyre            without double-buffering                           438      412  0.94    1.32x      0.32 True
    add_96x64              spyre            without parallelize-loops-across-instances         438      412  0.94    1.32x      0.72 True
    add_96x64              sample_device  naive (-O0)                                          791      223  0.28    1.00x      0.43 True
    add_96x64              sample_device  optimised                                            351      223  0.64    2.25x      0.77 True
    add_96x64              sample_device    without scalar-broadcast-legalization              351      223  0.64    2.25x      0.67 True
    add_96x64              sample_device    without stage-coarsening                           775      223  0.29    1.02x      0.21 True
    add_96x64              sample_device    without loop-invariant-code-motion                 351      223  0.64    2.25x      0.90 True
    add_96x64              sample_device    without unroll-compute-loops                       351      223  0.64    2.25x      0.54 True
    add_96x64              sample_device    without interleave-compute-chains                  351      223  0.64    2.25x      0.74 True
    add_96x64              sample_device    without sink-host-loops                            351      223  0.64    2.25x      0.58 True
    add_96x64              sample_device    without broadcast-promotion                        351      223  0.64    2.25x      1.17 True
    add_96x64              sample_device    without double-buffering                           351      223  0.64    2.25x      0.60 True
    add_96x64              sample_device    without parallelize-loops-across-instances         357      223  0.62    2.22x      0.43 True
    bias_add               spyre          naive (-O0)                                        3,948    1,028  0.26    1.00x      0.32 True
    bias_add               spyre          optimised                                          1,196    1,028  0.86    3.30x      0.37 True
    bias_add               spyre            without scalar-broadcast-legalization            1,196    1,028  0.86    3.30x      0.27 True
    bias_add               spyre            without stage-coarsening                         3,701    1,028  0.28    1.07x      0.34 True
    bias_add               spyre            without loop-invariant-code-motion               1,196    1,028  0.86    3.30x      0.32 True
    bias_add               spyre            without unroll-compute-loops                     1,196    1,028  0.86    3.30x      0.28 True
    bias_add               spyre            without interleave-compute-chains                1,196    1,028  0.86    3.30x      0.42 True
    bias_add               spyre            without sink-host-loops                          1,196    1,028  0.86    3.30x      1.05 True
    bias_add               spyre            without broadcast-promotion                      1,196    1,028  0.86    3.30x      0.18 True
    bias_add               spyre            without double-buffering                         1,196    1,028  0.86    3.30x      0.21 True
    bias_add               spyre            without parallelize-loops-across-instances       1,196    1,028  0.86    3.30x      0.29 True
    bias_add               sample_device  naive (-O0)                                        7,316      252  0.03    1.00x      0.32 True
    bias_add               sample_device  optimised                                            479      252  0.53   15.27x      0.66 True
    bias_add               sample_device    without scalar-broadcast-legalization              479      252  0.53   15.27x      0.59 True
    bias_add               sample_device    without stage-coarsening                         7,068      252  0.04    1.04x      0.33 True
    bias_add               sample_device    without loop-invariant-code-motion                 479      252  0.53   15.27x      0.43 True
    bias_add               sample_device    without unroll-compute-loops                       479      252  0.53   15.27x      0.46 True
    bias_add               sample_device    without interleave-compute-chains                  479      252  0.53   15.27x      1.23 True
    bias_add               sample_device    without sink-host-loops                            479      252  0.53   15.27x      0.62 True
    bias_add               sample_device    without broadcast-promotion                        479      252  0.53   15.27x      0.53 True
    bias_add               sample_device    without double-buffering                           479      252  0.53   15.27x      0.62 True
    bias_add               sample_device    without parallelize-loops-across-instances         575      252  0.44   12.72x      0.36 True
    eltwise_chain          spyre          naive (-O0)                                        2,104      604  0.29    1.00x      0.26 True
    eltwise_chain          spyre          optimised                                            772      604  0.78    2.73x      0.33 True
    eltwise_chain          spyre            without scalar-broadcast-legalization              772      604  0.78    2.73x      0.29 True
    eltwise_chain          spyre            without stage-coarsening                         1,938      604  0.31    1.09x      0.37 True
    eltwise_chain          spyre            without loop-invariant-code-motion                 772      604  0.78    2.73x      0.41 True
    eltwise_chain          spyre            without unroll-compute-loops                       772      604  0.78    2.73x      0.40 True
    eltwise_chain          spyre            without interleave-compute-chains                  772      604  0.78    2.73x      0.37 True
    eltwise_chain          spyre            without sink-host-loops                            772      604  0.78    2.73x      0.35 True
    eltwise_chain          spyre            without broadcast-promotion                        772      604  0.78    2.73x      0.36 True
    eltwise_chain          spyre            without double-buffering                           772      604  0.78    2.73x      0.33 True
    eltwise_chain          spyre            without parallelize-loops-across-instances         772      604  0.78    2.73x      0.32 True
    eltwise_chain          sample_device  naive (-O0)                                        5,503      244  0.04    1.00x      0.20 True
    eltwise_chain          sample_device  optimised                                            556      244  0.44    9.90x      0.32 True
    eltwise_chain          sample_device    without scalar-broadcast-legalization              556      244  0.44    9.90x      0.41 True
    eltwise_chain          sample_device    without stage-coarsening                         5,338      244  0.05    1.03x      0.43 True
    eltwise_chain          sample_device    without loop-invariant-code-motion                 556      244  0.44    9.90x      0.24 True
    eltwise_chain          sample_device    without unroll-compute-loops                       556      244  0.44    9.90x      0.47 True
    eltwise_chain          sample_device    without interleave-compute-chains                  556      244  0.44    9.90x      0.53 True
    eltwise_chain          sample_device    without sink-host-loops                            556      244  0.44    9.90x      0.43 True
    eltwise_chain          sample_device    without broadcast-promotion                        556      244  0.44    9.90x      0.39 True
    eltwise_chain          sample_device    without double-buffering                           556      244  0.44    9.90x      0.25 True
    eltwise_chain          sample_device    without parallelize-loops-across-instances         628      244  0.39    8.76x      0.31 True
    add_1024x1024          spyre          naive (-O0)                                       60,868   49,152  0.81    1.00x      0.44 True
    add_1024x1024          spyre          optimised                                         49,260   49,152  1.00    1.24x      0.45 True
    add_1024x1024          spyre            without scalar-broadcast-legalization           49,260   49,152  1.00    1.24x      0.31 True
    add_1024x1024          spyre            without stage-coarsening                        56,786   49,152  0.87    1.07x      1.25 True
    add_1024x1024          spyre            without loop-invariant-code-motion              49,260   49,152  1.00    1.24x      0.58 True
    add_1024x1024          spyre            without unroll-compute-loops                    49,260   49,152  1.00    1.24x      0.35 True
    add_1024x1024          spyre            without interleave-compute-chains               49,260   49,152  1.00    1.24x      0.34 True
    add_1024x1024          spyre            without sink-host-loops                         49,260   49,152  1.00    1.24x      0.43 True
    add_1024x1024          spyre            without broadcast-promotion                     49,260   49,152  1.00    1.24x      0.48 True
    add_1024x1024          spyre            without double-buffering                        49,260   49,152  1.00    1.24x      0.42 True
    add_1024x1024          spyre            without parallelize-loops-across-instances      49,260   49,152  1.00    1.24x      0.52 True
    add_1024x1024          sample_device  naive (-O0)                                      115,316      732  0.01    1.00x      0.24 True
    add_1024x1024          sample_device  optimised                                          2,125      732  0.34   54.27x      0.56 True
    add_1024x1024          sample_device    without scalar-broadcast-legalization            2,125      732  0.34   54.27x      0.41 True
    add_1024x1024          sample_device    without stage-coarsening                       111,228      732  0.01    1.04x      0.42 True
    add_1024x1024          sample_device    without loop-invariant-code-motion               2,125      732  0.34   54.27x      1.86 True
    add_1024x1024          sample_device    without unroll-compute-loops                     2,125      732  0.34   54.27x      0.83 True
    add_1024x1024          sample_device    without interleave-compute-chains                2,125      732  0.34   54.27x      0.68 True
    add_1024x1024          sample_device    without sink-host-loops                          2,125      732  0.34   54.27x      0.57 True
    add_1024x1024          sample_device    without broadcast-promotion                      2,125      732  0.34   54.27x      0.67 True
    add_1024x1024          sample_device    without double-buffering                         3,163      732  0.23   36.46x      0.45 True
    add_1024x1024          sample_device    without parallelize-loops-across-instances       3,661      732  0.20   31.50x      0.49 True
    add_1024x1024_tiled    spyre          naive (-O0)                                       67,936   49,152  0.72    1.00x      0.44 True
    add_1024x1024_tiled    spyre          optimised                                         49,260   49,152  1.00    1.38x      1.46 True
    add_1024x1024_tiled    spyre            without scalar-broadcast-legalization           49,260   49,152  1.00    1.38x      0.46 True
    add_1024x1024_tiled    spyre            without stage-coarsening                        56,786   49,152  0.87    1.20x      0.45 True
    add_1024x1024_tiled    spyre            without loop-invariant-code-motion              49,260   49,152  1.00    1.38x      0.63 True
    add_1024x1024_tiled    spyre            without unroll-compute-loops                    49,260   49,152  1.00    1.38x      0.43 True
    add_1024x1024_tiled    spyre            without interleave-compute-chains               49,260   49,152  1.00    1.38x      0.51 True
    add_1024x1024_tiled    spyre            without sink-host-loops                         52,608   49,152  0.93    1.29x      0.30 True
    add_1024x1024_tiled    spyre            without broadcast-promotion                     49,260   49,152  1.00    1.38x      0.38 True
    add_1024x1024_tiled    spyre            without double-buffering                        49,260   49,152  1.00    1.38x      0.39 True
    add_1024x1024_tiled    spyre            without parallelize-loops-across-instances      49,260   49,152  1.00    1.38x      0.53 True
    add_1024x1024_tiled    sample_device  naive (-O0)                                      118,912      732  0.01    1.00x      0.38 True
    add_1024x1024_tiled    sample_device  optimised                                          7,605      732  0.10   15.64x      0.62 True
    add_1024x1024_tiled    sample_device    without scalar-broadcast-legalization            7,605      732  0.10   15.64x      2.00 True
    add_1024x1024_tiled    sample_device    without stage-coarsening                       111,228      732  0.01    1.07x      0.45 True
    add_1024x1024_tiled    sample_device    without loop-invariant-code-motion               7,605      732  0.10   15.64x      0.56 True
    add_1024x1024_tiled    sample_device    without unroll-compute-loops                     7,605      732  0.10   15.64x      0.63 True
    add_1024x1024_tiled    sample_device    without interleave-compute-chains                7,605      732  0.10   15.64x      0.60 True
    add_1024x1024_tiled    sample_device    without sink-host-loops                         13,216      732  0.06    9.00x      0.55 True
    add_1024x1024_tiled    sample_device    without broadcast-promotion                      7,605      732  0.10   15.64x      0.91 True
    add_1024x1024_tiled    sample_device    without double-buffering                         9,155      732  0.08   12.99x      0.69 True
    add_1024x1024_tiled    sample_device    without parallelize-loops-across-instances       7,653      732  0.10   15.54x      0.50 True
    softmax                spyre          naive (-O0)                                        3,340    2,048  0.61    1.00x      1.66 True
    softmax                spyre          optimised                                          2,206    2,048  0.93    1.51x      0.37 True
    softmax                spyre            without scalar-broadcast-legalization            2,206    2,048  0.93    1.51x      0.70 True
    softmax                spyre            without stage-coarsening                         2,206    2,048  0.93    1.51x      0.62 True
    softmax                spyre            without loop-invariant-code-motion               2,206    2,048  0.93    1.51x      0.63 True
    softmax                spyre            without unroll-compute-loops                     2,581    2,048  0.79    1.29x      0.71 True
    softmax                spyre            without interleave-compute-chains                2,467    2,048  0.83    1.35x      0.73 True
    softmax                spyre            without sink-host-loops                          2,748    2,048  0.75    1.22x      0.59 True
    softmax                spyre            without broadcast-promotion                      2,206    2,048  0.93    1.51x      0.62 True
    softmax                spyre            without double-buffering                         2,206    2,048  0.93    1.51x      1.86 True
    softmax                spyre            without parallelize-loops-across-instances       2,206    2,048  0.93    1.51x      0.66 True
    softmax                sample_device  naive (-O0)                                        2,332      300  0.13    1.00x      0.37 True
    softmax                sample_device  optimised                                          1,478      300  0.20    1.58x      0.71 True
    softmax                sample_device    without scalar-broadcast-legalization            1,478      300  0.20    1.58x      0.78 True
    softmax                sample_device    without stage-coarsening                         1,478      300  0.20    1.58x      0.33 True
    softmax                sample_device    without loop-invariant-code-motion               1,478      300  0.20    1.58x      0.44 True
    softmax                sample_device    without unroll-compute-loops                     2,070      300  0.14    1.13x      0.46 True
    softmax                sample_device    without interleave-compute-chains                1,894      300  0.16    1.23x      0.56 True
    softmax                sample_device    without sink-host-loops                          1,740      300  0.17    1.34x      0.62 True
    softmax                sample_device    without broadcast-promotion                      1,478      300  0.20    1.58x      0.34 True
    softmax                sample_device    without double-buffering                         1,478      300  0.20    1.58x      2.57 True
    softmax                sample_device    without parallelize-loops-across-instances       1,478      300  0.20    1.58x      0.66 True
    layernorm              spyre          naive (-O0)                                       24,857    6,471  0.26    1.00x      1.35 True
    layernorm              spyre          optimised                                         10,114    6,471  0.64    2.46x      0.94 True
    layernorm              spyre            without scalar-broadcast-legalization           10,114    6,471  0.64    2.46x      0.97 True
    layernorm              spyre            without stage-coarsening                        10,114    6,471  0.64    2.46x      0.99 True
    layernorm              spyre            without loop-invariant-code-motion              11,805    6,471  0.55    2.11x      2.98 True
    layernorm              spyre            without unroll-compute-loops                    10,458    6,471  0.62    2.38x      0.90 True
    layernorm              spyre            without interleave-compute-chains               11,308    6,471  0.57    2.20x      0.92 True
    layernorm              spyre            without sink-host-loops                         17,901    6,471  0.36    1.39x      1.17 True
    layernorm              spyre            without broadcast-promotion                     16,033    6,471  0.40    1.55x      1.25 True
    layernorm              spyre            without double-buffering                        10,114    6,471  0.64    2.46x      2.50 True
    layernorm              spyre            without parallelize-loops-across-instances      10,114    6,471  0.64    2.46x      0.77 True
    layernorm              sample_device  naive (-O0)                                       16,937      970  0.06    1.00x      0.73 True
    layernorm              sample_device  optimised                                          6,933      970  0.14    2.44x      0.83 True
    layernorm              sample_device    without scalar-broadcast-legalization            6,933      970  0.14    2.44x      0.75 True
    layernorm              sample_device    without stage-coarsening                         6,933      970  0.14    2.44x      0.69 True
    layernorm              sample_device    without loop-invariant-code-motion               9,885      970  0.10    1.71x      0.50 True
    layernorm              sample_device    without unroll-compute-loops                     7,621      970  0.13    2.22x      1.99 True
    layernorm              sample_device    without interleave-compute-chains                9,293      970  0.10    1.82x      0.68 True
    layernorm              sample_device    without sink-host-loops                          9,981      970  0.10    1.70x      0.70 True
    layernorm              sample_device    without broadcast-promotion                      8,325      970  0.12    2.03x      0.82 True
    layernorm              sample_device    without double-buffering                         6,933      970  0.14    2.44x      0.65 True
    layernorm              sample_device    without parallelize-loops-across-instances       6,933      970  0.14    2.44x      0.68 True

Reading it: on `spyre` (device memory shared by the 32 cores at 128 B/cycle) the 2 MiB adds
reach 1.00 (slab) and 1.00 (scf.for-tiled) of the bound, from 0.81 / 0.72; on
`sample_device` (per-core paths) they run 54.3x and 15.6x faster than the naive schedule.
`sink-host-loops` moves a host loop that only calls one group into the group, so the rows of
the tiled add and of softmax run in one call, the next row's DMA overlapping this one's work
(add_1024x1024_tiled 52,608 -> 49,260 on spyre, 13,216 -> 7,605 on sample_device).
`double-buffering` gains where a tile has several blocks (add_1024x1024 on sample_device:
3,163 -> 2,125); the small kernels fit one block per tile, so there is no next block to
overlap. `parallelize-loops-across-instances` splits a coarsened block over sample_device's
two corelets (add_1024x1024 3,661 -> 2,125, bias_add 575 -> 479); spyre has one PE per core.
The reductions (softmax, layer norm: one row per DMA, streamed from the scratchpad in
vector steps) gain from the compute passes: `unroll-compute-loops` runs two vector steps per
fused generic and `interleave-compute-chains` orders the two chains by readiness (softmax on
spyre 2,581 -> 2,206 = 0.93 of the bound, 2,467 without the interleaving; on sample_device
2,070 -> 1,478); `loop-invariant-code-motion` computes layer norm's per-row statistics once
per row instead of once per vector (11,805 -> 10,114 on spyre, 9,885 -> 6,933 on
sample_device). `broadcast-promotion` loads layer norm's weight and bias rows once per tile
instead of once per row (16,033 -> 10,114 on spyre, 8,325 -> 6,933 on sample_device; device
memory reads 1,458,176 -> 671,744 bytes). Double-buffering leaves their masked rows alone
(and, measured with the masks set aside, two copies of softmax's row buffers were slower:
2,432); layer norm is at 0.64 of the bound, its masked rows not double-buffered.
`scalar-broadcast-legalization` has nothing to widen in these kernels (no operand broadcast
along the vector; its docstring gives the row-scale kernel it gains on: 371 -> 355 cycles on
spyre). On the element-wise kernels the three compute passes change nothing (no invariant chains,
bodies already in order, and unroll-compute-loops applies to reducing pipelines only), so
those rows equal the optimised ones. `tile-scf-for-loops` and `tile-size-selection` have no
rows (not optimisations): on spyre and sample_device they leave every nest here to
stage-coarsening (scratchpad pipelines, blocked by its own model); on stream_device they
tile the FIFO pipelines' nests and the cycles are those without them (add_96x64 1,892,
bias_add 18,770, eltwise_chain 14,069, mul_max 14,117; every divisor pair of add_96x64's
3 x 2 nest runs 1,892: tests/scheduler/transforms/test_tile_size_selection.py).

Matmuls on spyre's matrix engine (the contraction pipeline, k steps streamed through each
instance) and on spyre without it (`spyre_simd`; `matmul_rows`, optimised schedule only, every
run bitwise against the reference):

    kernel                 device            cycles     bound binding      eff
    matmul_512             spyre             55,391    12,288 DDR         0.22
    matmul_512             spyre_simd       614,078   131,292 PE          0.21
    matmul_1024            spyre            217,311    49,152 DDR         0.23
    matmul_1024            spyre_simd     8,942,072 1,048,796 PE          0.12

On the engine both are bound by device memory, far from 0.7: the engine would need 4,096 and
32,768 cycles (512^3 and 1024^3 MACs over 32 x 1,024 per cycle), but each tile reads its own
K x (Mt + Nt) of A and B from DDR, which the 32 cores share at 128 B/cycle: on the 4 x 8 grid
every row of A is read by the 8 tiles of its grid row and every column of B by the 4 of its
grid column, 6.8 MB (512) and 27 MB (1024) against the 1.5 and 6 MB the bound charges (each
byte once). The emulated cycles are within 4% (512) and 2% (1024) of those bytes over
128 B/cycle (before the k steps were streamed: 59,877 and 265,453). What would lift it is
reuse across cores, not compute: tiles passing their A rows along the ring to the others of
their grid row (and B columns down their grid column), each byte read from DDR once, would
be bound by 6 MB / 128 = 49k cycles for 1024^3.

On spyre without its matrix engine (`spyre_simd`, the SIMD contraction of
reduction_pipeline.py) both are far from their bound, which the lanes' f32 rate sets (an f16
matmul sums in f32: one f32 operation per MAC, 1,024 per cycle over 32 PEs). The schedules
are limited by device memory instead: an instance covers Mt rows x one 32-lane vector of columns with
every k step's A and B blocks resident, so its B block (K x 32) crosses DDR again for every
Mt rows — Mt = 4 for 512^3 (64 instances a tile, 75 MB in all: 590k cycles at 128 B/cycle,
96% of the emulated cycles) and Mt = 2 for 1024^3 (its eight resident k steps leave room for
two rows; 512 instances a tile, 1.14 GB). The PE alone would take 2x the bound (a MAC is an
f32 mulf and addf: the lanes have no fused multiply-add). What would lift it: B resident
across a tile's instances (a block of the tile's whole width, which broadcast-promotion would
then load once; reduction-loop-exposure does not yet cut a block of several vectors along a
parallel dimension) and k steps streamed rather than resident, so Mt grows. Emulating them
takes minutes (512^3: 104 s, 1024^3: 54 min at a load of ~8), most of it in the race checker's
bookkeeping of the A column reads.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

N = 1024
TILES = 32


def slab_add(n: int = N, tiles: int = TILES) -> str:
    """C = A + B over an n x n fp16 matrix, one slab of n / tiles rows per tile."""
    r = n // tiles
    full = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {n - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    tile = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {r - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    mem, at, t = f"memref<{n}x{n}xf16>", f"!ktdp.access_tile<{r}x{n}xindex>", f"tensor<{r}x{n}xf16>"
    lines = [f"#full = {full}", f"#tile = {tile}", "#id = affine_map<(d0, d1) -> (d0, d1)>",
             f"func.func @add(%A: index, %B: index, %C: index) attributes {{grid = [{tiles}]}} {{",
             "  %c0 = arith.constant 0 : index", f"  %rows = arith.constant {r} : index",
             "  %id = ktdp.get_compute_tile_id : index", "  %row0 = arith.muli %id, %rows : index"]
    for x in "ABC":
        lines += [f"  %{x}v = ktdp.construct_memory_view %{x}, sizes: [{n}, {n}], strides: [{n}, 1] "
                  f"{{coordinate_set = #full, memory_space = #ktdp.memory_space<global>}} : {mem}",
                  f"  %{x}t = ktdp.construct_access_tile %{x}v[%row0, %c0] {{access_tile_order = "
                  f"#id, access_tile_set = #tile}} : {mem} -> {at}"]
    lines += [f"  %a = ktdp.load %At : {at} -> {t}", f"  %b = ktdp.load %Bt : {at} -> {t}",
              f"  %e = tensor.empty() : {t}",
              f"  %c = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}",
              f"  ktdp.store %c, %Ct : {t}, {at}", "  return", "}"]
    return "\n".join(lines) + "\n"


def tiled_add(n: int = N, tiles: int = TILES) -> str:
    """The same add written as Inductor / Triton do: `scf.for %i = %tile to n step tiles`,
    one 1 x n row per iteration."""
    full = f"affine_set<(d0, d1) : (d0 >= 0, -d0 + {n - 1} >= 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    row = f"affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + {n - 1} >= 0)>"
    mem, at, t = f"memref<{n}x{n}xf16>", f"!ktdp.access_tile<1x{n}xindex>", f"tensor<1x{n}xf16>"
    lines = [f"#full = {full}", f"#row = {row}", "#id = affine_map<(d0, d1) -> (d0, d1)>",
             f"func.func @add(%A: index, %B: index, %C: index) attributes {{grid = [{tiles}]}} {{",
             "  %c0 = arith.constant 0 : index", f"  %step = arith.constant {tiles} : index",
             f"  %n = arith.constant {n} : index", "  %t = ktdp.get_compute_tile_id : index"]
    for x in "ABC":
        lines.append(f"  %{x}v = ktdp.construct_memory_view %{x}, sizes: [{n}, {n}], strides: "
                     f"[{n}, 1] {{coordinate_set = #full, memory_space = "
                     f"#ktdp.memory_space<global>}} : {mem}")
    lines.append("  scf.for %i = %t to %n step %step {")
    for x in "ABC":
        lines.append(f"    %{x}t = ktdp.construct_access_tile %{x}v[%i, %c0] {{access_tile_order "
                     f"= #id, access_tile_set = #row}} : {mem} -> {at}")
    lines += [f"    %a = ktdp.load %At : {at} -> {t}", f"    %b = ktdp.load %Bt : {at} -> {t}",
              f"    %e = tensor.empty() : {t}",
              f"    %c = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}",
              f"    ktdp.store %c, %Ct : {t}, {at}", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


# Layer norm's f32 row sums accumulate in another order than the reference's (its header).
TOLERANCES: dict[str, tuple[float, float]] = {"layernorm": (1e-3, 1e-5)}


def kernels(tmp: Path) -> list[tuple[str, Path, dict[str, str]]]:
    ex = ROOT / "examples" / "kernels"
    (tmp / "add_1024x1024.mlir").write_text(slab_add())
    (tmp / "add_1024x1024_tiled.mlir").write_text(tiled_add())
    return [
        ("add_96x64", ex / "add_96x64.mlir", {}),
        ("bias_add", ex / "bias_add.mlir", {}),
        ("eltwise_chain", ex / "eltwise_chain.mlir", {}),
        ("add_1024x1024", tmp / "add_1024x1024.mlir", {}),
        ("add_1024x1024_tiled", tmp / "add_1024x1024_tiled.mlir", {}),
        ("softmax", ex / "softmax.mlir", {"M": "64"}),
        ("layernorm", ex / "layernorm.mlir", {"M": "100", "N": "2048", "eps": "1e-5"}),
    ]


# fp16 matmuls: on spyre's matrix engine (the contraction pipeline) and on the same machine
# without it (`spyre_simd`: spyre's description with a SIMD-only PE, the SIMD contraction of
# reduction_pipeline.py); one row each, what binds. The SIMD rows emulate for minutes.
MATMULS = [("matmul_512", "matmul_512.mlir"), ("matmul_1024", "matmul_1024.mlir")]
MATMUL_DEVICES = ("spyre", "spyre_simd")


def simd_spyre(tmp: Path) -> Path:
    """spyre's description with a SIMD-only PE (its generator's `matrix=False`)."""
    from arch_descriptions.generate_spyre import describe_spyre

    path = tmp / "spyre_simd.mlir"
    path.write_text(describe_spyre(32, "spyre_simd", matrix=False))
    return path


def matmul_rows(only: str | None, tmp: Path, simd: bool = True) -> None:
    """Cycles, bound, binding resource and efficiency of the MATMULS on spyre, with and
    without its matrix engine."""
    from ktir_tools.run import run_and_check

    print(f"\n{'kernel':<22} {'device':<14} {'cycles':>9} {'bound':>8} {'binding':<10} "
          f"{'eff':>5} {'compile s':>9} {'emulate s':>9} match")
    labels = MATMUL_DEVICES if simd else MATMUL_DEVICES[:1]
    devices = {"spyre": "spyre"}
    if "spyre_simd" in labels:
        devices["spyre_simd"] = str(simd_spyre(tmp))
    for name, file in MATMULS:
        if only and only not in name:
            continue
        for label in labels:
            r = run_and_check(ROOT / "examples" / "kernels" / file, devices[label])
            em = r.emulation
            print(f"{name:<22} {label:<14} {em.cycles:>9,} {em.roofline_cycles:>8,} "
                  f"{em.binding_resource:<10} {em.efficiency:>5.2f} {r.compile_seconds:>9.2f} "
                  f"{r.emulate_seconds:>9.2f} {r.match}")
            sys.stdout.flush()


def measure(path: Path, device: str, args: dict[str, str], disable: tuple[str, ...],
            tol: tuple[float, float] = (0.0, 0.0)):
    """(cycles, bound, match, compile seconds) or the error text; `tol`: (rtol, atol) of the
    comparison with the reference (bitwise by default)."""
    from emulator import EmulationError
    from ktir.diagnostics import KtirDiagnostic
    from ktir_tools.run import run_and_check

    try:
        r = run_and_check(path, device, args=args, disable=disable, rtol=tol[0], atol=tol[1])
    except (KtirDiagnostic, EmulationError) as e:
        text = str(getattr(e, "text", e)).strip().splitlines()
        return text[0][:90] if text else type(e).__name__
    em = r.emulation
    return em.cycles, em.roofline_cycles, r.match, r.compile_seconds


def main() -> int:
    from bench import peer_latency
    from scheduler.pipeline import OPTIMISATIONS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", default="spyre,sample_device")
    ap.add_argument("--only", default=None, help="only kernels whose name contains this")
    ap.add_argument("--peer", choices=("quick", "all", "none"), default="quick",
                    help="then ktir-cpu's latency estimates beside our cycles on spyre "
                         "(bench/peer_latency.py; quick: without the kernels of minutes)")
    ap.add_argument("--no-simd-matmul", action="store_true",
                    help="leave out the matmul rows on spyre without its matrix engine "
                         "(minutes of emulation each)")
    opts = ap.parse_args()
    tmp = Path("/tmp") / f"ktir-bench-schedule-{time.time_ns()}"
    tmp.mkdir(parents=True)
    head = (f"{'kernel':<22} {'device':<14} {'row':<46} {'cycles':>9} {'bound':>8} "
            f"{'eff':>5} {'speed-up':>8} {'compile s':>9} match")
    print(head)
    for name, path, args in kernels(tmp):
        if opts.only and opts.only not in name:
            continue
        for device in opts.devices.split(","):
            tol = TOLERANCES.get(name, (0.0, 0.0))
            naive = measure(path, device, args, OPTIMISATIONS, tol)
            best = measure(path, device, args, (), tol)
            if isinstance(best, str) or isinstance(naive, str):
                err = best if isinstance(best, str) else naive
                print(f"{name:<22} {device:<14} does not run yet: {err}")
                continue
            cyc, bound, match, comp = best
            rows = [("naive (-O0)", naive), ("optimised", best)]
            rows += [(f"  without {p}", measure(path, device, args, (p,), tol))
                     for p in OPTIMISATIONS]
            for label, m in rows:
                if isinstance(m, str):
                    print(f"{name:<22} {device:<14} {label:<46} {m}")
                    continue
                c, b, ok, s = m
                speed = naive[0] / c
                print(f"{name:<22} {device:<14} {label:<46} {c:>9,} {b:>8,} {b / c:>5.2f} "
                      f"{speed:>7.2f}x {s:>9.2f} {ok}")
            del cyc, bound, match, comp
        sys.stdout.flush()
    if "spyre" in opts.devices.split(","):
        matmul_rows(opts.only, tmp, simd=not opts.no_simd_matmul)
    if opts.peer != "none" and peer_latency.MIRROR.exists():
        print("\nktir-cpu's latency model (HardwareConfig defaults) beside ours on spyre:")
        peer_latency.main(["--quick"] if opts.peer == "quick" else [])
    return 0


if __name__ == "__main__":
    sys.exit(main())
