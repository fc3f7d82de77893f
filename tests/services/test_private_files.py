"""Private files (digital books, return photos): kept outside /media on the disk, or in a bucket of their
own through the real boto3 client against moto's S3 server; handed out only by the app."""
import io

import pytest
import requests
from flask import Flask

from bookstore.services import private_files
from tests.fakes.s3_server import REGION, local_s3

BUCKET = "bookstore-private"
AUDIO = bytes(range(256)) * 4096  # 1 MiB, larger than one copy chunk


@pytest.fixture
def local_app(make_app):
    return make_app()


def test_a_local_file_is_stored_outside_media_and_sent_as_a_private_attachment(local_app):
    """On the disk a file (streamed in, larger than a chunk) lands in PRIVATE_ROOT, comes back whole as an
    attachment no cache may keep, and deleting it twice is fine."""
    with local_app.test_request_context():
        private_files.put("digital/7/book.mp3", io.BytesIO(AUDIO), "audio/mpeg")
        root = private_files.private_root()
        media = local_app.config["MEDIA_ROOT"]
        assert (root / "digital/7/book.mp3").read_bytes() == AUDIO
        assert not str(root.resolve()).startswith(str(media)), "private files must not be under /media"
        assert private_files.exists("digital/7/book.mp3") and not private_files.exists("digital/7/other.mp3")

        response = private_files.send("digital/7/book.mp3", "Indian Polity (audio).mp3", "audio/mpeg")
        response.direct_passthrough = False
        assert response.status_code == 200 and response.get_data() == AUDIO
        assert response.headers["Cache-Control"] == "private, no-store"
        assert response.headers["Content-Type"] == "audio/mpeg"
        assert response.headers["Content-Disposition"].startswith("attachment;")
        response.close()

        private_files.delete("digital/7/book.mp3")
        private_files.delete("digital/7/book.mp3")  # a missing file is not an error
        assert not private_files.exists("digital/7/book.mp3")


def test_a_key_cannot_leave_the_private_folder(local_app):
    """A key with .. or an absolute path is refused before the disk is touched."""
    with local_app.test_request_context():
        with pytest.raises(ValueError):
            private_files.put("../media/covers/x.webp", b"x", "image/webp")
        with pytest.raises(ValueError):
            private_files.read("/etc/passwd")


def test_nothing_under_media_reaches_a_private_file(local_app):
    """The /media route serves covers from MEDIA_ROOT; a private file's key is not found there."""
    with local_app.test_request_context():
        private_files.put("returns/1/photo.webp", b"photo", "image/webp")
    client = local_app.test_client()
    assert client.get("/media/returns/1/photo.webp").status_code == 404
    assert client.get("/media/../private/returns/1/photo.webp").status_code == 404


@pytest.fixture
def s3(monkeypatch):
    yield from local_s3(monkeypatch, BUCKET)


def test_in_a_bucket_a_file_is_handed_out_through_a_short_lived_signed_address(make_app, s3):
    """With S3_PRIVATE_BUCKET the file goes to that bucket only; the app answers 303 to a 5-minute pre-signed
    address that downloads it under its (Hindi) name."""
    app: Flask = make_app(S3_PRIVATE_BUCKET=BUCKET, S3_ENDPOINT_URL=s3.endpoint_url, S3_REGION=REGION)
    with app.test_request_context():
        private_files.put("digital/9/book.pdf", b"%PDF-1.7 a whole book", "application/pdf")
        assert s3.keys() == {"digital/9/book.pdf"}
        assert private_files.read("digital/9/book.pdf") == b"%PDF-1.7 a whole book"
        assert private_files.exists("digital/9/book.pdf") and not private_files.exists("digital/9/none.pdf")
        # Nothing was written to the local disk.
        assert not private_files.private_root().exists() or not any(private_files.private_root().rglob("*.pdf"))

        response = private_files.send("digital/9/book.pdf", "भारत का इतिहास.pdf", "application/pdf")
        assert response.status_code == 303
        assert response.headers["Cache-Control"] == "private, no-store"
        url = response.headers["Location"]
        assert "X-Amz-Expires=300" in url and "X-Amz-Signature=" in url

        fetched = requests.get(url, timeout=10)
        assert fetched.status_code == 200 and fetched.content == b"%PDF-1.7 a whole book"
        assert fetched.headers["Content-Type"] == "application/pdf"
        assert "filename*=UTF-8''" in fetched.headers["Content-Disposition"]

        private_files.delete("digital/9/book.pdf")
        assert s3.keys() == set()
