"""Draws the demo catalogue's cover art: category colour, a simple geometric motif, title, author, shelf name.

Pure Pillow, no Flask, so it runs in worker processes. Drawing is tuned for the demo catalogue's
100,000 covers: words are rendered once per process and pasted afterwards, which is several
times cheaper than asking FreeType for the same glyphs again.
"""
import hashlib
import io
import random
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

COVER_SIZE = (300, 450)
# Exactly half the cover: Image.reduce(2) is the cheapest good-looking downscale (a box filter),
# and 100,000 covers make that matter.
THUMBNAIL_SIZE = (150, 225)
JPEG_QUALITY = 80
SPINE = 14
MARGIN = 26
TEXT_WIDTH = COVER_SIZE[0] - SPINE - 2 * MARGIN
TITLE_TOP = 78
AUTHOR_BAND = 74
# Largest title size first; a long title steps down until it fits in the lines allowed.
TITLE_SIZES = ((34, 4), (30, 5), (26, 6), (22, 7))
TITLE_LEADING = 1.18


@dataclass(frozen=True)
class CoverSpec:
    """What a cover shows; design seeds the motif so each book's cover differs."""

    title: str
    author: str
    category: str
    color: str
    design: int


@dataclass(frozen=True)
class Cover:
    """A drawn cover and thumbnail as JPEG bytes, under content-addressed storage keys."""

    key: str
    data: bytes
    thumbnail_key: str
    thumbnail_data: bytes


def draw(spec: CoverSpec) -> Cover:
    """Draw one cover and its thumbnail."""
    rng = random.Random(spec.design)
    base = _shade(_rgb(spec.color), rng.uniform(-0.18, 0.12))
    ink, tint = _inks(base)
    image = Image.new("RGB", COVER_SIZE, base)
    canvas = ImageDraw.Draw(image)
    MOTIFS[spec.design % len(MOTIFS)](canvas, rng, tint)
    _frame(canvas, base)
    _write_category(image, canvas, spec.category, ink)
    _write_title(image, spec.title, ink)
    _write_author(image, spec.author, ink)
    return _encode(image)


def _encode(image: Image.Image) -> Cover:
    data = _jpeg(image)
    thumbnail = image.reduce(COVER_SIZE[0] // THUMBNAIL_SIZE[0])
    digest = hashlib.sha256(data).hexdigest()[:32]
    stem = f"covers/{digest[:2]}/{digest}"
    return Cover(f"{stem}.jpg", data, f"{stem}-thumb.jpg", _jpeg(thumbnail))


def _jpeg(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY)
    return buffer.getvalue()


def _rgb(color: str) -> tuple[int, int, int]:
    color = color.lstrip("#") or "455a64"
    return int(color[0:2], 16), int(color[2:4], 16), int(color[4:6], 16)


def _shade(rgb, amount: float) -> tuple[int, int, int]:
    """Mix towards white (amount > 0) or black (amount < 0)."""
    target = 255 if amount > 0 else 0
    return tuple(round(c + (target - c) * abs(amount)) for c in rgb)


def _inks(base) -> tuple[tuple, tuple]:
    """Text colour and motif tint that read well on this background (yellow needs dark ink)."""
    luminance = (0.299 * base[0] + 0.587 * base[1] + 0.114 * base[2]) / 255
    if luminance > 0.6:
        return (28, 28, 28), _shade(base, -0.22)
    return (255, 255, 255), _shade(base, 0.2)


def _frame(canvas: ImageDraw.ImageDraw, base) -> None:
    """A darker spine on the left and a band behind the author, so covers read as books."""
    width, height = COVER_SIZE
    canvas.rectangle((0, 0, SPINE - 1, height), fill=_shade(base, -0.35))
    canvas.rectangle((SPINE, height - AUTHOR_BAND, width, height), fill=_shade(base, -0.25))


def _circles(canvas, rng, tint):
    for _ in range(rng.randint(2, 4)):
        x, y, r = rng.randint(40, 300), rng.randint(160, 380), rng.randint(30, 110)
        canvas.ellipse((x - r, y - r, x + r, y + r), fill=tint)


def _stripes(canvas, rng, tint):
    top = rng.randint(230, 290)
    for step in range(rng.randint(3, 5)):
        y = top + step * 34
        canvas.polygon(((0, y + 60), (300, y - 40), (300, y - 24), (0, y + 76)), fill=tint)


def _rings(canvas, rng, tint):
    x, y = rng.choice(((300, 450), (300, 200), (SPINE, 420), (230, 300)))
    for r in range(rng.randint(60, 90), 20, -rng.randint(14, 22)):
        canvas.ellipse((x - r * 2, y - r * 2, x + r * 2, y + r * 2), outline=tint, width=rng.randint(5, 9))


def _hills(canvas, rng, tint):
    for layer in range(2):
        peak_x, peak_y = rng.randint(60, 260), rng.randint(220, 300) + layer * 50
        canvas.polygon(((SPINE, 380), (peak_x, peak_y), (300, 380)), fill=tint if layer == 0 else _shade(tint, 0.15))


def _blocks(canvas, rng, tint):
    for _ in range(rng.randint(2, 3)):
        x, y = rng.randint(SPINE, 220), rng.randint(200, 320)
        canvas.rectangle((x, y, x + rng.randint(50, 120), y + rng.randint(40, 90)), fill=tint)


def _sun(canvas, rng, tint):
    x, r = rng.randint(90, 230), rng.randint(45, 75)
    canvas.ellipse((x - r, 330 - r, x + r, 330 + r), fill=tint)
    for y in range(340, 376, 9):
        canvas.line((SPINE, y, 300, y), fill=tint, width=3)


def _grid(canvas, rng, tint):
    size, gap = rng.randint(8, 14), rng.randint(26, 34)
    left, top = rng.randint(SPINE + 10, 140), rng.randint(240, 290)
    for row in range(3):
        for col in range(4):
            x, y = left + col * gap, top + row * gap
            canvas.rectangle((x, y, x + size, y + size), fill=tint)


# The painters in a fixed order: a book's design number picks one, so its cover never changes.
MOTIFS = (_circles, _stripes, _rings, _hills, _blocks, _sun, _grid)


@lru_cache(maxsize=None)
def _font(size: int) -> ImageFont.FreeTypeFont:
    # Pillow's bundled scalable font: no system fonts are assumed on the server.
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=None)
def _space(size: int) -> float:
    return _font(size).getlength(" ")


