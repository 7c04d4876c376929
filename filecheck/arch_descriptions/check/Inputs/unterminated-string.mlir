// A string left open: located as "unterminated string literal" (and once made xDSL's lexer backtrack exponentially).
ktdf_arch.device @open {
  %m = memory {kind = "DDR, size = 1073741824, ktdf_arch.latency = 100}
}
