"""Administrators' book writes (product §10.1-§10.2, §3.7): create, edit, covers, delete or archive.

Covers are decoded and re-encoded by the server; hostile uploads are refused with nothing stored.
Every write leaves an audit entry; every refusal leaves the database and the media folder as they were.
"""
import io
from pathlib import Path

import pytest
from PIL import Image

from bookstore.extensions import db
from bookstore.models import AuditEntry, Book, Category
from tests.factories import count, isbn13, placed
from tests.fakes.uploads import HOSTILE, cover, data_url, image_bytes, jpeg_with_metadata


@pytest.fixture
def admin(auth):
    return auth.admin()


def form(**changes) -> dict:
    """A complete, valid Add New Book form; `changes` override fields (None removes one)."""
    payload = {
        "title": "Quantitative Aptitude for Banking Exams", "author": "R. S. Aggarwal",
        "description": "Solved examples and practice sets for IBPS and SBI.", "price": 425.5,
        "category": "BANKING", "weight": "500g", "imageUrl": cover(), "stock": 12, "isbn": "978-93-5236-093-2",
        "publisher": "S. Chand", "publishYear": 2024, "language": "English", "pages": 640, "format": "Paperback",
    }
    payload.update(changes)
    return {key: value for key, value in payload.items() if value is not None}


def media_files(app) -> set[str]:
    root = Path(app.config["MEDIA_ROOT"])
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()} if root.exists() else set()


def stored_image(app, url: str) -> Image.Image:
    assert url.startswith("/media/")
    return Image.open(Path(app.config["MEDIA_ROOT"]) / url[len("/media/"):])


def book_count_of(slug: str) -> int:
    db.session.expire_all()
    return db.session.scalar(db.select(Category.book_count).where(Category.slug == slug))


def audit_log() -> list[AuditEntry]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(AuditEntry).order_by(AuditEntry.id)))


def create(client, headers, **changes):
    return client.post("/api/books", json=form(**changes), headers=headers)


def created(client, headers, **changes) -> dict:
    response = create(client, headers, **changes)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["book"]


def refused(response, status: int, message: str, field: str | None = None) -> dict:
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert body["success"] is False and body["message"] == message, body
    if field:
        assert field in body["errors"], body
    return body


def search_ids(client, text: str) -> list[str]:
    return [b["_id"] for b in client.get("/api/books", query_string={"search": text}).get_json()["books"]]


# ---------------------------------------------------------------- create

def test_an_admin_adds_a_book_with_its_cover(app, client, admin):
    """The form in (product §10.2); the book stored with publishYear as Jan 1, paise, a re-encoded cover and thumbnail."""
    before = book_count_of("banking")
    response = create(client, admin)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["success"] is True and body["message"] == "Book created successfully!"
    book = body["book"]
    assert (book["title"], book["price"], book["category"], book["weight"]) == (
        "Quantitative Aptitude for Banking Exams", 425.5, "BANKING", "500g")
    assert book["publicationDate"] == "2024-01-01" and book["isbn"] == "9789352360932"
    assert book["archived"] is False and book["tags"] == []

    row = db.session.get(Book, int(book["_id"]))
    assert (row.price_paise, row.stock, row.pages, row.publisher) == (42550, 12, 640, "S. Chand")
    assert book_count_of("banking") == before + 1
    stored = stored_image(app, book["imageUrl"])
    assert stored.format == "WEBP" and stored.size == (533, 800)  # 600×900 shrunk to 800 px tall
    thumbnail = stored_image(app, book["thumbnailUrl"])
    assert thumbnail.format == "WEBP" and thumbnail.size[1] == 200
    assert media_files(app) == {book["imageUrl"][7:], book["thumbnailUrl"][7:]}
    # The shop finds it at once (the search index is kept by triggers), and shows it.
    assert search_ids(client, "Quantitative Aptitude") == [book["_id"]]
    assert client.get(book["imageUrl"]).headers["Cache-Control"] == "public, max-age=31536000, immutable"

    [entry] = audit_log()
    assert (entry.action, entry.entity_type, entry.entity_id) == ("book.create", "book", book["_id"])
    assert entry.actor_email == "admin@example.in" and entry.before is None
    assert entry.after["title"] == book["title"] and entry.after["price_paise"] == 42550
    assert entry.after["publication_date"] == "2024-01-01"


