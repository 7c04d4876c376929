"""Backend passes: scheduled ScheduleIR -> ktdf_lowering -> DataflowIR, wrapped per program."""
