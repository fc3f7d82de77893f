"""Cover uploads: a data URL in, a clean re-encoded cover and thumbnail out, or a clear refusal.

Nothing about the upload is trusted: the bytes are decoded by Pillow, which may only try JPEG, PNG
and WebP, and what they turn out to be must be what the data URL declared (a JPEG labelled
image/png is a mislabelled or crafted upload, refused like the rest). The size in bytes is checked before decoding, the
size in pixels from the header before the pixels are decompressed (decompression bombs), and a
truncated file fails to decode. What is stored is a fresh image drawn from the decoded pixels, so
no metadata (EXIF with GPS positions, XMP, comments) and no smuggled payload survives.
"""
import base64
import binascii
import hashlib
import io
import re
import struct
import warnings
from dataclasses import dataclass

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from bookstore.errors import PayloadTooLarge, ValidationFailed
from bookstore.services import storage

MAX_BYTES = 5 * 1024 * 1024
MAX_SIDE = 4000
# The media types a data URL may declare, and the format its bytes must then decode as.
DECLARED_FORMATS = {"image/jpeg": "JPEG", "image/jpg": "JPEG", "image/pjpeg": "JPEG",
                    "image/png": "PNG", "image/webp": "WEBP"}
COVER_BOX = (560, 800)       # a cover is at most 800 px tall (and 560 wide)
THUMBNAIL_BOX = (140, 200)   # grids and order lines
WEBP_QUALITY = 85

FIELD = "imageUrl"
TOO_BIG = "The cover image must be at most 5 MB."
COVER_REQUIRED = "Book cover image is required"
NOT_AN_IMAGE = "The cover must be a JPEG, PNG or WebP image."
TOO_MANY_PIXELS = f"The cover image must be at most {MAX_SIDE} pixels wide and high."
NOT_A_DATA_URL = "Upload the cover as an image file."

_DATA_URL = re.compile(r"^data:(?P<type>[\w.+-]*/?[\w.+-]*)?(?:;[\w-]+=[\w.-]+)*;base64,", re.IGNORECASE)


@dataclass(frozen=True)
class StoredCover:
    """A processed cover and thumbnail (WebP bytes) under their content-addressed storage keys."""

    key: str
    data: bytes
    thumbnail_key: str
    thumbnail_data: bytes


def is_data_url(text: str) -> bool:
    return text[:5].lower() == "data:"


def _refuse(message: str):
    raise ValidationFailed({FIELD: [message]})


def decode_data_url(text: str) -> tuple[str, bytes]:
    """The image format a base64 data URL declares, and its bytes.

    :raise PayloadTooLarge: over 5 MB :raise ValidationFailed: not a base64 data URL of a JPEG, PNG or WebP
    """
    header = _DATA_URL.match(text[:200])
    declared = DECLARED_FORMATS.get((header.group("type") or "").lower()) if header else None
    if declared is None:
        _refuse(NOT_AN_IMAGE)
    encoded = text[header.end():]
    # Refuse by length before decoding: 4 base64 characters carry 3 bytes.
    if len(encoded) > (MAX_BYTES + 2) // 3 * 4 + 4:
        raise PayloadTooLarge(TOO_BIG)
    try:
        raw = base64.b64decode("".join(encoded.split()), validate=True)
    except (binascii.Error, ValueError):
        _refuse(NOT_AN_IMAGE)
    if len(raw) > MAX_BYTES:
        raise PayloadTooLarge(TOO_BIG)
    if not raw:
        _refuse(NOT_AN_IMAGE)
    return declared, raw


def _open(declared: str, raw: bytes) -> Image.Image:
    """Decode fully, trusting nothing; the bytes must be the declared format. :raise ValidationFailed:"""
    try:
        image = Image.open(io.BytesIO(raw), formats=(declared,))
        if max(image.size) > MAX_SIDE:
            _refuse(TOO_MANY_PIXELS)
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        _refuse(TOO_MANY_PIXELS)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, struct.error):
        _refuse(NOT_AN_IMAGE)
    return image


def _to_srgb(image: Image.Image) -> Image.Image:
    """Colours as the browser will show them: convert from the embedded ICC profile, then drop it."""
    icc = image.info.get("icc_profile")
    if icc and image.mode in ("RGB", "RGBA", "CMYK"):
        try:
            mode = "RGBA" if image.mode == "RGBA" else "RGB"
            return ImageCms.profileToProfile(image, ImageCms.ImageCmsProfile(io.BytesIO(icc)),
                                             ImageCms.createProfile("sRGB"), outputMode=mode)
        except (ImageCms.PyCMSError, OSError, ValueError):
            pass  # a broken profile: use the pixels as they are
    return image


def _clean_rgb(image: Image.Image) -> Image.Image:
    """A brand-new RGB image of the pixels (transparent parts on white): no info, EXIF or profile."""
    image = ImageOps.exif_transpose(image)  # honour the camera's rotation before EXIF is dropped
    image = _to_srgb(image)
    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        clean = Image.new("RGB", rgba.size, "white")
        clean.paste(rgba, mask=rgba.getchannel("A"))
        return clean
    rgb = image.convert("RGB")
    clean = Image.new("RGB", rgb.size)
    clean.paste(rgb)
    return clean


def _webp(image: Image.Image, box: tuple[int, int]) -> bytes:
    resized = image.copy()
    resized.thumbnail(box, Image.Resampling.LANCZOS)  # shrinks only, keeps the proportions
    buffer = io.BytesIO()
    resized.save(buffer, "WEBP", quality=WEBP_QUALITY, method=4)
    return buffer.getvalue()


def process_cover(data_url: str) -> StoredCover:
    """Check and re-encode an uploaded cover, without storing anything yet.

    :raise PayloadTooLarge: over 5 MB. :raise ValidationFailed: not a real JPEG, PNG or WebP, or too many pixels.
    """
    if not is_data_url(data_url):
        _refuse(NOT_A_DATA_URL)
    image = _clean_rgb(_open(*decode_data_url(data_url)))
    cover = _webp(image, COVER_BOX)
    digest = hashlib.sha256(cover).hexdigest()[:32]
    stem = f"covers/{digest[:2]}/{digest}"
    return StoredCover(f"{stem}.webp", cover, f"{stem}-thumb.webp", _webp(image, THUMBNAIL_BOX))


def store(cover: StoredCover) -> None:
    """Write both files through the storage service (idempotent: same bytes, same keys)."""
    storage.put(cover.key, cover.data)
    storage.put(cover.thumbnail_key, cover.thumbnail_data)


PHOTO_BOX = (1600, 1600)   # a return's photo: enough to see the damage
PHOTO_FIELD = "photo"


def process_photo(data_url: str) -> bytes:
    """Check a photo sent with a return exactly as a cover is checked (size, real JPEG, PNG or WebP,
    pixel limits) and re-encode it as a clean JPEG without metadata (camera GPS positions stay behind).

    :raise PayloadTooLarge: over 5 MB. :raise ValidationFailed: not a real JPEG, PNG or WebP, or too many pixels.
    """
    try:
        if not is_data_url(data_url):
            _refuse(NOT_A_DATA_URL)
        image = _clean_rgb(_open(*decode_data_url(data_url)))
    except PayloadTooLarge:
        raise PayloadTooLarge("A photo must be at most 5 MB.") from None
    except ValidationFailed:
        raise ValidationFailed({PHOTO_FIELD: [f"The photo must be a JPEG, PNG or WebP image of at most {MAX_SIDE} "
                                              "pixels a side."]}) from None
    image.thumbnail(PHOTO_BOX, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=85)
    return buffer.getvalue()
