"""Cover uploads for the tests, honest and hostile: real images, files in disguise, bombs."""
import base64
import io
import os
import struct
import zlib

from PIL import Image


_MAGIC = ((b"\xff\xd8\xff", "image/jpeg"), (b"\x89PNG", "image/png"), (b"RIFF", "image/webp"))


def data_url(raw: bytes, declared: str | None = None) -> str:
    """A base64 data URL; its type is the one the bytes really are unless `declared` says otherwise."""
    if declared is None:
        declared = next((kind for magic, kind in _MAGIC if raw.startswith(magic)), "image/png")
    return f"data:{declared};base64,{base64.b64encode(raw).decode()}"


def image_bytes(fmt: str = "PNG", size=(600, 900), color=(20, 90, 160), **save) -> bytes:
    """A real image with a little detail (so encoders produce realistic files)."""
    image = Image.new("RGB", size, color)
    for x in range(0, size[0], 50):
        image.paste((255, 255, 255), (x, 0, x + 5, size[1]))
    buffer = io.BytesIO()
    image.save(buffer, fmt, **save)
    return buffer.getvalue()


def cover(color=(20, 90, 160), size=(600, 900)) -> str:
    """A valid cover upload as the form sends it."""
    return data_url(image_bytes("PNG", size, color))


def jpeg_with_metadata(size=(300, 450), orientation: int = 1) -> bytes:
    """A camera-like JPEG: EXIF with maker, GPS position and orientation, a comment and XMP."""
    image = Image.new("RGB", size, (200, 40, 40))
    image.paste((0, 0, 0), (0, 0, size[0] // 3, size[1] // 6))  # a mark in the top-left corner
    exif = Image.Exif()
    exif[0x010F] = "SecretCam Maker"       # Make
    exif[0x0110] = "SecretCam 3000"        # Model
    exif[0x0112] = orientation             # Orientation
    exif[0x8825] = {1: "N", 2: (12.0, 58.0, 13.0), 3: "E", 4: (77.0, 35.0, 40.0)}  # GPS: Bengaluru
    buffer = io.BytesIO()
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/">SecretXMP</x:xmpmeta>'
    image.save(buffer, "JPEG", exif=exif, comment=b"SecretComment", xmp=xmp, quality=90)
    return buffer.getvalue()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_bomb(side: int = 20000) -> bytes:
    """A real decompression bomb: a 1-bit side × side PNG of zeros, tiny compressed, huge decoded."""
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    row = b"\x00" * (1 + (side + 7) // 8)
    compressor = zlib.compressobj(9)
    parts = [compressor.compress(row * 1000) for _ in range(side // 1000)]
    parts.append(compressor.flush())
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(parts)) + _chunk(b"IEND", b"")


HOSTILE = {
    # name: (data URL, status, message)
    "php renamed .jpg": (data_url(b"<?php system($_GET['c']); ?>", "image/jpeg"), 422,
                         "The cover must be a JPEG, PNG or WebP image."),
    "text renamed .png": (data_url(b"just some text, not a picture\n" * 20, "image/png"), 422,
                          "The cover must be a JPEG, PNG or WebP image."),
    "jpeg declared as png": (data_url(image_bytes("JPEG", (300, 450)), "image/png"), 422,
                             "The cover must be a JPEG, PNG or WebP image."),
    "svg with script": (data_url(b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
                                 "image/svg+xml"), 422, "The cover must be a JPEG, PNG or WebP image."),
    "gif": (data_url(image_bytes("GIF", (100, 150)), "image/gif"), 422, "The cover must be a JPEG, PNG or WebP image."),
    "truncated png": (data_url(image_bytes("PNG")[:-400]), 422, "The cover must be a JPEG, PNG or WebP image."),
    "not base64": ("data:image/png;base64,@@@not-base64@@@", 422, "The cover must be a JPEG, PNG or WebP image."),
    "5000 px wide": (data_url(image_bytes("PNG", (5000, 20))), 422,
                     "The cover image must be at most 4000 pixels wide and high."),
    "decompression bomb": (data_url(png_bomb()), 422, "The cover image must be at most 4000 pixels wide and high."),
    "6 MB": (data_url(os.urandom(6 * 1024 * 1024)), 413, "The cover image must be at most 5 MB."),
    "a link, not a file": ("https://evil.example/cover.png", 422, "Upload the cover as an image file."),
}