@lru_cache(maxsize=20000)
def _word(text: str, size: int, bold: bool = False) -> tuple[Image.Image, tuple[int, int], float]:
    """A word's mask cropped to its ink, where the mask goes, and the advance width.

    Kept per process because titles repeat their vocabulary; cropping matters because filling
    through a mask costs per pixel.
    """
    font = _font(size)
    ascent, descent = font.getmetrics()
    advance = font.getlength(text)
    mask = Image.new("L", (int(max(advance, font.getbbox(text)[2])) + 3, ascent + descent))
    pen = ImageDraw.Draw(mask)
    pen.text((0, 0), text, font=font, fill=255)
    if bold:
        # The bundled font has no bold face; a second pass one pixel right thickens the strokes.
        pen.text((1, 0), text, font=font, fill=255)
    box = mask.getbbox() or (0, 0, 1, 1)
    return mask.crop(box), box[:2], advance


def _wrap(words: list[str], size: int, bold: bool) -> list[list[str]]:
    """Greedy line breaking; a line's width is its words' advances plus the spaces between them."""
    lines: list[list[str]] = []
    width = 0.0
    for word in words:
        advance = _word(word, size, bold)[2]
        if lines and width + _space(size) + advance <= TEXT_WIDTH:
            lines[-1].append(word)
            width += _space(size) + advance
        else:
            lines.append([word])
            width = advance
    return lines


def _too_wide(lines: list[list[str]], size: int, bold: bool) -> bool:
    return any(sum(_word(w, size, bold)[2] for w in line) + _space(size) * (len(line) - 1) > TEXT_WIDTH
               for line in lines if len(line) == 1)


def _paste_line(image: Image.Image, words: list[str], size: int, x: float, y: int, ink, bold: bool = False) -> None:
    for word in words:
        mask, (dx, dy), advance = _word(word, size, bold)
        image.paste(ink, (round(x) + dx, y + dy), mask)
        x += advance + _space(size)


def _fit_title(title: str) -> tuple[int, list[list[str]]]:
    words = title.split()
    for size, max_lines in TITLE_SIZES:
        lines = _wrap(words, size, True)
        if len(lines) <= max_lines and not _too_wide(lines, size, True):
            return size, lines
    return size, lines


def _write_title(image: Image.Image, title: str, ink) -> None:
    size, lines = _fit_title(title)
    step = round(size * TITLE_LEADING)
    for number, line in enumerate(lines):
        _paste_line(image, line, size, SPINE + MARGIN, TITLE_TOP + number * step, ink, bold=True)


def _write_category(image: Image.Image, canvas: ImageDraw.ImageDraw, category: str, ink) -> None:
    _paste_line(image, category.split(), 14, SPINE + MARGIN, 28, ink)
    canvas.rectangle((SPINE + MARGIN, 52, SPINE + MARGIN + 36, 54), fill=ink)


def _write_author(image: Image.Image, author: str, ink) -> None:
    words = author.split()
    size = 18
    while size > 12 and len(_wrap(words, size, False)) > 1:
        size -= 2
    top = COVER_SIZE[1] - AUTHOR_BAND + (AUTHOR_BAND - size) // 2 - 2
    _paste_line(image, words, size, SPINE + MARGIN, top, ink)
