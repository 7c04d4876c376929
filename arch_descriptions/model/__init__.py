"""The read-only device model built from a `ktdf_arch.device` (shared/spec/arch.md §6, §8).

    from arch_descriptions.model import load_device
    dev = load_device("sample_device")
    dev.route("DDR", "SFU")            # ['DDR', 'MNILU', 'L1', 'L1LU', 'SFU']
    dev.vector_lanes("f16")            # 64
    dev.resource_id("L1LU", 3, 1)      # 'C3-L1LU-CL1'
"""

from arch_descriptions.model.device import (
    Datapath,
    Device,
    Group,
    Link,
    Memory,
    Unit,
)
from arch_descriptions.model.load import (
    device_for_op,
    device_from_module,
    device_of_declaration,
    device_path,
    devices_in_text,
    load_device,
    load_devices,
    shipped_devices,
)
from arch_descriptions.model.roofline import Resource, Roofline, Term, Work

__all__ = [
    "Datapath",
    "Device",
    "Group",
    "Link",
    "Memory",
    "Resource",
    "Roofline",
    "Term",
    "Unit",
    "Work",
    "device_for_op",
    "device_from_module",
    "device_of_declaration",
    "device_path",
    "devices_in_text",
    "load_device",
    "load_devices",
    "shipped_devices",
]
