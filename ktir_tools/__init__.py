"""The application layer, on top of every other package: the command-line tools (`ktir`,
`ktir-opt`), `run` (compile + emulate + check against the reference interpreter) and the xDSL
universe that names every ktir dialect and pass. Nothing below imports it."""
