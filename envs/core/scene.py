"""A drawing as a list of shapes, written out two ways: SVG text (the browser) and a Pillow image
(GIF frames), so the page and the exported GIF show the same picture.

Shapes are rectangles, circles, ellipses, lines, polygons and text, with colours as ``#rrggbb``
strings. A shape may carry an *anchor*, a short id such as ``"sq12"`` or ``"card-4"``: the SVG
writes it as ``data-anchor`` so that the page can make that shape clickable for the legal actions
the game ties to it (``view.legal[i]["anchor"]``). Pillow ignores anchors.

No game logic here: each game's ``drawing.py`` turns a seat's view into a :class:`Scene`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any

from PIL import Image, ImageDraw, ImageFont

#: SVG text-anchor values and the Pillow anchors (on the baseline) they match
_TEXT_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}


def hex_colour(rgb: tuple[int, int, int]) -> str:
    """``(r, g, b)`` as ``#rrggbb`` (the renders' palettes are RGB tuples)."""
    return "#%02x%02x%02x" % tuple(rgb)


@dataclass
class Shape:
    kind: str  # rect, circle, ellipse, line, polygon, text
    geometry: tuple  # kind-specific numbers (see the Scene methods)
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    anchor: str | None = None
    text: str = ""
    size: int = 12
    align: str = "start"
    bold: bool = False
    radius: float = 0.0


@dataclass
class Scene:
    """A picture of ``width`` × ``height`` pixels on a ``background`` colour."""

    width: int
    height: int
    background: str = "#ffffff"
    shapes: list[Shape] = field(default_factory=list)

    # ---- building -------------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None, stroke: str | None = None,
             width: float = 1.0, radius: float = 0.0, anchor: str | None = None) -> None:
        self.shapes.append(Shape("rect", (x, y, w, h), fill, stroke, width, anchor, radius=radius))

    def circle(self, cx: float, cy: float, r: float, fill: str | None = None, stroke: str | None = None,
               width: float = 1.0, anchor: str | None = None) -> None:
        self.shapes.append(Shape("ellipse", (cx, cy, r, r), fill, stroke, width, anchor))

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: str | None = None,
                stroke: str | None = None, width: float = 1.0, anchor: str | None = None) -> None:
        self.shapes.append(Shape("ellipse", (cx, cy, rx, ry), fill, stroke, width, anchor))

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000000", width: float = 1.0) -> None:
        self.shapes.append(Shape("line", (x1, y1, x2, y2), None, stroke, width))

    def polygon(self, points: list[tuple[float, float]], fill: str | None = None, stroke: str | None = None,
                width: float = 1.0, anchor: str | None = None) -> None:
        self.shapes.append(Shape("polygon", tuple(points), fill, stroke, width, anchor))

    def text(self, x: float, y: float, text: Any, size: int = 12, fill: str = "#000000", align: str = "start",
             bold: bool = False, anchor: str | None = None) -> None:
        """Text with its baseline at ``y``; ``align`` start / middle / end of ``x``."""
        if align not in _TEXT_ANCHORS:
            raise ValueError(f"align must be one of {sorted(_TEXT_ANCHORS)}, got {align!r}")
        self.shapes.append(Shape("text", (x, y), fill, None, 1.0, anchor, str(text), size, align, bold))

    def anchors(self) -> set[str]:
        return {shape.anchor for shape in self.shapes if shape.anchor}

    # ---- SVG --------------------------------------------------------------------------------------
    def svg(self) -> str:
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}" '
               f'width="{self.width}" height="{self.height}" font-family="DejaVu Sans, Arial, sans-serif">',
               f'<rect width="{self.width}" height="{self.height}" fill="{self.background}"/>']
        out.extend(_svg_shape(shape) for shape in self.shapes)
        out.append("</svg>")
        return "\n".join(out)

    # ---- Pillow -----------------------------------------------------------------------------------
    def image(self) -> Image.Image:
        image = Image.new("RGB", (self.width, self.height), self.background)
        draw = ImageDraw.Draw(image)
        for shape in self.shapes:
            _draw_shape(draw, shape)
        return image


def _paint(shape: Shape) -> str:
    fill = shape.fill or "none"
    stroke = f' stroke="{shape.stroke}" stroke-width="{shape.width:g}"' if shape.stroke else ""
    anchor = f' data-anchor="{escape(shape.anchor)}"' if shape.anchor else ""
    return f'fill="{fill}"{stroke}{anchor}'


def _svg_shape(shape: Shape) -> str:
    g = shape.geometry
    if shape.kind == "rect":
        rounded = f' rx="{shape.radius:g}"' if shape.radius else ""
        return f'<rect x="{g[0]:g}" y="{g[1]:g}" width="{g[2]:g}" height="{g[3]:g}"{rounded} {_paint(shape)}/>'
    if shape.kind == "ellipse":
        return f'<ellipse cx="{g[0]:g}" cy="{g[1]:g}" rx="{g[2]:g}" ry="{g[3]:g}" {_paint(shape)}/>'
    if shape.kind == "line":
        return f'<line x1="{g[0]:g}" y1="{g[1]:g}" x2="{g[2]:g}" y2="{g[3]:g}" {_paint(shape)}/>'
    if shape.kind == "polygon":
        points = " ".join(f"{x:g},{y:g}" for x, y in g)
        return f'<polygon points="{points}" {_paint(shape)}/>'
    weight = ' font-weight="bold"' if shape.bold else ""
    anchor = f' data-anchor="{escape(shape.anchor)}"' if shape.anchor else ""
    return (f'<text x="{g[0]:g}" y="{g[1]:g}" font-size="{shape.size}" fill="{shape.fill}" '
            f'text-anchor="{shape.align}"{weight}{anchor}>{escape(shape.text)}</text>')


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _draw_shape(draw: ImageDraw.ImageDraw, shape: Shape) -> None:
    g = shape.geometry
    width = max(1, round(shape.width)) if shape.stroke else 0
    if shape.kind == "rect":
        box = (g[0], g[1], g[0] + g[2], g[1] + g[3])
        if shape.radius:
            draw.rounded_rectangle(box, radius=shape.radius, fill=shape.fill, outline=shape.stroke, width=width)
        else:
            draw.rectangle(box, fill=shape.fill, outline=shape.stroke, width=width)
    elif shape.kind == "ellipse":
        draw.ellipse((g[0] - g[2], g[1] - g[3], g[0] + g[2], g[1] + g[3]), fill=shape.fill,
                     outline=shape.stroke, width=width)
    elif shape.kind == "line":
        draw.line(g, fill=shape.stroke, width=width)
    elif shape.kind == "polygon":
        draw.polygon(list(g), fill=shape.fill, outline=shape.stroke, width=width)
    else:
        draw.text(g, shape.text, fill=shape.fill, font=_font(shape.size), anchor=_TEXT_ANCHORS[shape.align],
                  stroke_width=1 if shape.bold else 0, stroke_fill=shape.fill if shape.bold else None)
