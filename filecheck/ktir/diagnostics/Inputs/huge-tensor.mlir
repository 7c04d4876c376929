// A kernel that would allocate a 16 GiB tensor (negative-huge-constant.mlir).
func.func @negative_huge_tensor() attributes {grid = [1]} {
  %e = tensor.empty() : tensor<65536x65536xf32>
  return
}
