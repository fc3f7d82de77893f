"""Kits: several books sold together at a kit price. A kit's stock is computed from its books, never stored."""
import re
import unicodedata

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError

from bookstore.errors import Conflict, NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.models import Book, Exam, Kit, KitBook, User, parse_id
from bookstore.services import audit
from bookstore.services.paging import Page, paginate
from bookstore.services.rows import by_id

MAX_BOOKS = 20  # a kit is a study set, not a shelf
MAX_COPIES = 10  # of one book in one kit


def stock_of(kit: Kit) -> int:
    """Whole kits the shelves hold: the scarcest book's stock over its copies per kit; 0 for a kit without
    books or with a book no longer sold."""
    if not kit.items or any(item.book.archived for item in kit.items):
        return 0
    return min(item.book.stock // item.quantity for item in kit.items)


def books_total_paise(kit: Kit) -> int:
    """What the kit's books cost bought one by one (each at its sale price)."""
    return sum(item.book.sale_price_paise * item.quantity for item in kit.items)


def saving_paise(kit: Kit) -> int:
    """What the kit saves against its books bought one by one (0 when it saves nothing)."""
    return max(books_total_paise(kit) - kit.price_paise, 0)


def for_sale(exam_slug: str | None = None) -> list[Kit]:
    """The kits the shop sells (not archived), by name; only one exam's with `exam_slug`."""
    statement = select(Kit).where(Kit.archived.is_(False))
    if exam_slug:
        statement = statement.join(Exam, Kit.exam_id == Exam.id).where(Exam.slug == exam_slug)
    return list(db.session.scalars(statement.order_by(Kit.name, Kit.id)).unique())


def get_kit(slug: str) -> Kit:
    """A kit the shop sells, by slug. :raise NotFound:"""
    kit = db.session.scalar(select(Kit).where(Kit.slug == slug, Kit.archived.is_(False)))
    if kit is None:
        raise NotFound("Kit not found.")
    return kit


def find_any(kit_id: str) -> Kit:
    """Any kit, archived too, by id (the admin's). :raise NotFound:"""
    kit = by_id(Kit, kit_id)
    if kit is None:
        raise NotFound("Kit not found.")
    return kit


def admin_list(page: int, limit: int, search: str | None = None, status: str | None = None) -> Page:
    """Kits for the admin, newest first: by name or slug, active or archived."""
    statement = select(Kit)
    if search:
        pattern = f"%{search.lower()}%"
        statement = statement.where(or_(Kit.name.ilike(pattern), Kit.slug.ilike(pattern)))
    if status == "active":
        statement = statement.where(Kit.archived.is_(False))
    elif status == "archived":
        statement = statement.where(Kit.archived.is_(True))
    return paginate(statement, page, limit, Kit.created_at.desc(), Kit.id.desc())


def slugify(text: str) -> str:
    """'JEE Main 2027: Complete Set' -> 'jee-main-2027-complete-set' (letters of any script kept)."""
    text = unicodedata.normalize("NFKC", text).lower()
    return re.sub(r"[^\w]+", "-", text).strip("-_")[:200] or "kit"


def create(data: dict, actor: User) -> Kit:
    """A new kit, audited as kit.create. :raise ValidationFailed: :raise Conflict: the slug is taken."""
    if not data.get("slug"):
        data = {**data, "slug": slugify(data["name"])}
    return _save(Kit(description="", archived=False), data, actor, "kit.create", None)


def change(kit_id: str, data: dict, actor: User) -> Kit:
    """Change or archive a kit (fields not sent keep their values), audited as kit.update.
    :raise NotFound: :raise ValidationFailed: :raise Conflict:"""
    kit = find_any(kit_id)
    return _save(kit, data, actor, "kit.update", _snapshot(kit))


def _books(lines: list[dict]) -> list[KitBook]:
    """The kit's books from the admin's lines. :raise ValidationFailed: none, repeats, unknown, archived, or an
    e-book or audiobook."""
    if not lines:
        raise ValidationFailed({"books": ["A kit needs at least one book."]})
    # A change loads its lines partially (a PUT's schema is partial all the way down): fill them in here.
    if any(not line.get("book") for line in lines):
        raise ValidationFailed({"books": ["Each line needs a book."]})
    lines = [{"quantity": 1, **line} for line in lines]
    keys = [parse_id(line["book"]) for line in lines]
    if len(set(keys)) != len(keys):
        raise ValidationFailed({"books": ["Each book may appear only once; change its quantity instead."]})
    found = {book.id: book for book in db.session.scalars(select(Book).where(Book.id.in_([k for k in keys if k])))}
    for key, line in zip(keys, lines):
        book = found.get(key)
        if book is None:
            raise ValidationFailed({"books": [f"Unknown book: {line['book']}."]})
        if book.archived:
            raise ValidationFailed({"books": [f"'{book.title}' is archived and cannot be sold in a kit."]})
        if book.is_digital:
            # A kit travels in a parcel and its lines have no downloads: its e-book would never reach the buyer.
            raise ValidationFailed({"books": [f"‘{book.title}’ is an {book.format.lower()}: e-books and audiobooks "
                                              "are downloaded, not shipped, so they cannot be sold in a kit. "
                                              "Sell it on its own."]})
    return [KitBook(book_id=key, quantity=line["quantity"], position=n) for n, (key, line) in enumerate(zip(keys, lines))]


def _apply(kit: Kit, data: dict) -> None:
    data = dict(data)
    if "books" in data:
        wanted = _books(data.pop("books"))
        kit.items = []
        db.session.flush()  # the old rows go before the new ones take their keys
        kit.items = wanted
    if "exam" in data:
        exam_id = data.pop("exam")
        exam = db.session.get(Exam, parse_id(exam_id)) if exam_id and parse_id(exam_id) else None
        if exam_id and exam is None:
            raise ValidationFailed({"exam": ["Unknown exam."]})
        kit.exam_id = exam.id if exam else None
    slug = data.pop("slug", None)
    if slug:
        kit.slug = slug.lower()
    for name, value in data.items():
        setattr(kit, name, value)


def _save(kit: Kit, data: dict, actor: User, action: str, before: dict | None) -> Kit:
    """Apply the changes and commit them with their audit entry; the unique slug settles a repeat."""
    try:
        with db.session.no_autoflush:
            _apply(kit, data)
        db.session.add(kit)
        db.session.flush()
    except ValidationFailed:
        db.session.rollback()
        raise
    except IntegrityError:
        db.session.rollback()
        raise Conflict("A kit with this slug exists already.") from None
    audit.record(actor, action, "kit", kit.id, before, _snapshot(kit))
    db.session.commit()
    return kit


def _snapshot(kit: Kit) -> dict:
    return {"name": kit.name, "slug": kit.slug, "description": kit.description, "price_paise": kit.price_paise,
            "archived": kit.archived, "exam_id": kit.exam_id,
            "books": [[item.book_id, item.quantity] for item in kit.items]}


def in_cart(keys: list[int]) -> dict[int, Kit]:
    """The kits of a cart that the shop still sells, by id (checkout and the quote)."""
    if not keys:
        return {}
    return {kit.id: kit for kit in db.session.scalars(
        select(Kit).where(Kit.id.in_(keys), Kit.archived.is_(False))).unique()}
