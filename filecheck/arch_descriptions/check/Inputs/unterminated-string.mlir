// A string left open: xDSL's lexer would backtrack exponentially on the rest of the line.
ktdf_arch.device @open {
  %m = memory {kind = "DDR, size = 1073741824, ktdf_arch.latency = 100}
}
