// A program with no function (negative-entry.test).
ktdf_arch.device @fdev {
  %gm = memory {kind = "GM", size = 1048576}
}
