"""Digital books (product §7.11): an e-book's or audiobook's file, kept in private storage; its delivery once
the order is paid; counted downloads through short-lived signed links.

A download is two calls: `POST .../download` (owner, administrator or order link) counts one download and
answers a signed address valid for DOWNLOAD_LINK_SECONDS; `GET /api/downloads/<signed>` checks the signature, the
time and the order again (a cancel or refund since closes it), spends the link (it opens once) and hands the file
over (streamed, or a pre-signed S3 redirect).
"""
import secrets
import zipfile
from datetime import datetime, timedelta, timezone
from io import BytesIO
from typing import BinaryIO

from flask import Response, current_app
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select, update

from bookstore import clock
from bookstore.errors import Conflict, Forbidden, NotFound, PayloadTooLarge, ValidationFailed
from bookstore.extensions import db
from bookstore.models import Book, Order, OrderLine, User, parse_id
from bookstore.services import audit, orders, private_files

# A download link is made for the click that asked for it: long enough to start, too short to pass around.
DOWNLOAD_LINK_SECONDS = 300
_SALT = "digital-download"

# What a digital book's file may be, recognised by its bytes (never by its name or the browser's word).
KINDS = {
    "pdf": ("application/pdf", ".pdf"),
    "epub": ("application/epub+zip", ".epub"),
    "mp3": ("audio/mpeg", ".mp3"),
    "m4b": ("audio/mp4", ".m4b"),
}
WRONG_TYPE = "The file must be a PDF or EPUB (e-books), or an MP3 or M4B (audiobooks)."
NOT_READY = "‘{title}’ can't be bought yet: its file is not ready. Please try again later."
ONLINE_ONLY = "E-books and audiobooks are paid online only. Please choose online payment."


# ---- the file ---------------------------------------------------------------------------------------------

