"""The emulator: a generic dataflow machine built from a device model; runs DataflowIR."""
