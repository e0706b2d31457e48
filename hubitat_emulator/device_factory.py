"""A device as freshly created from a driver: shared by the seeded home (``seed.py``,
``scenes.py``) and the live hub's device creation (``Home.create_device``)."""

from __future__ import annotations

from datetime import datetime

from .catalog import DriverSpec, unique_attributes
from .commands import to_attr_value
from .model import AttrState, Device, HomeState, Setting
from .seed_specs import ATTR_DEFAULTS


def settings_for(driver: DriverSpec) -> dict[str, Setting]:
    """A new device's preferences: the driver's, at their defaults."""
    return {p.name: Setting(p.name, p.type, p.default) for p in driver.prefs}


def new_device(
    state: HomeState,
    driver: DriverSpec,
    *,
    device_id: int,
    label: str | None,
    dni: str,
    now: datetime,
    name: str | None = None,
) -> Device:
    """A device as freshly created from a driver (default attribute values, no history)."""
    dev = Device(
        id=device_id,
        name=name or driver.name,
        label=label,
        driver=driver,
        dni=dni,
        created=now,
        last_activity=None,
        settings=settings_for(driver),
    )
    for aname, adef in unique_attributes(driver).items():
        dev.attrs[aname] = AttrState(to_attr_value(adef, ATTR_DEFAULTS.get(aname)), now)
    if driver.manufacturer:
        dev.data["manufacturer"] = driver.manufacturer
    if driver.model:
        dev.data["model"] = driver.model
    return dev
