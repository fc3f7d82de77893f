"""The shop's own book management (administrators): add, edit, change covers, delete or archive, restore.

Each use case is one transaction that carries its audit entry. Cover files are written before the
commit (a row never points at a missing file) and removed after it (a file is never removed while
a committed row still shows it); files a failed transaction wrote are cleaned up again.
"""
import hashlib

from sqlalchemy import delete, exists, or_, select, update
from sqlalchemy.exc import IntegrityError

from bookstore.errors import Conflict, NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.models import DIGITAL_FORMATS, Book, KitBook, OrderLine, OrderLineBook, StockMovement, User
from bookstore.services import alerts, audit, exams, images, stock, storage
from bookstore.services.catalogue import find_category
from bookstore.services.paging import Page, paginate
from bookstore.services.rows import by_id

ISBN_TAKEN = "A book with this ISBN already exists."
# What the audit log shows of a book (money in paise, as stored).
AUDITED = ("title", "author", "description", "price_paise", "discounted_price_paise", "stock", "isbn", "publisher",
           "publication_date", "language", "pages", "format", "dimensions", "weight", "tags", "archived",
           "medium", "edition_year", "edition_number", "replaces_id")


def snapshot(book: Book) -> dict:
    """The audited fields of a book, JSON-safe."""
    values = {name: getattr(book, name) for name in AUDITED}
    values["tags"] = list(values["tags"] or [])
    values["category"] = book.category.name if book.category else None
    values["exams"] = [exam.slug for exam in book.exams]
    values["subjects"] = [f"{subject.exam.slug}/{subject.slug}" for subject in book.subjects]
    return audit.json_safe(values)


_CATALOGUE_FIELDS = ("exam_ids", "subject_ids", "replaces_id", "medium")


def _catalogue_values(data: dict, book: Book | None = None) -> dict:
    """Book attributes from the form's medium, exam, subject and replaced-edition fields (popped from
    `data`), checked before anything is written. :raise ValidationFailed: unknown ids.
    """
    sent = {name: data.pop(name) for name in _CATALOGUE_FIELDS if name in data}
    values = {}
    if "exam_ids" in sent or "subject_ids" in sent:
        current = (book.exams, book.subjects) if book is not None else ([], [])
        values["exams"], values["subjects"] = exams.resolve_tags(sent.get("exam_ids"), sent.get("subject_ids"),
                                                                 current)
    if "replaces_id" in sent:
        replaces_id = sent["replaces_id"]
        values["replaces"] = (exams.find_book_to_replace(replaces_id, book and book.id)
                              if replaces_id is not None else None)
    if "medium" in sent:
        # Set after the language, so an explicit medium wins over the one a language names.
        values["medium"] = sent["medium"]
    return values


class StaleEdit(Exception):
    """The admin's form was opened on another version of the book (copies sold, price changed)."""

    def __init__(self, book: Book):
        super().__init__("stale edit")
        self.book = book


def version_tag(book: Book) -> str:
    """The book's ETag: changes whenever its stock, prices or any edit change, so a form opened before
    copies were sold cannot put the old stock back."""
    changed = book.updated_at.isoformat() if book.updated_at else ""
    raw = f"{book.id}:{book.stock}:{book.price_paise}:{book.discounted_price_paise}:{changed}"
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:20] + '"'


def find_any(book_id: str) -> Book:
    """A book by id, archived or not. :raise NotFound:"""
    book = by_id(Book, book_id)
    if book is None:
        raise NotFound("Book not found.")
    return book


def _category(name_or_slug: str):
    category = find_category(name_or_slug)
    if category is None:
        raise ValidationFailed({"category": ["Choose one of the shop's 18 categories."]})
    return category


def _refuse_taken_isbn(isbn: str | None, book_id: int | None = None) -> None:
    if not isbn:
        return
    statement = select(Book.id).where(Book.isbn == isbn)
    if book_id is not None:
        statement = statement.where(Book.id != book_id)
    if db.session.scalar(statement.limit(1)) is not None:
        raise Conflict(ISBN_TAKEN)