def kind_of(head: bytes, stream: BinaryIO | None = None) -> str | None:
    """The file's kind from its first bytes (and, for a zip, its `mimetype` entry), or None."""
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head.startswith(b"PK\x03\x04") and stream is not None:
        # An EPUB is a zip whose first entry is `mimetype`, holding exactly application/epub+zip.
        try:
            stream.seek(0)
            with zipfile.ZipFile(stream) as archive:
                if archive.read("mimetype").strip() == b"application/epub+zip":
                    return "epub"
        except (zipfile.BadZipFile, KeyError, OSError, RuntimeError):
            return None
        return None
    if len(head) >= 12 and head[4:8] == b"ftyp":
        return "m4b" if head[8:12] in (b"M4B ", b"M4A ", b"mp42", b"isom", b"mp41") else None
    if head.startswith(b"ID3") or (len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "mp3"
    return None


def upload(book_id: str, stream: BinaryIO, filename: str, admin: User) -> Book:
    """Check and store a digital book's file (replacing the one before), audited as book.file.

    :raise NotFound: :raise Conflict: a printed book. :raise ValidationFailed: not a PDF, EPUB, MP3 or M4B, or
    empty. :raise PayloadTooLarge: over DIGITAL_FILE_MAX_MB."""
    book = _book(book_id)
    if not book.is_digital:
        raise Conflict(f"‘{book.title}’ is a {book.format.lower()}: only e-books and audiobooks have a file. "
                       "Change its format first.")
    size = _size(stream)
    if size > current_app.config["DIGITAL_FILE_MAX_BYTES"]:
        raise PayloadTooLarge(f"The file is too large: at most {current_app.config['DIGITAL_FILE_MAX_BYTES'] // (1024 * 1024)} MB.")
    if size == 0:
        raise ValidationFailed({"file": ["The file is empty."]})
    stream.seek(0)
    kind = kind_of(stream.read(16), stream)
    if kind is None or (book.format == "E-Book") != (kind in ("pdf", "epub")):
        expected = "a PDF or EPUB" if book.format == "E-Book" else "an MP3 or M4B"
        raise ValidationFailed({"file": [f"{WRONG_TYPE} This book is an {book.format}: upload {expected}."]})
    content_type, extension = KINDS[kind]
    stream.seek(0)
    key = f"books/{book.id}/{secrets.token_hex(8)}{extension}"
    private_files.put(key, stream, content_type)
    before = _file_fields(book)
    old_key = book.file_key
    book.file_key, book.file_type, book.file_size = key, content_type, size
    book.file_name = _download_name(book, extension)
    audit.record(admin, "book.file", "book", book.id, before, _file_fields(book))
    db.session.commit()
    if old_key and old_key != key:
        private_files.delete(old_key)  # after the commit: a failed save keeps the old file working
    return book


def remove(book_id: str, admin: User) -> Book:
    """Take a digital book's file away (it can't be bought until a new one comes); audited."""
    book = _book(book_id)
    before, old_key = _file_fields(book), book.file_key
    book.file_key = book.file_type = book.file_size = book.file_name = None
    audit.record(admin, "book.file", "book", book.id, before, _file_fields(book))
    db.session.commit()
    private_files.delete(old_key)
    return book


def _book(book_id: str) -> Book:
    key = parse_id(book_id)
    book = db.session.get(Book, key) if key else None
    if book is None:
        raise NotFound("Book not found.")
    return book


def _size(stream: BinaryIO) -> int:
    stream.seek(0, 2)
    return stream.tell()


def _file_fields(book: Book) -> dict:
    return {"file": book.file_name, "fileType": book.file_type, "fileSize": book.file_size}


def _download_name(book: Book, extension: str) -> str:
    """The title as a file name a phone and Windows both accept."""
    safe = "".join(ch if ch.isalnum() or ch in " -_" else " " for ch in book.title)
    return (" ".join(safe.split())[:120] or "book") + extension


# ---- checkout and delivery ----------------------------------------------------------------------------------

def check_sellable(books) -> None:
    """:raise Conflict: a digital book of the cart has no file yet (409, product §7.11)."""
    for book in books:
        if book.is_digital and not book.file_key:
            raise Conflict(NOT_READY.format(title=book.title), data={"bookId": str(book.id)})


def deliver(order: Order) -> None:
    """In the caller's transaction, when the order is paid: its downloads open for DOWNLOAD_DAYS, and an order
    of digital lines only is delivered (nothing is left to ship)."""
    if not any(line.digital for line in order.lines) or order.downloads_until is not None:
        return
    order.downloads_until = clock.now() + timedelta(days=current_app.config["DOWNLOAD_DAYS"])
    if order.digital_only and order.status in ("pending", "processing"):
        orders.move(order, "delivered", "system", "Downloads ready")
    db.session.flush()
    db.session.refresh(order)


def downloads_left(line: OrderLine) -> int:
    return max(0, current_app.config["DOWNLOADS_PER_LINE"] - line.downloads) if line.digital else 0


# ---- downloads ------------------------------------------------------------------------------------------------

def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=_SALT)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def check_open(order: Order) -> None:
    """Whether the order's downloads are open now: asked when a link is given and again when it is opened.

    :raise Conflict: cancelled, returned or refunded; not paid; past `downloads_until`."""
    if order.status in ("cancelled", "returned") or order.payment_status in ("refund_pending", "refunded"):
        raise Conflict("This order was cancelled or refunded, so its downloads are closed.")
    if order.payment_status != "paid" or order.downloads_until is None:
        raise Conflict("Downloads open once the payment is received.")
    if _aware(order.downloads_until) <= clock.now():
        raise Conflict("The downloads of this order have expired. Please write to us through the contact page.")


