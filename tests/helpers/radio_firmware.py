"""The radio firmware file name the firmware tests install, for managers/test_radio_firmware.py
and tools/test_radio_firmware.py.
"""

from __future__ import annotations

FILE = "zw-dimmer-2.04.gbl"
