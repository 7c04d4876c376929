// A valid device whose name is not the one the importer asks for.
ktdf_arch.device @other {
  %m = memory {kind = "M"}
  %c = exec_unit {kind = "C", ktdf_arch.features = {ktdf_arch.feature.compute}}
  datapath %m to %c : memory, exec_unit
  datapath %c to %m : exec_unit, memory
}
