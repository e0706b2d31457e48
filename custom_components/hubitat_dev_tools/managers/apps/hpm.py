"""Hubitat Package Manager: the packages it tracks, and where they and the hub disagree.

HPM keeps its registry in its own app state (``state.manifests``: manifest URL -> package,
each app/driver component with the code id it installed as ``heID`` and a ``required``
flag). The drift compares that registry with the hub's user code lists (the same lists
``CodeManager`` reads): a required component HPM never installed, a component whose code
is gone from the hub, and user code no package claims (installed by hand or by another
tool). The on-hub server's drift report checks the first two the same way.
"""

from __future__ import annotations

from typing import Any

from ...hub.controllers import AppsController
from ...hub.errors import HubNotFoundError
from ..code import CodeManager
from .installed import AppManager

_KINDS = (("apps", "app"), ("drivers", "driver"))


def _code_id(value: Any) -> str | None:
    text = str(value).strip() if value is not None else ""
    return text or None


def package_entry(url: str, man: dict[str, Any], code: dict[str, set[str]]) -> dict[str, Any]:
    """One package with its drift (``drift`` only when there is some)."""
    out: dict[str, Any] = {
        "name": man.get("packageName"),
        "version": man.get("version"),
        "beta": bool(man.get("beta")),
        "manifest_url": url,
    }
    missing: list[dict[str, Any]] = []
    gone: list[dict[str, Any]] = []
    for key, kind in _KINDS:
        comps = [c for c in man.get(key) or [] if isinstance(c, dict)]
        out[key] = [c.get("name") for c in comps]
        for comp in comps:
            code_id = _code_id(comp.get("heID"))
            item = {"type": kind, "name": comp.get("name")}
            if code_id is None:
                if comp.get("required") is True:
                    missing.append(item)
            elif code_id not in code[kind]:
                gone.append({**item, "code_id": code_id})
    if missing or gone:
        out["drift"] = {"required_not_installed": missing, "code_gone_from_hub": gone}
    return out


def drift_report(manifests: Any, code_items: list[dict[str, Any]]) -> dict[str, Any]:
    """The packages (with drift) and the user code no package claims."""
    code: dict[str, set[str]] = {"app": set(), "driver": set()}
    for item in code_items:
        if item.get("type") in code:
            code[str(item["type"])].add(str(item["id"]))
    packages = [
        package_entry(str(url), man, code)
        for url, man in (manifests.items() if isinstance(manifests, dict) else [])
        if isinstance(man, dict)
    ]
    claimed = {
        (kind, cid)
        for man in (manifests.values() if isinstance(manifests, dict) else [])
        if isinstance(man, dict)
        for key, kind in _KINDS
        for comp in man.get(key) or []
        if isinstance(comp, dict) and (cid := _code_id(comp.get("heID")))
    }
    untracked = [
        {"type": i["type"], "code_id": str(i["id"]), "name": i.get("name")}
        for i in code_items
        if i.get("type") in code and (i["type"], str(i["id"])) not in claimed
    ]
    return {
        "packages": packages,
        "count": len(packages),
        "packages_with_drift": sum(1 for p in packages if "drift" in p),
        "untracked_code": untracked,
    }


class HpmManager:
    """The HPM registry of one hub, compared with its user code."""

    def __init__(self, hub_apps: AppsController, apps: AppManager, code: CodeManager) -> None:
        self._hub_apps = hub_apps
        self._apps = apps
        self._code = code

    async def packages(self) -> dict[str, Any]:
        """HPM's packages with their drift, and the user code HPM does not track."""
        apps = await self._apps.tree()
        hpm = next((a for a in apps if "package manager" in a.name.lower() and a.user), None)
        if hpm is None:
            raise HubNotFoundError(
                "Hubitat Package Manager is not installed on this hub",
                hint="HPM is a community app; without it there are no HPM packages.",
            )
        status = await self._hub_apps.status(hpm.id)
        code_items = await self._code.list_code(None, None)
        report = drift_report(status["appState"].get("manifests") or {}, code_items)
        return {"hpm_app_id": hpm.id, **report}
