"""Where cover images live: a local folder by default, served under /media with long caching."""
import os
from pathlib import Path

from flask import current_app

MEDIA_URL_PREFIX = "/media/"


def public_url(key: str | None) -> str | None:
    """The URL a browser fetches a stored file from; keys are content-addressed, so it never changes."""
    return MEDIA_URL_PREFIX + key if key else None


def media_root() -> Path:
    return Path(current_app.config["MEDIA_ROOT"])


def put(key: str, data: bytes) -> None:
    """Store bytes under key, atomically, so a reader never sees half a file."""
    path = media_root() / key
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def delete(key: str | None) -> None:
    if key:
        (media_root() / key).unlink(missing_ok=True)
