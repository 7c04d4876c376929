"""ScheduleIR dialects: `ktdf` (ktdf.py with ktdf_types/ktdf_transfers/ktdf_compute) and
`ktdf_lowering` (ktdf_lowering.py)."""
