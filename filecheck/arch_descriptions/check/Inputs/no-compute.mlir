// Parses and verifies, but no unit computes: the model rejects it.
ktdf_arch.device @idle {
  %m = memory {kind = "M"}
  %d = exec_unit {kind = "DMA"}
  datapath %m to %d : memory, exec_unit
}
