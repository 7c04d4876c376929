"""Conversions between the IR levels: KTIR -> ScheduleIR (frontend), ScheduleIR -> DataflowIR (backend)."""
