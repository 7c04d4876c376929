// Re-declares the shipped sample (found by file name) with a faster clock: attributes on a
// declaration override those of the definition.
ktdf_arch.device @sample_device attributes {ktdf_arch.clock_ghz = 2.0} import("sample_device.mlir")