def test_the_book_form_accepts_numbers_as_text_and_hyphen_free_isbns(client, admin):
    """Form inputs often arrive as text; an ISBN-10 with X is fine."""
    book = created(client, admin, price="199", stock="3", publishYear="2020", pages="100", isbn="0-306-40615-2")
    assert (book["price"], book["stock"], book["publicationDate"], book["isbn"]) == (199, 3, "2020-01-01", "0306406152")


@pytest.mark.parametrize("declared", ["image/png", "image/webp", "text/plain", "application/octet-stream",
                                      "image/svg+xml", ""])
def test_an_image_declared_with_the_wrong_type_is_refused(app, client, admin, declared):
    """A real JPEG labelled as something else is a mislabelled or crafted upload: refused, nothing stored."""
    upload = data_url(image_bytes("JPEG", (300, 450)), declared)
    refused(create(client, admin, imageUrl=upload), 422, "The cover must be a JPEG, PNG or WebP image.", "imageUrl")
    assert media_files(app) == set()
    assert count(Book) == 0


@pytest.mark.parametrize("declared", ["image/jpeg", "IMAGE/JPEG", "image/jpg"])
def test_a_jpeg_may_be_declared_in_its_usual_spellings(app, client, admin, declared):
    """A JPEG cover is accepted under each of its usual MIME spellings and stored as WebP."""
    book = created(client, admin, imageUrl=data_url(image_bytes("JPEG", (300, 450)), declared))
    assert stored_image(app, book["imageUrl"]).format == "WEBP"


def test_webp_and_transparent_png_covers_are_accepted(app, client, admin):
    """WebP decodes; transparency is flattened on white."""
    created(client, admin, imageUrl=data_url(image_bytes("WEBP", (300, 450)), "image/webp"), isbn=None)
    transparent = Image.new("RGBA", (200, 300), (0, 0, 0, 0))
    buffer = io.BytesIO()
    transparent.save(buffer, "PNG")
    book = created(client, admin, imageUrl=data_url(buffer.getvalue()), isbn=isbn13(77))
    assert stored_image(app, book["imageUrl"]).convert("RGB").getpixel((10, 10)) == (255, 255, 255)


def test_metadata_is_really_stripped(app, client, admin):
    """EXIF (camera, GPS), XMP and comments never reach the stored files; the camera's rotation is applied."""
    raw = jpeg_with_metadata(size=(300, 450), orientation=6)  # stored sideways, shown rotated 90°
    assert b"SecretCam" in raw and b"SecretXMP" in raw
    book = created(client, admin, imageUrl=data_url(raw, "image/jpeg"))
    for url in (book["imageUrl"], book["thumbnailUrl"]):
        stored = stored_image(app, url)
        assert not stored.getexif() and "exif" not in stored.info and "xmp" not in stored.info
        assert "icc_profile" not in stored.info or not stored.info["icc_profile"]
        data = (Path(app.config["MEDIA_ROOT"]) / url[7:]).read_bytes()
        for secret in (b"SecretCam", b"SecretXMP", b"SecretComment", b"Exif"):
            assert secret not in data
    assert stored_image(app, book["imageUrl"]).size == (450, 300)  # landscape after the rotation


# ---------------------------------------------------------------- refusals

VALIDATION_ORDER = [
    # What the form lacks, and the message the edit page checks first (product §10.2, in order).
    ({"title": None, "author": None, "description": None, "price": None, "category": None, "weight": None,
      "imageUrl": None}, "Book title is required", "title"),
    ({"title": "  ", "author": None, "price": 0}, "Book title is required", "title"),
    ({"author": "", "description": "", "price": -1}, "Author is required", "author"),
    ({"description": None, "price": "abc", "weight": ""}, "Description is required", "description"),
    ({"price": None, "category": None}, "Valid price is required", "price"),
    ({"price": 0, "weight": None}, "Valid price is required", "price"),
    ({"price": -5}, "Valid price is required", "price"),
    ({"price": "12.345"}, "Valid price is required", "price"),
    ({"category": "", "weight": None, "imageUrl": None}, "Category is required", "category"),
    ({"weight": "   ", "imageUrl": None}, "Weight is required", "weight"),
    ({"imageUrl": None}, "Book cover image is required", "imageUrl"),
    ({"imageUrl": ""}, "Book cover image is required", "imageUrl"),
    ({"category": "Astrology"}, "Choose one of the shop's 18 categories.", "category"),
    ({"stock": -1}, "Stock must be a whole number from 0 to 10,00,000.", "stock"),
    ({"publishYear": 1899}, None, "publishYear"),
    ({"pages": 0}, "Pages must be at least 1.", "pages"),
    ({"format": "Comic"}, "Format must be one of: Paperback, Hardcover, E-Book, Audiobook.", "format"),
    ({"isbn": "978-93-5236-093-1"}, "This ISBN's check digit is wrong; please check the number.", "isbn"),
    ({"isbn": "12345"}, "ISBN must have 10 or 13 digits (hyphens allowed).", "isbn"),
    ({"discountedPrice": 500}, "Discounted price must be below the price.", "discountedPrice"),
]


