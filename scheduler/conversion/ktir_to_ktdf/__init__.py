"""Frontend passes: KTIR -> ScheduleIR (legality, compute groups, three-stage pipeline)."""
