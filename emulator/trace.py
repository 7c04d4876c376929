"""Chrome-trace JSON (the Trace Event Format Perfetto and chrome://tracing open): one track
(tid) per unit, one complete ("X") slice per transfer, vector op or signal, timestamps in
microseconds of the device clock."""

from __future__ import annotations

from collections.abc import Sequence

from arch_descriptions.model import Device
from emulator.runtime import Process


def chrome_trace(procs: Sequence[Process], device: Device) -> list[dict]:
    us = 1.0 / (device.clock_ghz * 1e3)  # microseconds per cycle
    events: list[dict] = [{"ph": "M", "name": "process_name", "pid": 0,
                           "args": {"name": f"ktir emulator: device @{device.name}"}}]
    tids: dict[str, int] = {}
    for p in procs:
        tid = tids.get(p.name)
        if tid is None:
            tid = tids[p.name] = len(tids) + 1
            events.append({"ph": "M", "name": "thread_name", "pid": 0, "tid": tid,
                           "args": {"name": p.name}})
            events.append({"ph": "M", "name": "thread_sort_index", "pid": 0, "tid": tid,
                           "args": {"sort_index": tid}})
        for name, start, dur, peer in p.trace or ():
            ev = {"name": name, "ph": "X", "pid": 0, "tid": tid, "ts": start * us,
                  "dur": max(dur, 0.0) * us}
            if peer is not None:
                ev["args"] = {"with": peer}
            events.append(ev)
    return events