@pytest.mark.parametrize("changes, message, field", VALIDATION_ORDER)
def test_the_book_form_is_checked_in_the_spec_order(app, client, admin, changes, message, field):
    """422 with the first failing check as the message and every failing field listed; nothing stored."""
    response = create(client, admin, **changes)
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["success"] is False and field in body["errors"]
    if message:
        assert body["message"] == message
    assert list(body["errors"])[0] == field
    assert count(Book) == 0 and media_files(app) == set() and audit_log() == []


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_covers_are_refused_and_nothing_is_stored(app, client, admin, name):
    """Files in disguise, broken images, bombs and oversized uploads: refused, no book, no file."""
    upload, status, message = HOSTILE[name]
    refused(create(client, admin, imageUrl=upload), status, message)
    assert count(Book) == 0 and media_files(app) == set() and audit_log() == []


@pytest.mark.parametrize("isbn", ["9789352360932", "978-93-5236-093-2", "978 93 5236 093 2"])
def test_an_isbn_is_unique_however_it_is_written(app, client, admin, isbn):
    """409 for a second book with the same ISBN, with or without hyphens; the first book's files stay."""
    first = created(client, admin)
    files = media_files(app)
    refused(create(client, admin, isbn=isbn, imageUrl=cover(color=(1, 2, 3)), title="Another"), 409,
            "A book with this ISBN already exists.")
    assert count(Book) == 1 and media_files(app) == files and len(audit_log()) == 1
    assert first["isbn"] == "9789352360932"


def test_includearchived_is_for_administrators_only(client, auth, factories):
    """Shoppers never see archived books: asking for them is 401 for guests, 403 for shoppers."""
    factories.book(archived=True)
    assert client.get("/api/books?includeArchived=true").status_code == 401
    assert client.get("/api/books?includeArchived=true", headers=auth.customer()).status_code == 403
    assert client.get("/api/books").get_json()["totalBooks"] == 0


# ---------------------------------------------------------------- edit

def test_an_edit_keeps_what_it_does_not_send(client, admin, factories):
    """Fields left out (tags above all) keep their values; publicationDate from the edit page is taken."""
    book = factories.book(tags=["ibps", "sbi"], cover_key="covers/aa/old.webp", weight="300g")
    old_title = book.title
    response = client.put(f"/api/books/{book.id}", json={"title": "New Title", "publicationDate": "2021-01-01",
                                                         "imageUrl": "/media/covers/aa/old.webp"}, headers=admin)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["message"] == "Book updated successfully!"
    assert body["book"]["tags"] == ["ibps", "sbi"] and body["book"]["weight"] == "300g"
    assert body["book"]["title"] == "New Title" and body["book"]["publicationDate"] == "2021-01-01"
    [entry] = audit_log()
    assert entry.action == "book.update"
    assert entry.before == {"title": old_title, "publication_date": "2024-01-01"}
    assert entry.after == {"title": "New Title", "publication_date": "2021-01-01"}
    # Sending tags replaces them; an empty list clears them.
    assert client.put(f"/api/books/{book.id}", json={"tags": []}, headers=admin).get_json()["book"]["tags"] == []


