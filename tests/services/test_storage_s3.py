"""Covers in S3-compatible storage (product §3.7, §12.2): the real boto3 client against moto's server
over HTTP. Files are written with a year of cache, served from S3_PUBLIC_URL (or the bucket's URL),
removed when replaced or deleted, and never written for a refused upload."""
import io
import json

import pytest
import requests
from PIL import Image

from bookstore.extensions import db
from tests.conftest import empty_database
from tests.fakes.s3_server import REGION, local_s3
from tests.fakes.uploads import HOSTILE, cover

BUCKET = "bookstore-covers"


@pytest.fixture
def s3(monkeypatch):
    yield from local_s3(monkeypatch, BUCKET)


def _app(make_app, s3, **extra):
    app = make_app(S3_BUCKET=BUCKET, S3_ENDPOINT_URL=s3.endpoint_url, S3_REGION=REGION, **extra)
    return app


@pytest.fixture
def app(make_app, s3):
    app = _app(make_app, s3, S3_PUBLIC_URL="https://cdn.example.in/")
    with app.app_context():
        empty_database()
        yield app
        db.session.remove()


FORM = {"title": "Indian Polity for Civil Services", "author": "M. Laxmikanth", "description": "UPSC prelims.",
        "price": 699, "category": "IAS", "weight": "1.1 kg"}


def test_covers_go_to_the_bucket_with_long_caching(app, client, auth, s3):
    """With S3 configured, a cover and its thumbnail go to the bucket with a year's immutable caching and are linked
    from the CDN address."""
    admin = auth.admin()
    response = client.post("/api/books", json={**FORM, "imageUrl": cover()}, headers=admin)
    assert response.status_code == 201, response.get_json()
    book = response.get_json()["book"]
    assert book["imageUrl"].startswith("https://cdn.example.in/covers/")
    key, thumb = book["imageUrl"][len("https://cdn.example.in/"):], book["thumbnailUrl"][len("https://cdn.example.in/"):]
    assert s3.keys() == {key, thumb}
    stored = s3.client.get_object(Bucket=BUCKET, Key=key)
    assert stored["CacheControl"] == "public, max-age=31536000, immutable"
    assert stored["ContentType"] == "image/webp"
    image = Image.open(io.BytesIO(stored["Body"].read()))
    assert image.format == "WEBP" and image.size[1] == 800

    # A new cover replaces the old objects; deleting the book removes the rest.
    replaced = client.put(f"/api/books/{book['_id']}", json={"imageUrl": cover(color=(9, 9, 9))}, headers=admin)
    assert replaced.status_code == 200, replaced.get_json()
    new = replaced.get_json()["book"]
    assert s3.keys() == {new["imageUrl"][len("https://cdn.example.in/"):],
                         new["thumbnailUrl"][len("https://cdn.example.in/"):]}
    assert client.delete(f"/api/books/{book['_id']}", headers=admin).get_json()["archived"] is False
    assert s3.keys() == set()


def test_a_refused_upload_writes_nothing_to_the_bucket(app, client, auth, s3):
    """A refused cover upload writes nothing to the bucket."""
    upload, status, _message = HOSTILE["decompression bomb"]
    response = client.post("/api/books", json={**FORM, "imageUrl": upload}, headers=auth.admin())
    assert response.status_code == status and s3.keys() == set()


def test_without_a_public_url_covers_are_served_from_the_bucket(make_app, s3):
    """The bucket's own address is used; with the public-read policy the README asks for, browsers get it."""
    s3.client.put_bucket_policy(Bucket=BUCKET, Policy=json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": f"arn:aws:s3:::{BUCKET}/covers/*"}]}))
    app = _app(make_app, s3)
    with app.app_context():
        empty_database()
        client = app.test_client()
        from tests.conftest import Auth
        from tests.factories import Factories
        admin = Auth(client, Factories()).admin()
        book = client.post("/api/books", json={**FORM, "imageUrl": cover()}, headers=admin).get_json()["book"]
        assert book["imageUrl"].startswith(f"{s3.endpoint_url}/{BUCKET}/covers/")
        fetched = requests.get(book["imageUrl"], timeout=5)
        assert fetched.status_code == 200 and fetched.content[:4] == b"RIFF"
        db.session.remove()