def create_book(data: dict, actor: User) -> Book:
    """Add a book with its cover. :raise ValidationFailed: :raise PayloadTooLarge: :raise Conflict: ISBN taken."""
    data = dict(data)
    category = _category(data.pop("category"))
    catalogue_values = _catalogue_values(data)
    cover = images.process_cover(data.pop("image_url"))  # BookInputSchema refused a missing or blank one
    _refuse_taken_isbn(data.get("isbn"))
    # A printed book's ledger opens with the copies the form gave (product §5.9); an e-book has none to count.
    copies = 0 if data.get("format") in DIGITAL_FORMATS else data.pop("stock", 0)
    book = Book(**data, category=category, cover_key=cover.key, thumbnail_key=cover.thumbnail_key)
    for name, value in catalogue_values.items():
        setattr(book, name, value)
    db.session.add(book)
    with _cover_files(cover):
        db.session.flush()
        stock.move(book.id, copies, "opening", _cause(actor))
        db.session.refresh(book)
        audit.record(actor, "book.create", "book", book.id, None, snapshot(book))
        alerts.awaken([book.replaces_id])  # a newer edition of a book shoppers are watching
        db.session.commit()
    return book


def update_book(book_id: str, data: dict, actor: User, if_match: str | None = None) -> Book:
    """Edit a book; fields not sent keep their values, a data URL replaces the cover. With `if_match`
    (the ETag the form was opened with) the edit applies only to that version of the book.

    :raise NotFound: :raise ValidationFailed: :raise PayloadTooLarge: :raise Conflict: ISBN taken.
    :raise StaleEdit: the book changed since the form was opened; nothing is written.
    """
    book = find_any(book_id)
    if if_match is not None:
        # Held until the commit, so no checkout takes copies between this check and the write.
        book = db.session.scalar(select(Book).where(Book.id == book.id).with_for_update()
                                 .execution_options(populate_existing=True))
        if if_match.strip() not in (version_tag(book), "*"):
            db.session.rollback()
            raise StaleEdit(find_any(book_id))
    data = dict(data)
    category = _category(data.pop("category")) if "category" in data else None
    catalogue_values = _catalogue_values(data, book)
    cover = _new_cover(book, data.pop("image_url", None))
    price = data.get("price_paise", book.price_paise)
    discounted = data.get("discounted_price_paise", book.discounted_price_paise)
    if discounted is not None and discounted >= price:
        raise ValidationFailed({"discountedPrice": ["Discounted price must be below the price."]})
    if "isbn" in data:
        _refuse_taken_isbn(data["isbn"], book.id)
    before, old_keys = snapshot(book), (book.cover_key, book.thumbnail_key)
    counted = data.pop("stock", None)
    for name, value in (data | catalogue_values).items():
        setattr(book, name, value)
    moved = counted is not None and counted != book.stock and not book.is_digital
    if counted is not None and book.is_digital:
        book.stock = counted  # no copies to count (product §7.11): no ledger
    elif moved:
        _count_correction(book, counted, actor)
    if category is not None:
        book.category = category
    after = snapshot(book)
    if after != before:
        action = {(False, True): "book.archive", (True, False): "book.restore"}.get(
            (before["archived"], after["archived"]), "book.update")
        audit.record(actor, action, "book", book.id, before, after)
    if cover is not None and cover.key != book.cover_key:
        book.cover_key, book.thumbnail_key = cover.key, cover.thumbnail_key
        audit.record(actor, "book.cover", "book", book.id, {"cover": old_keys[0]}, {"cover": cover.key})
    # Back on sale, or named as a newer edition: the job checks which alerts are due (a restock woke them
    # with its ledger entry already).
    woken = moved and before["stock"] == 0 < counted
    alerts.awaken([None if woken else book.id, book.replaces.id if book.replaces else None])
    with _cover_files(cover):
        db.session.commit()
    if cover is not None:
        _remove_unused(old_keys, book.id)
    return book


def _cause(actor: User, **values) -> stock.Cause:
    return stock.Cause(actor=f"admin:{actor.id}", actor_id=actor.id, **values)


def _count_correction(book: Book, counted: int, actor: User) -> None:
    """The stock field of the form is a count: the difference is an adjustment (product §5.9), applied to
    the current stock so copies sold meanwhile are never put back. :raise Conflict: below zero."""
    stock.adjust(book.id, counted - book.stock, "count_correction", _cause(actor, note="Stock edited on the book form."))
    db.session.refresh(book, ["stock", "copies_sold"])


def _new_cover(book: Book, image_url: str | None) -> images.StoredCover | None:
    """The processed new cover, or None to keep the current one. :raise ValidationFailed:"""
    text = (image_url or "").strip()
    if text and images.is_data_url(text):
        return images.process_cover(text)
    # The edit form sends back the URL it showed; anything else would be a link we will not fetch.
    if text and text not in (storage.media_url(book.cover_key), storage.media_url(book.thumbnail_key)):
        raise ValidationFailed({"imageUrl": [images.NOT_A_DATA_URL]})
    if not book.cover_key:
        raise ValidationFailed({"imageUrl": [images.COVER_REQUIRED]})
    return None