def test_an_edit_is_validated_in_the_spec_order_and_changes_nothing(client, admin, factories):
    """Blank required fields are refused in order; a book without any cover needs one."""
    book = factories.book(cover_key="covers/aa/old.webp")
    title = book.title
    refused(client.put(f"/api/books/{book.id}", json={"title": "", "author": ""}, headers=admin), 422,
            "Book title is required", "title")
    refused(client.put(f"/api/books/{book.id}", json={"price": 0, "weight": ""}, headers=admin), 422,
            "Valid price is required", "price")
    refused(client.put(f"/api/books/{book.id}", json={"discountedPrice": 600}, headers=admin), 422,
            "Discounted price must be below the price.", "discountedPrice")
    coverless = factories.book()
    refused(client.put(f"/api/books/{coverless.id}", json={"title": "X"}, headers=admin), 422,
            "Book cover image is required", "imageUrl")
    refused(client.put("/api/books/999999", json={"title": "X"}, headers=admin), 404, "Book not found.")
    db.session.expire_all()
    assert db.session.get(Book, book.id).title == title and audit_log() == []


def test_replacing_a_cover_removes_the_old_files(app, client, admin):
    """A new data URL replaces the cover; the old cover and thumbnail are deleted after the commit."""
    book = created(client, admin)
    old = {book["imageUrl"][7:], book["thumbnailUrl"][7:]}
    response = client.put(f"/api/books/{book['_id']}", json={"imageUrl": cover(color=(200, 10, 10))}, headers=admin)
    assert response.status_code == 200, response.get_json()
    new = response.get_json()["book"]
    assert new["imageUrl"] != book["imageUrl"]
    assert media_files(app) == {new["imageUrl"][7:], new["thumbnailUrl"][7:]} and not old & media_files(app)
    assert [e.action for e in audit_log()] == ["book.create", "book.cover"]
    assert audit_log()[-1].after == {"cover": new["imageUrl"][7:]}


def test_a_refused_new_cover_leaves_the_book_and_its_files_alone(app, client, admin):
    """An edit with a refused cover changes neither the book (its other fields included) nor its stored files."""
    book = created(client, admin)
    files = media_files(app)
    upload, status, message = HOSTILE["truncated png"]
    refused(client.put(f"/api/books/{book['_id']}", json={"imageUrl": upload, "title": "Changed"}, headers=admin),
            status, message)
    db.session.expire_all()
    assert db.session.get(Book, int(book["_id"])).title == book["title"]
    assert media_files(app) == files and len(audit_log()) == 1


def test_an_edit_cannot_take_another_books_isbn(client, admin, factories):
    """An edit cannot give a book another book's ISBN (409, in any spelling), while a book may keep its own."""
    first = factories.book(isbn="9789352360932", cover_key="covers/aa/a.webp")
    second = factories.book(cover_key="covers/aa/b.webp")
    refused(client.put(f"/api/books/{second.id}", json={"isbn": "978-93-5236-093-2"}, headers=admin), 409,
            "A book with this ISBN already exists.")
    # Its own ISBN is fine.
    assert client.put(f"/api/books/{first.id}", json={"isbn": "978-93-5236-093-2"}, headers=admin).status_code == 200


def test_a_cover_shared_by_two_books_survives_one_of_them(app, client, admin):
    """Covers are content-addressed: the same image uploaded twice is one file, kept while still used."""
    same = cover(color=(5, 5, 5))
    first = created(client, admin, imageUrl=same)
    second = created(client, admin, imageUrl=same, isbn=isbn13(99), title="Second")
    assert first["imageUrl"] == second["imageUrl"]
    assert client.delete(f"/api/books/{first['_id']}", headers=admin).status_code == 200
    assert media_files(app) == {second["imageUrl"][7:], second["thumbnailUrl"][7:]}


# ---------------------------------------------------------------- delete or archive

def test_a_book_never_ordered_is_deleted_with_its_files(app, client, admin):
    """A book never ordered is deleted for good, with its cover files, and its category's count drops."""
    book = created(client, admin)
    before = book_count_of("banking")
    response = client.delete(f"/api/books/{book['_id']}", headers=admin)
    assert response.status_code == 200
    assert response.get_json() == {"success": True, "archived": False, "message": "Book deleted."}
    assert count(Book) == 0 and media_files(app) == set()
    assert book_count_of("banking") == before - 1
    assert search_ids(client, "Quantitative Aptitude") == []
    entry = audit_log()[-1]
    assert (entry.action, entry.entity_id, entry.after) == ("book.delete", book["_id"], None)
    assert entry.before["title"] == book["title"]
    refused(client.delete(f"/api/books/{book['_id']}", headers=admin), 404, "Book not found.")


