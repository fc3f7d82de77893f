"""The shopper's catalogue: listing, filtering, sorting, shelves, categories and suggestions."""
from dataclasses import dataclass

from sqlalchemy import func, or_, select

from bookstore.errors import NotFound
from bookstore.extensions import db
from bookstore.models import Book, Category, parse_id
from bookstore.services import search
from bookstore.services.paging import Page, count

_SORTS = {
    "newest": (Book.created_at.desc(), Book.id.desc()),
    "oldest": (Book.created_at.asc(), Book.id.asc()),
    "price-low": (func.coalesce(Book.discounted_price_paise, Book.price_paise).asc(), Book.id.asc()),
    "price-high": (func.coalesce(Book.discounted_price_paise, Book.price_paise).desc(), Book.id.desc()),
    "title": (Book.title.asc(), Book.id.asc()),
    "bestselling": (Book.copies_sold.desc(), Book.id.desc()),
    "rating": (Book.rating.desc(), Book.id.desc()),
}


def _visible():
    """Shoppers never see archived books."""
    return select(Book).where(Book.archived.is_(False))


def find_category(name_or_slug: str) -> Category | None:
    """A category by its lower-cased name as in the spec's links ('i.i.t') or by slug ('iit')."""
    key = name_or_slug.strip().lower()
    return db.session.scalar(select(Category).where(or_(func.lower(Category.name) == key, Category.slug == key)))


def _category_filter(statement, name_or_slug: str | None):
    if not name_or_slug:
        return statement
    category = find_category(name_or_slug)
    # An unknown category matches nothing rather than failing: links may be stale.
    return statement.where(Book.category_id == (category.id if category else -1))


def list_books(*, page: int, limit: int, category=None, search_text=None, min_price=None, max_price=None,
               rating=None, format=None, language=None, sort_by=None) -> Page:
    """One page of visible books matching the filters, with the total for pagination."""
    statement = _category_filter(_visible(), category)
    relevance = None
    if search_text:
        found = search.match(search_text)
        if found is None:
            return Page([], 0, page, limit)
        statement = search.apply(statement, found)
        relevance = found.relevance
    sale_price = func.coalesce(Book.discounted_price_paise, Book.price_paise)
    if min_price is not None:
        statement = statement.where(sale_price >= min_price)
    if max_price is not None:
        statement = statement.where(sale_price <= max_price)
    if rating is not None:
        statement = statement.where(Book.rating >= rating)
    if format:
        statement = statement.where(Book.format == format)
    if language:
        statement = statement.where(func.lower(Book.language) == language.strip().lower())

    total = count(statement)
    if sort_by:
        order = _SORTS[sort_by]
    elif relevance is not None:
        order = (relevance, Book.id.desc())
    else:
        order = _SORTS["newest"]
    items = db.session.scalars(statement.order_by(*order).limit(limit).offset((page - 1) * limit)).all()
    return Page(list(items), total, page, limit)


def get_book(book_id: str) -> Book:
    """A visible book by its id. :raise NotFound: for unknown, archived or malformed ids."""
    key = parse_id(book_id)
    book = db.session.get(Book, key) if key else None
    if book is None or book.archived:
        raise NotFound("Book not found.")
    return book


def _shelf(order, limit: int, category: str | None, in_stock_only: bool = False) -> list[Book]:
    statement = _category_filter(_visible(), category)
    if in_stock_only:
        statement = statement.where(Book.stock > 0)
    return list(db.session.scalars(statement.order_by(*order).limit(limit)))


def featured(limit: int = 8, category: str | None = None) -> list[Book]:
    """The home page's picks: the best-rated books that can be bought today."""
    return _shelf((Book.rating.desc(), Book.copies_sold.desc(), Book.id.desc()), limit, category, in_stock_only=True)


def bestsellers(limit: int = 8, category: str | None = None) -> list[Book]:
    """Books by copies sold."""
    return _shelf(_SORTS["bestselling"], limit, category)


def new_releases(limit: int = 8, category: str | None = None) -> list[Book]:
    """Books by publication date, newest first."""
    return _shelf((Book.publication_date.desc(), Book.id.desc()), limit, category)


def categories_with_counts() -> list[Category]:
    """The 18 categories in the spec's order, each with its number of visible books."""
    counts = dict(db.session.execute(
        select(Book.category_id, func.count()).where(Book.archived.is_(False)).group_by(Book.category_id)
    ).all())
    categories = list(db.session.scalars(select(Category).order_by(Category.position)))
    for category in categories:
        category.book_count = counts.get(category.id, 0)
    return categories


# Spec §9: up to 3 suggestions by title, 2 by author, 2 by category, 2 by description; 8 at most.
SUGGESTION_QUOTAS = (("title", 3), ("author", 2), ("category", 2), ("description", 2))
MAX_SUGGESTIONS = 8


@dataclass
class Suggestion:
    book: Book
    matched_on: str
    preview: str | None = None


def _category_suggestions(query: str):
    """Best sellers of the categories whose name matches the query ('gate', 'bank'), or (None, None)."""
    categories = db.session.scalars(select(Category)).all()
    matching = [c.id for c in categories if search.matches_words(c.name, query) or search.matches_words(c.slug, query)]
    if not matching:
        return None, None
    return _visible().where(Book.category_id.in_(matching)), (Book.copies_sold.desc(), Book.id)


def suggest(query: str) -> list[Suggestion]:
    """Search-as-you-type suggestions, one per book, following the spec's quotas."""
    if len(query.strip()) < 2:
        return []
    suggestions: list[Suggestion] = []
    seen: set[int] = set()
    if not search.tokens(query):
        return []
    for part, quota in SUGGESTION_QUOTAS:
        if part == "category":
            statement, order = _category_suggestions(query)
            if statement is None:
                continue
        else:
            found = search.match(query, column_name=part)
            statement = search.apply(_visible(), found)
            order = (found.relevance, Book.id)
        if seen:
            statement = statement.where(Book.id.not_in(seen))
        for book in db.session.scalars(statement.order_by(*order).limit(quota)):
            seen.add(book.id)
            text = search.preview(book.description, query) if part == "description" else None
            suggestions.append(Suggestion(book, part, text))
    return suggestions[:MAX_SUGGESTIONS]
