"""Administrators' digital book files: upload (multipart, checked by content) and removal (guarded: /api/admin)."""
from flask import current_app, request

from bookstore.blueprint import Blueprint
from bookstore.errors import ValidationFailed
from bookstore.request_input import body_limit
from bookstore.schemas.book import BookReplySchema
from bookstore.security import current_user
from bookstore.services import digital

blp = Blueprint("admin_book_files", __name__, url_prefix="/api/admin/books",
                description="Administration: e-book and audiobook files")

# Room for the multipart envelope around the file itself.
_ENVELOPE_BYTES = 64 * 1024


def _upload_limit() -> int:
    """Audiobooks run to hundreds of megabytes: this route alone takes DIGITAL_FILE_MAX_MB."""
    return current_app.config["DIGITAL_FILE_MAX_BYTES"] + _ENVELOPE_BYTES


@blp.route("/<string:book_id>/file", methods=["PUT"])
@body_limit(_upload_limit)
@blp.response(200, BookReplySchema)
@blp.doc(requestBody={"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "properties": {"file": {"type": "string", "format": "binary"}}, "required": ["file"]}}}})
def upload_file(book_id):
    """Upload an e-book's (PDF, EPUB) or audiobook's (MP3, M4B) file to private storage, replacing the last;
    checked by its bytes, audited."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise ValidationFailed({"file": ["Choose the book's file (PDF, EPUB, MP3 or M4B)."]})
    book = digital.upload(book_id, upload.stream, upload.filename, current_user())
    return {"message": f"The file of {book.title} is saved.", "book": book}


@blp.route("/<string:book_id>/file", methods=["DELETE"])
@blp.response(200, BookReplySchema)
def remove_file(book_id):
    """Remove a digital book's file (it can't be bought until a new one is uploaded); audited."""
    book = digital.remove(book_id, current_user())
    return {"message": f"The file of {book.title} is removed.", "book": book}
