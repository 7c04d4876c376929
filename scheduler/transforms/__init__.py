"""ScheduleIR -> ScheduleIR passes, one module per pass."""