def grant(public_id: str, line_id: str, token: str | None, user: User | None) -> str:
    """Count one download of a digital line and answer its short-lived signed address.

    :raise NotFound: no such order or line, or not the caller's. :raise Forbidden: an expired order link.
    :raise Conflict: not a digital line, not paid, cancelled or refunded, downloads expired or used up."""
    order = orders.for_link_or_viewer(public_id, token, user, write=True)
    key = parse_id(line_id)
    line = next((line for line in order.lines if line.id == key), None)
    if line is None:
        raise NotFound("This order has no such line.")
    if not line.digital:
        raise Conflict(f"‘{line.title}’ is a printed book: it comes by courier, not as a download.")
    check_open(order)
    book = db.session.get(Book, line.book_id)
    if book is None or not book.file_key:
        raise Conflict("The file of this book is being replaced. Please try again in a little while.")
    limit = current_app.config["DOWNLOADS_PER_LINE"]
    # One conditional UPDATE: two clicks at once cannot both take the last download.
    counted = db.session.execute(
        update(OrderLine).where(OrderLine.id == line.id, OrderLine.downloads < limit)
        .values(downloads=OrderLine.downloads + 1).execution_options(synchronize_session=False)
    ).rowcount == 1
    if not counted:
        db.session.rollback()
        raise Conflict(f"All {limit} downloads of ‘{line.title}’ have been used. Please write to us through the "
                       "contact page if you need it again.")
    number = db.session.scalar(select(OrderLine.downloads).where(OrderLine.id == line.id))
    db.session.commit()
    expires = int((clock.now() + timedelta(seconds=DOWNLOAD_LINK_SECONDS)).timestamp())
    # `n`: which of the line's counted downloads this link is, so that it opens once.
    return "/api/downloads/" + _serializer().dumps({"l": line.id, "k": book.file_key, "e": expires, "n": number})


def open_link(signed: str) -> Response:
    """The file a download link names, if the link is genuine, not expired, not opened before, and its order's
    downloads are still open; opening it spends it and the line's older links.

    :raise NotFound: forged or for a file replaced since. :raise Forbidden: expired or spent.
    :raise Conflict: the order was cancelled or refunded since (checked now, not only when the link was given)."""
    try:
        value = _serializer().loads(signed)
    except BadSignature:
        raise NotFound("This download link is not valid.") from None
    if not isinstance(value, dict) or not all(isinstance(value.get(key), int) for key in ("e", "l", "n")):
        raise NotFound("This download link is not valid.")
    if datetime.fromtimestamp(value["e"], timezone.utc) <= clock.now():
        raise Forbidden("This download link has expired. Please press Download again on your order page.")
    line = db.session.get(OrderLine, value["l"])
    book = db.session.get(Book, line.book_id) if line is not None and line.book_id else None
    if book is None or book.file_key != value.get("k"):
        raise NotFound("This download link is no longer valid. Please press Download again on your order page.")
    check_open(line.order)
    # One conditional UPDATE: the same link opened twice at once hands the file over once.
    spent = db.session.execute(
        update(OrderLine).where(OrderLine.id == line.id, OrderLine.links_opened < value["n"])
        .values(links_opened=value["n"]).execution_options(synchronize_session=False)
    ).rowcount != 1
    if spent:
        db.session.rollback()
        raise Forbidden("This download link has been used. Please press Download again on your order page.")
    db.session.commit()
    return private_files.send(book.file_key, book.file_name or "book", book.file_type or "application/octet-stream")


def demo_file(book: Book) -> tuple[bytes, str]:
    """A tiny generated file for a demo book (a one-page PDF, or a short silent MP3), with its extension."""
    if book.format == "Audiobook":
        # ID3v2 header, then silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each).
        frame = b"\xff\xfb\x90\x64" + bytes(413)
        return b"ID3\x04\x00\x00\x00\x00\x00\x00" + frame * 40, ".mp3"
    title = book.title.encode("latin-1", "replace").replace(b"\\", b"").replace(b"(", b"[").replace(b")", b"]")
    stream = b"BT /F1 18 Tf 50 750 Td (" + title[:80] + b") Tj 0 -30 Td (Demo e-book of the bookstore) Tj ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue(), ".pdf"


def store_demo_file(book: Book) -> None:
    """Give a demo digital book its generated file (no commit: the seeding commits)."""
    data, extension = demo_file(book)
    content_type = KINDS["mp3" if extension == ".mp3" else "pdf"][0]
    key = f"books/{book.id}/demo{extension}"
    private_files.put(key, data, content_type)
    book.file_key, book.file_type, book.file_size = key, content_type, len(data)
    book.file_name = _download_name(book, extension)
