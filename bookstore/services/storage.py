"""Where cover images live: a local folder served under /media, or an S3-compatible bucket.

Keys are content-addressed (they change whenever the bytes do), so every stored file is
immutable and browsers may keep it for a year, wherever it is served from. The backend is
chosen by settings: S3_BUCKET set means S3 (boto3, with S3_ENDPOINT_URL for MinIO, R2 and
the like), otherwise MEDIA_ROOT on the local disk.
"""
import os
from pathlib import Path

from flask import current_app

MEDIA_URL_PREFIX = "/media/"
IMMUTABLE = "public, max-age=31536000, immutable"
_CONTENT_TYPES = {".webp": "image/webp", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}


def _bucket() -> str:
    return current_app.config.get("S3_BUCKET") or ""


def media_url(key: str | None) -> str | None:
    """The URL a browser fetches a stored file (a cover) from: under /media or in the bucket; keys are
    content-addressed, so it never changes."""
    if not key:
        return None
    if not _bucket():
        return MEDIA_URL_PREFIX + key
    base = current_app.config.get("S3_PUBLIC_URL") or _default_bucket_url()
    return base.rstrip("/") + "/" + key


def _default_bucket_url() -> str:
    bucket, endpoint = _bucket(), current_app.config.get("S3_ENDPOINT_URL")
    if endpoint:
        return f"{endpoint.rstrip('/')}/{bucket}"
    return f"https://{bucket}.s3.{current_app.config.get('S3_REGION') or 'us-east-1'}.amazonaws.com"


def media_root() -> Path:
    return Path(current_app.config["MEDIA_ROOT"])


def s3_client():
    """One boto3 client per app (clients are thread-safe); credentials come from the usual AWS variables."""
    client = current_app.extensions.get("s3_client")
    if client is None:
        import boto3
        from botocore.config import Config

        client = boto3.client(
            "s3", endpoint_url=current_app.config.get("S3_ENDPOINT_URL") or None,
            region_name=current_app.config.get("S3_REGION") or None,
            config=Config(connect_timeout=5, read_timeout=20, retries={"max_attempts": 3, "mode": "standard"}))
        current_app.extensions["s3_client"] = client
    return client


def put(key: str, data: bytes) -> None:
    """Store bytes under key; a reader never sees half a file (atomic rename, or S3's whole-object PUT)."""
    if _bucket():
        s3_client().put_object(Bucket=_bucket(), Key=key, Body=data, CacheControl=IMMUTABLE,
                         ContentType=_CONTENT_TYPES.get(Path(key).suffix, "application/octet-stream"))
        return
    path = media_root() / key
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def delete(key: str | None) -> None:
    """Remove a stored file; a missing one is not an error."""
    if not key:
        return
    if _bucket():
        s3_client().delete_object(Bucket=_bucket(), Key=key)
        return
    (media_root() / key).unlink(missing_ok=True)
