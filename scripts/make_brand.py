"""Draw the brand images (icon, logo, @2x and dark variants) into the integration's brand/.

Run: scripts/dev py scripts/make_brand.py  (needs Pillow, which Home Assistant installs).
A hub (rounded square) with radiating device links and a code bracket: our own artwork.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "custom_components" / "hubitat_dev_tools" / "brand"
BLUE = (0, 122, 204, 255)
ORANGE = (255, 140, 26, 255)


def draw_icon(size: int, fg: tuple[int, int, int, int]) -> Image.Image:
    """A square icon with a transparent background."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size / 256
    d.rounded_rectangle((28 * s, 28 * s, 228 * s, 228 * s), radius=44 * s, fill=fg)
    cx, cy = 128 * s, 128 * s
    for dx, dy in ((-60, -60), (60, -60), (-60, 60), (60, 60)):
        x, y = cx + dx * s, cy + dy * s
        d.line((cx, cy, x, y), fill=(255, 255, 255, 255), width=max(2, int(10 * s)))
        r = 16 * s
        d.ellipse((x - r, y - r, x + r, y + r), fill=ORANGE)
    r = 30 * s
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255, 255))
    w = max(2, int(8 * s))
    d.line((cx - 12 * s, cy - 12 * s, cx - 22 * s, cy, cx - 12 * s, cy + 12 * s), fill=fg, width=w)
    d.line((cx + 12 * s, cy - 12 * s, cx + 22 * s, cy, cx + 12 * s, cy + 12 * s), fill=fg, width=w)
    return img


def draw_logo(
    height: int, fg: tuple[int, int, int, int], text: tuple[int, int, int, int]
) -> Image.Image:
    """Icon plus the name, on a transparent background."""
    icon = draw_icon(height, fg)
    font = ImageFont.load_default(size=int(height * 0.34))
    label = "Hubitat Dev Tools"
    probe = ImageDraw.Draw(Image.new("RGBA", (1, 1)))
    left, top, right, bottom = probe.textbbox((0, 0), label, font=font)
    width = height + int(height * 0.15) + int(right - left) + int(height * 0.1)
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    img.paste(icon, (0, 0), icon)
    d = ImageDraw.Draw(img)
    d.text(
        (height + int(height * 0.15), (height - (bottom - top)) // 2 - top),
        label,
        font=font,
        fill=text,
    )
    return img


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    dark_text = (230, 230, 230, 255)
    light_text = (33, 33, 33, 255)
    for suffix, scale in (("", 1), ("@2x", 2)):
        draw_icon(256 * scale, BLUE).save(OUT / f"icon{suffix}.png", optimize=True)
        draw_icon(256 * scale, BLUE).save(OUT / f"dark_icon{suffix}.png", optimize=True)
        draw_logo(128 * scale, BLUE, light_text).save(OUT / f"logo{suffix}.png", optimize=True)
        draw_logo(128 * scale, BLUE, dark_text).save(OUT / f"dark_logo{suffix}.png", optimize=True)


if __name__ == "__main__":
    main()
