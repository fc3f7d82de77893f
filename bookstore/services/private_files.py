"""Files no one may fetch by address: digital books and the photos sent with a return.

Covers (services/storage.py) are public and cached for a year; these are the opposite. They live in
PRIVATE_ROOT on the local disk (never under /media), or in the S3-compatible bucket S3_PRIVATE_BUCKET
(same endpoint, region and credentials as the covers' bucket, but no public policy). The app checks
who asks and then hands the file over itself: streamed from the disk, or through a pre-signed S3
address that expires within minutes, so the bytes never pass through a web worker.
"""
import os
import shutil
import tempfile
from pathlib import Path
from typing import BinaryIO

from flask import Response, current_app, redirect, send_file

from bookstore.services import storage

# A pre-signed address lives long enough to start a download, not to be passed around.
SIGNED_URL_SECONDS = 300


def _bucket() -> str:
    return current_app.config.get("S3_PRIVATE_BUCKET") or ""


def private_root() -> Path:
    return Path(current_app.config["PRIVATE_ROOT"])


def _path(key: str) -> Path:
    """The file for key on the local disk; keys are the app's own, but no key may leave the folder."""
    root = private_root().resolve()
    path = (root / key).resolve()
    if root not in path.parents:
        raise ValueError(f"private file key outside its folder: {key!r}")
    return path


def put(key: str, data: bytes | BinaryIO, content_type: str) -> None:
    """Store bytes (or a file object, read in chunks: audiobooks run to hundreds of megabytes) under key;
    a reader never sees half a file (atomic rename, or S3's whole-object upload)."""
    stream = data if hasattr(data, "read") else _BytesReader(data)
    if _bucket():
        storage.s3_client().upload_fileobj(stream, _bucket(), key, ExtraArgs={"ContentType": content_type})
        return
    path = _path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as tmp:
        shutil.copyfileobj(stream, tmp, length=1024 * 1024)
    os.replace(tmp.name, path)


def read(key: str) -> bytes:
    """The whole file (small files only: a photo an admin looks at, a test reading back)."""
    if _bucket():
        return storage.s3_client().get_object(Bucket=_bucket(), Key=key)["Body"].read()
    return _path(key).read_bytes()


def exists(key: str) -> bool:
    if _bucket():
        from botocore.exceptions import ClientError

        try:
            storage.s3_client().head_object(Bucket=_bucket(), Key=key)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return False
            raise
        return True
    return _path(key).is_file()


def delete(key: str | None) -> None:
    """Remove a stored file; a missing one is not an error."""
    if not key:
        return
    if _bucket():
        storage.s3_client().delete_object(Bucket=_bucket(), Key=key)
        return
    _path(key).unlink(missing_ok=True)


def send(key: str, download_name: str, content_type: str, as_attachment: bool = True) -> Response:
    """Hand the file to whoever the caller has already let through: streamed from the disk, or a
    redirect to a pre-signed S3 address that names the file and expires in SIGNED_URL_SECONDS."""
    if _bucket():
        disposition = "attachment" if as_attachment else "inline"
        url = storage.s3_client().generate_presigned_url(
            "get_object", ExpiresIn=SIGNED_URL_SECONDS,
            Params={"Bucket": _bucket(), "Key": key, "ResponseContentType": content_type,
                    "ResponseContentDisposition": f"{disposition}; filename*=UTF-8''{_quoted(download_name)}"})
        response = redirect(url, code=303)
    else:
        response = send_file(_path(key), mimetype=content_type, as_attachment=as_attachment,
                             download_name=download_name, conditional=True, max_age=0)
    # Nobody but the person asking may keep a copy: no shared cache, no history cache.
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _quoted(name: str) -> str:
    from urllib.parse import quote

    return quote(name, safe="")


class _BytesReader:
    """bytes as a minimal file object (io.BytesIO would copy them)."""

    def __init__(self, data: bytes):
        self._view, self._at = memoryview(data), 0

    def read(self, size: int = -1) -> bytes:
        end = len(self._view) if size is None or size < 0 else min(len(self._view), self._at + size)
        chunk = self._view[self._at:end].tobytes()
        self._at = end
        return chunk