def remove_book(book_id: str, actor: User) -> bool:
    """Delete a book never ordered (and its cover files), or archive one that was; True if archived.

    :raise NotFound:
    """
    book = find_any(book_id)
    if _in_orders(book.id):
        return _archive(book, actor)
    keys, before = (book.cover_key, book.thumbnail_key), snapshot(book)
    audit.record(actor, "book.delete", "book", book.id, before, None)
    try:
        # A newer edition naming this one simply stops naming it.
        db.session.execute(update(Book).where(Book.replaces_id == book.id).values(replaces_id=None))
        db.session.execute(delete(Book).where(Book.id == book.id))
        db.session.commit()
    except IntegrityError:
        # An order for it arrived meanwhile: order history needs the row, so archive instead.
        db.session.rollback()
        return _archive(find_any(book_id), actor)
    _remove_unused(keys, None)
    return False


def restore_book(book_id: str, actor: User) -> Book:
    """Put an archived book back on sale as it is (a book on sale is left unchanged, with no audit entry).

    Unlike an edit, it checks none of the form's rules, so a book without a cover can come back too.
    :raise NotFound:
    """
    book = find_any(book_id)
    if book.archived:
        before = snapshot(book)
        book.archived = False
        audit.record(actor, "book.restore", "book", book.id, before, snapshot(book))
        alerts.awaken([book.id, book.replaces_id])
        db.session.commit()
    return book


def _archive(book: Book, actor: User) -> bool:
    if not book.archived:
        before = snapshot(book)
        book.archived = True
        audit.record(actor, "book.archive", "book", book.id, before, snapshot(book))
        db.session.commit()
    return True


def _in_orders(book_pk: int) -> bool:
    """Ordered (alone or in a kit) or in a kit: history and kits need the row, so it is archived, not deleted."""
    return db.session.scalar(select(
        exists().where(OrderLine.book_id == book_pk) | exists().where(OrderLineBook.book_id == book_pk)
        | exists().where(KitBook.book_id == book_pk)))


class _cover_files:
    """Write a new cover's files before the commit; if the transaction fails, remove them again."""

    def __init__(self, cover: images.StoredCover | None):
        self.cover = cover

    def __enter__(self):
        if self.cover is not None:
            images.store(self.cover)

    def __exit__(self, kind, error, _traceback):
        if kind is None:
            return False
        db.session.rollback()
        if self.cover is not None:
            _remove_unused((self.cover.key, self.cover.thumbnail_key), None)
        if isinstance(error, IntegrityError) and "isbn" in str(error.orig).lower():
            # Two admins saving one ISBN at once: the unique index refuses the second.
            raise Conflict(ISBN_TAKEN) from error
        return False


def _remove_unused(keys, book_pk: int | None) -> None:
    """Delete cover files no book shows any more and no order line of this book still links to."""
    for key in filter(None, keys):
        used = db.session.scalar(select(exists().where(or_(Book.cover_key == key, Book.thumbnail_key == key))))
        if not used and book_pk is not None:
            used = db.session.scalar(select(exists().where(
                OrderLine.book_id == book_pk, OrderLine.image_url == storage.media_url(key))))
        if not used:
            storage.delete(key)


def stock_movements(book_id: str, page: int, limit: int) -> tuple[Book, Page]:
    """A book's stock ledger, newest first (archived books too). :raise NotFound:"""
    book = find_any(book_id)
    rows = paginate(select(StockMovement).where(StockMovement.book_id == book.id), page, limit,
                    StockMovement.id.desc())
    return book, rows


def adjust_stock(book_id: str, quantity: int, reason: str, note: str | None, actor: User) -> StockMovement:
    """Record an administrator's adjustment with its reason (product §5.9), audited; the ledger row.

    :raise NotFound: :raise ValidationFailed: 0 copies, or an e-book. :raise Conflict: below 0.
    """
    book = find_any(book_id)
    if quantity == 0:
        raise ValidationFailed({"quantity": ["Give the copies to add (+) or take off (-): not 0."]})
    if book.is_digital:
        raise ValidationFailed({"quantity": ["E-books and audiobooks have no copies to count."]})
    before = book.stock
    after = stock.adjust(book.id, quantity, reason, _cause(actor, note=(note or "").strip() or None))
    audit.record(actor, "book.stock_adjust", "book", book.id, {"stock": before},
                 {"stock": after, "reason": reason, "note": note})
    movement = db.session.scalar(select(StockMovement).where(StockMovement.book_id == book.id)
                                 .order_by(StockMovement.id.desc()).limit(1))
    db.session.commit()
    return movement
