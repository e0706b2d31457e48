"""What the hub runs: its platform version and hardware model, and checks against them.

Some endpoints differ by firmware (the code editor's save path) or by hardware generation
(the Z-Wave repair of a C-5 versus a C-7 and later). :func:`fetch_identity
<.info.fetch_identity>` reads both at setup and stores them on the client as
``client.platform``; domain functions consult it to choose a path, or call
:meth:`Platform.require` to refuse with a clear "needs firmware >= X" error.

When the hub did not say (an old or odd ``/hub/details/json``), the platform is unknown
and every check assumes the newest firmware we know: a refusal would block a hub that
most likely works, while a wrong path fails with the hub's own error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import HubFirmwareError

Version = tuple[int, ...]

_VERSION_RE = re.compile(r"^\s*(\d+(?:\.\d+){1,3})")
_MODEL_RE = re.compile(r"C-?(\d+)(\s*Pro)?", re.IGNORECASE)


def parse_version(text: Any) -> Version | None:
    """``"2.5.0.143"`` -> ``(2, 5, 0, 143)``; None when it is not a version."""
    if not isinstance(text, str):
        return None
    match = _VERSION_RE.match(text)
    if match is None:
        return None
    return tuple(int(part) for part in match.group(1).split("."))


def format_version(version: Version) -> str:
    """``(2, 5)`` -> ``"2.5"``."""
    return ".".join(str(part) for part in version)


@dataclass(frozen=True, slots=True)
class Platform:
    """The hub's platform version and hardware model, as far as the hub said."""

    version: Version | None = None
    model: str | None = None

    @property
    def version_text(self) -> str | None:
        """The version as the hub writes it, or None when unknown."""
        return format_version(self.version) if self.version is not None else None

    @property
    def generation(self) -> int | None:
        """The hardware generation: 5 for a C-5, 7 for a C-7, 8 for a C-8 or C-8 Pro."""
        if self.model is None:
            return None
        match = _MODEL_RE.search(self.model)
        return int(match.group(1)) if match else None

    def at_least(self, *minimum: int) -> bool:
        """True when the firmware is ``minimum`` or newer (or unknown: assume current)."""
        if self.version is None:
            return True
        return self.version >= minimum

    def require(self, minimum: Version, feature: str) -> None:
        """Raise :class:`HubFirmwareError` unless the firmware is ``minimum`` or newer."""
        if self.at_least(*minimum):
            return
        raise HubFirmwareError(
            f"{feature} needs hub firmware {format_version(minimum)} or newer; "
            f"this hub runs {self.version_text}."
        )

    def as_dict(self) -> dict[str, Any]:
        """A JSON-safe summary (for diagnostics and the compatibility check)."""
        return {
            "firmware": self.version_text,
            "model": self.model,
            "generation": self.generation,
        }


UNKNOWN_PLATFORM = Platform()


def platform_from(details: Any) -> Platform:
    """The platform in a ``/hub/details/json`` answer (``platformVersion``, ``hardwareVersion``)."""
    if not isinstance(details, dict):
        return UNKNOWN_PLATFORM
    raw = details.get("hardwareVersion")
    model = (re.sub(r"^\s*Rev\s+", "", raw).strip() or None) if isinstance(raw, str) else None
    return Platform(version=parse_version(details.get("platformVersion")), model=model)
