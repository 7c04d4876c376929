// Layer norm of a 10 x 512 fp16 matrix on 4 tiles, rows round-robin (tile t: rows t, t + 4,
// t + 8): tiles 0 and 1 normalise 3 rows, tiles 2 and 3 only 2. Each row is read in two
// blocks of 256 columns; loop-carried partial sums, a linalg.reduce per statistic, the
// row's mean stored beside Y. The row loop runs 3 times everywhere (normalize-tile-loops):
// rows 10 and 11 lie outside the views, so their loads read 0 and their stores are dropped.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 9 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @layernorm_uneven(%X: index, %Y: index, %Mean: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.000000e+00 : f16
  %n = arith.constant 5.120000e+02 : f16
  %eps = arith.constant 1.000000e-02 : f16
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [10, 512], strides: [512, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<10x512xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [10, 512], strides: [512, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<10x512xf16>
  %Mv = ktdp.construct_memory_view %Mean, sizes: [10], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<10xf16>
  scf.for %row = %t to %c10 step %c4 {
    %z = arith.constant dense<0.000000e+00> : tensor<1x256xf16>
    %acc = scf.for %col = %c0 to %c512 step %c256 iter_args(%a = %z) -> (tensor<1x256xf16>) {
      %xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_order = #id2, access_tile_set = #blk} : memref<10x512xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
      %s = arith.addf %a, %x : tensor<1x256xf16>
      scf.yield %s : tensor<1x256xf16>
    }
    %s0 = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%acc : tensor<1x256xf16>) outs(%s0 : tensor<1xf16>) dimensions = [1]
    %nt = tensor.splat %n : tensor<1xf16>
    %mean = arith.divf %sum, %nt : tensor<1xf16>
    %m = tensor.extract %mean[%c0] : tensor<1xf16>
    %mb = tensor.splat %m : tensor<1x256xf16>
    %vacc = scf.for %col = %c0 to %c512 step %c256 iter_args(%a = %z) -> (tensor<1x256xf16>) {
      %xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_order = #id2, access_tile_set = #blk} : memref<10x512xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
      %d = arith.subf %x, %mb : tensor<1x256xf16>
      %d2 = arith.mulf %d, %d : tensor<1x256xf16>
      %s = arith.addf %a, %d2 : tensor<1x256xf16>
      scf.yield %s : tensor<1x256xf16>
    }
    %var = linalg.reduce { arith.addf } ins(%vacc : tensor<1x256xf16>) outs(%s0 : tensor<1xf16>) dimensions = [1]
    %vn = arith.divf %var, %nt : tensor<1xf16>
    %et = tensor.splat %eps : tensor<1xf16>
    %ve = arith.addf %vn, %et : tensor<1xf16>
    %r = math.rsqrt %ve : tensor<1xf16>
    %rs = tensor.extract %r[%c0] : tensor<1xf16>
    %rb = tensor.splat %rs : tensor<1x256xf16>
    %mt = ktdp.construct_access_tile %Mv[%row] {access_tile_order = #id1, access_tile_set = #one} : memref<10xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %mean, %mt : tensor<1xf16>, !ktdp.access_tile<1xindex>
    scf.for %col = %c0 to %c512 step %c256 {
      %xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_order = #id2, access_tile_set = #blk} : memref<10x512xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
      %d = arith.subf %x, %mb : tensor<1x256xf16>
      %y = arith.mulf %d, %rb : tensor<1x256xf16>
      %yt = ktdp.construct_access_tile %Yv[%row, %col] {access_tile_order = #id2, access_tile_set = #blk} : memref<10x512xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %y, %yt : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
    }
  }
  return
}
