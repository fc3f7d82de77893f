"""The shopper's catalogue: listing, filtering, sorting, shelves, categories and suggestions."""
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.sql import operators

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
               rating=None, format=None, language=None, sort_by=None, include_archived: bool = False) -> Page:
    """One page of visible books (or, for administrators, all books) matching the filters, with the total."""
    shelf = find_category(category) if category else None
    found = search.match(search_text) if search_text else None
    if (category and shelf is None) or (search_text and found is None):
        return Page([], 0, page, limit)
    # SQLite's full-text index holds only visible books; asking books whether each match is
    # archived would make SQLite walk every book.
    # With archived books included, SQLite's index still finds visible books only (ISBNs find all).
    hide_archived = not include_archived and not (found is not None and found.only_visible_books)
    base = [Book.archived.is_(False)] if hide_archived else []
    if shelf is not None:
        base.append(Book.category_id == shelf.id)
    filters = _filters(min_price, max_price, rating, format, language)
    offset = (page - 1) * limit
    if found is None:
        ids = select(Book.id).where(*base, *filters)
        total = count(ids) if filters or include_archived else _visible_count(shelf)
        return Page(_page_of(ids, _SORTS[sort_by or "newest"], limit, offset, total), total, page, limit)
    if sort_by:
        ids = select(Book.id).where(*base, *filters, found.condition)
        total = count(ids)
        return Page(_page_of(ids, _SORTS[sort_by], limit, offset, total), total, page, limit)
    if found.only_visible_books and not base and not filters:
        # A plain search: counted and ranked in the full-text index alone.
        return Page(_books_in_order(found.best_ids(limit, offset)), found.count(), page, limit)
    ids = select(Book.id).where(*base, *filters)
    ranked, order = found.order_by_relevance(ids)
    return Page(_page_of(ranked, order, limit, offset), count(ids.where(found.condition)), page, limit)


def _filters(min_price, max_price, rating, format, language) -> list:
    sale_price = func.coalesce(Book.discounted_price_paise, Book.price_paise)
    filters = [
        sale_price >= min_price if min_price is not None else None,
        sale_price <= max_price if max_price is not None else None,
        Book.rating >= rating if rating is not None else None,
        Book.format == format if format else None,
        func.lower(Book.language) == language.strip().lower() if language else None,
    ]
    return [condition for condition in filters if condition is not None]


def _page_of(ids, order, limit: int, offset: int, total: int | None = None) -> list[Book]:
    """Page through ids alone (index-only), then load just those rows: deep pages stay cheap.

    Past the middle of a known total, the page is read from the other end, in reverse order:
    the last page of 100,000 books skips 12 index entries instead of 99,988.
    """
    if total is not None and offset > total // 2:
        from_end = max(0, total - offset - limit)
        size = min(limit, total - offset)
        if size <= 0:
            return []
        backwards = [_reverse(clause) for clause in order]
        found = list(db.session.scalars(ids.order_by(*backwards).limit(size).offset(from_end)))
        return _books_in_order(found[::-1])
    return _books_in_order(list(db.session.scalars(ids.order_by(*order).limit(limit).offset(offset))))


def _reverse(clause):
    """`x DESC` for `x ASC` and the other way round (every sort ends with the unique id, so exact)."""
    return clause.element.asc() if clause.modifier is operators.desc_op else clause.element.desc()


def _books_in_order(ids: list[int]) -> list[Book]:
    books = {book.id: book for book in db.session.scalars(select(Book).where(Book.id.in_(ids)))}
    return [books[book_id] for book_id in ids if book_id in books]


def _visible_count(shelf: Category | None) -> int:
    if shelf is not None:
        return shelf.book_count
    return db.session.scalar(select(func.coalesce(func.sum(Category.book_count), 0)))


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
    """The 18 categories in the spec's order, each with its number of visible books (kept by triggers)."""
    return list(db.session.scalars(select(Category).order_by(Category.position)))


# Spec §9: up to 3 suggestions by title, 2 by author, 2 by category, 2 by description; 8 at most.
SUGGESTION_QUOTAS = (("title", 3), ("author", 2), ("category", 2), ("description", 2))
MAX_SUGGESTIONS = 8
SUGGESTION_CANDIDATES = 200


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
            # Within one part every prefix match is as good as another: offer the best sellers among
            # the first matches, which costs the same at 1,000 or 100,000 books.
            found = search.match(query, column_name=part)
            statement = select(Book).where(search.first_matches(found, SUGGESTION_CANDIDATES))
            if not found.only_visible_books:
                statement = statement.where(Book.archived.is_(False))
            order = (Book.copies_sold.desc(), Book.id)
        if seen:
            statement = statement.where(Book.id.not_in(seen))
        for book in db.session.scalars(statement.order_by(*order).limit(quota)):
            seen.add(book.id)
            text = search.preview(book.description, query) if part == "description" else None
            suggestions.append(Suggestion(book, part, text))
    return suggestions[:MAX_SUGGESTIONS]