def test_a_book_in_past_orders_is_archived_not_deleted(app, client, admin, auth):
    """Order history keeps the book; shoppers stop seeing it; admins still list it when asked."""
    book = created(client, admin)
    row = db.session.get(Book, int(book["_id"]))
    order = placed(client, [(row, 1)])
    before = book_count_of("banking")
    response = client.delete(f"/api/books/{book['_id']}", headers=admin)
    assert response.status_code == 200 and response.get_json()["archived"] is True
    db.session.expire_all()
    assert db.session.get(Book, row.id).archived is True
    assert book_count_of("banking") == before - 1
    assert media_files(app) == {book["imageUrl"][7:], book["thumbnailUrl"][7:]}  # the order still shows it
    assert search_ids(client, "Quantitative Aptitude") == []
    assert client.get(f"/api/books/{book['_id']}").status_code == 404
    listed = client.get("/api/books?includeArchived=true", headers=admin).get_json()
    assert [(b["_id"], b["archived"]) for b in listed["books"]] == [(book["_id"], True)] and listed["totalBooks"] == 1
    shown = client.get(f"/api/books/{book['_id']}?includeArchived=true", headers=admin).get_json()["book"]
    assert shown["archived"] is True
    history = client.get(f"/api/admin/orders/{order['_id']}", headers=admin).get_json()["order"]
    assert history["orderItems"][0]["title"] == book["title"]
    assert audit_log()[-1].action == "book.archive"
    assert audit_log()[-1].before == {"archived": False} and audit_log()[-1].after == {"archived": True}

    # Deleting it again changes nothing; putting it back on sale is an edit.
    assert client.delete(f"/api/books/{book['_id']}", headers=admin).get_json()["archived"] is True
    assert len(audit_log()) == 2
    restored = client.put(f"/api/books/{book['_id']}", json={"archived": False}, headers=admin)
    assert restored.status_code == 200 and restored.get_json()["book"]["archived"] is False
    assert audit_log()[-1].action == "book.restore"
    assert search_ids(client, "Quantitative Aptitude") == [book["_id"]]
    assert book_count_of("banking") == before


def test_restore_puts_an_archived_book_back_on_sale_once(client, admin, factories):
    """POST /restore puts an archived book back on sale as it is (no cover needed), audited as book.restore with
    archived true → false; restoring a book on sale answers the same and records nothing."""
    book = factories.book(title="Previous Years Banking Papers", category="banking", stock=3)  # no cover
    placed(client, [(book, 1)])
    before = book_count_of("banking")
    assert client.delete(f"/api/books/{book.id}", headers=admin).get_json()["archived"] is True
    assert search_ids(client, "Previous Years Banking") == []

    response = client.post(f"/api/books/{book.id}/restore", headers=admin)
    assert response.status_code == 200, response.get_json()
    reply = response.get_json()
    assert reply["success"] is True and reply["message"] == "Previous Years Banking Papers is on sale again."
    assert reply["book"]["archived"] is False and reply["version"] == response.headers["ETag"]
    db.session.expire_all()
    assert db.session.get(Book, book.id).archived is False
    assert (audit_log()[-1].action, audit_log()[-1].entity_id) == ("book.restore", str(book.id))
    assert audit_log()[-1].before == {"archived": True} and audit_log()[-1].after == {"archived": False}
    assert search_ids(client, "Previous Years Banking") == [str(book.id)]
    assert book_count_of("banking") == before

    again = client.post(f"/api/books/{book.id}/restore", headers=admin)
    assert again.status_code == 200 and again.get_json()["book"]["archived"] is False
    assert [entry.action for entry in audit_log()] == ["book.archive", "book.restore"]


def test_restore_needs_an_admin_and_a_known_book(client, admin, auth, factories):
    """Restoring is 401 for guests, 403 for shoppers and 404 for unknown or malformed ids; the book stays archived
    and nothing is audited."""
    book = factories.book(title="Archived Almanac", archived=True)
    path = f"/api/books/{book.id}/restore"
    assert client.post(path).status_code == 401
    refused_shopper = client.post(path, headers=auth.customer())
    assert refused_shopper.status_code == 403 and refused_shopper.get_json()["success"] is False
    for unknown in ("999999", "not-an-id", "99999999999999999999999"):
        missing = client.post(f"/api/books/{unknown}/restore", headers=admin)
        assert missing.status_code == 404 and missing.get_json()["message"] == "Book not found."
    db.session.expire_all()
    assert db.session.get(Book, book.id).archived is True
    assert audit_log() == []
