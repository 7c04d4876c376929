// A description with a syntax error on line 4.
ktdf_arch.device @broken {
  %m = memory {kind = "M"}
  %c = exec_unit {kind = "C" ktdf_arch.features = {ktdf_arch.feature.compute}}
}
