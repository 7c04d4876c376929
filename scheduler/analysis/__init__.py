"""Read-only analyses of KTIR and ScheduleIR; they never mutate IR."""
