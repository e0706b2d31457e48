from .test_catalog_surface import served_bytes
async def test_size(hass, entry, mcp):
    from custom_components.hubitat_dev_tools.const import OPT_SURFACE, SURFACE_FLAT
    c, _ = await served_bytes(mcp)
    hass.config_entries.async_update_entry(entry, options={OPT_SURFACE: SURFACE_FLAT})
    f, _ = await served_bytes(mcp)
    open("size.txt", "w").write(f"compact {c} flat {f}\n")
