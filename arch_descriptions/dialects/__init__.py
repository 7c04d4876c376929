"""The `ktdf_arch` dialect and the verification of its intrinsic properties."""
