"""The shopper's catalogue: listing, filtering, sorting, shelves, categories and suggestions."""
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.sql import operators

from bookstore.errors import NotFound
from bookstore.extensions import db
from bookstore.models import Book, Category, ExamSubject, book_exams, book_subjects, medium_from_text, parse_id
from bookstore.services import exams, listing_anchors, listing_counts, search
from bookstore.services.paging import Page, count
from bookstore.services.rows import by_id

# Sorts whose keys never change for a book: deep pages of them start from remembered anchors.
_FIXED_KEY_SORTS = ("newest", "oldest")

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
    """A category by its lower-cased name as in the shop's links ('i.i.t', product §3.1) or by slug ('iit')."""
    key = name_or_slug.strip().lower()
    return db.session.scalar(select(Category).where(or_(func.lower(Category.name) == key, Category.slug == key)))


def _category_filter(statement, name_or_slug: str | None):
    if not name_or_slug:
        return statement
    category = find_category(name_or_slug)
    # An unknown category matches nothing rather than failing: links may be stale.
    return statement.where(Book.category_id == (category.id if category else -1))


def list_books(*, search_text=None, **filters) -> Page:
    """One page of visible books (or, for administrators, all books) matching the filters, with the total.

    `exam` and `subject` are slugs (a subject without an exam matches that subject in every exam);
    unknown ones, like unknown categories, match nothing.

    Totals are exact, except a search's above search.exact_total_limit() (1,000) matches: its count
    stops there (or at the end of the page asked, if later) and the page says the total is approximate.
    A search that finds nothing as typed is corrected for typos (search.corrected); if the corrected
    search finds books, the page holds them and names it in `did_you_mean`.
    """
    found = _list_books(search_text=search_text, **filters)
    if not search_text or found.total:
        return found
    correction = search.corrected(search_text)
    if correction is None:
        return found
    again = _list_books(search_text=correction, **filters)
    if not again.total:
        return found
    again.did_you_mean = correction
    return again


def _list_books(*, page: int, limit: int, category=None, search_text=None, min_price=None, max_price=None,
                rating=None, format=None, language=None, sort_by=None, include_archived: bool = False,
                exam=None, subject=None, medium=None, edition=None) -> Page:
    """list_books for the text as given."""
    shelf = find_category(category) if category else None
    found = search.match(search_text) if search_text else None
    tagged = exams.find_exam(exam) if exam else None
    subjects = exams.subject_ids(subject, tagged) if subject else []
    if (category and shelf is None) or (search_text and found is None) or (exam and tagged is None) \
            or (subject and not subjects):
        return Page([], 0, page, limit, total_is_approximate=False)
    # SQLite's full-text index holds only visible books; asking books whether each match is
    # archived would make SQLite walk every book.
    # With archived books included, SQLite's index still finds visible books only (ISBNs find all).
    hide_archived = not include_archived and not (found is not None and found.only_visible_books)
    base = [Book.archived.is_(False)] if hide_archived else []
    if shelf is not None:
        base.append(Book.category_id == shelf.id)
    filters = _filters(min_price, max_price, rating, format, language) + _exam_filters(
        tagged, subjects, medium, edition)
    offset = (page - 1) * limit
    if found is None:
        sort_by = sort_by or "newest"
        ids = select(Book.id).where(*base, *filters)
        if include_archived:
            total = count(ids)
        elif filters:
            version = _filter_versions(shelf)
            list_key = ("filtered", shelf and shelf.id, min_price, max_price, rating, format,
                        language.strip().lower() if language else None, tagged and tagged.id,
                        tuple(subjects), medium, edition)
            total = listing_counts.total(ids, list_key, version)
        else:
            total, version = _visible_count_and_version(shelf)
            if sort_by in _FIXED_KEY_SORTS:
                anchored = listing_anchors.page_from_anchor(_SORTS[sort_by], base, (sort_by, shelf and shelf.id),
                                                            version, limit, offset)
                if anchored is not None:
                    return Page(_books_in_order(anchored), total, page, limit, total_is_approximate=False)
        return Page(_page_of(ids, _SORTS[sort_by], limit, offset, total), total, page, limit,
                    total_is_approximate=False)
    # A search counts up to the exact-total limit, or to the end of the page asked if that is further:
    # one match more than that says there are more, without visiting every match's row.
    enough = max(search.exact_total_limit(), offset + limit)
    # Among all visible books a one-word search's count may come from the words' counts (search.Match).
    all_visible = hide_archived and shelf is None and not filters
    if sort_by or not found.tier_count:
        # Sorted, or an ISBN (its book, or the ISBN-10 and -13 forms of it) newest first.
        counted = found.count(within=(*base, *filters), at_most=enough + 1, all_visible=all_visible)
        order = _SORTS[sort_by] if sort_by else (Book.id.desc(),)
        # An approximate total is no end to read backwards from.
        ids = select(Book.id).where(*base, *filters, found.condition)
        books = _page_of(ids, order, limit, offset, counted if counted <= enough else None)
    else:
        # Ranked tier by tier, each read newest first until the page is full (search.Match).
        books, counted = found.best_page(limit, offset, _books_in_order, within=(*base, *filters),
                                         count_at_most=enough + 1, all_visible=all_visible)
    if counted > enough:
        return Page(books, enough, page, limit, total_is_approximate=True)
    return Page(books, counted, page, limit, total_is_approximate=False)


def _filters(min_price, max_price, rating, format, language) -> list:
    sale_price = func.coalesce(Book.discounted_price_paise, Book.price_paise)
    filters = [
        sale_price >= min_price if min_price is not None else None,
        sale_price <= max_price if max_price is not None else None,
        Book.rating >= rating if rating is not None else None,
        Book.format == format if format else None,
        _language_filter(language) if language else None,
    ]
    return [condition for condition in filters if condition is not None]


def _language_filter(language: str):
    """A language naming a medium ("Hindi", "Hindi Medium", "English & Hindi") filters by medium, so a
    book whose admin typed "Hindi Medium" is found; any other language compares the text itself."""
    medium = medium_from_text(language)
    if medium is not None:
        return Book.medium == medium
    return func.lower(Book.language) == language.strip().lower()


def _exam_filters(exam, subject_ids: list[int], medium, edition) -> list:
    filters = []
    if exam is not None:
        filters.append(Book.id.in_(select(book_exams.c.book_id).where(book_exams.c.exam_id == exam.id)))
    if subject_ids:
        filters.append(Book.id.in_(select(book_subjects.c.book_id).where(book_subjects.c.subject_id.in_(subject_ids))))
    if medium:
        filters.append(Book.medium == medium)
    if edition is not None:
        filters.append(Book.edition_year == edition)
    return filters


# Below this offset a page of whole rows costs no more than a page of ids (search's tier pages too).
SHALLOW_OFFSET = search.SHALLOW_OFFSET


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
    if offset < SHALLOW_OFFSET:
        # A first page reads its rows straight away: one statement instead of two.
        return list(db.session.scalars(ids.with_only_columns(Book).order_by(*order).limit(limit).offset(offset)))
    return _books_in_order(list(db.session.scalars(ids.order_by(*order).limit(limit).offset(offset))))


def _reverse(clause):
    """`x DESC` for `x ASC` and the other way round (every sort ends with the unique id, so exact)."""
    return clause.element.asc() if clause.modifier is operators.desc_op else clause.element.desc()


def _books_in_order(ids: list[int]) -> list[Book]:
    books = {book.id: book for book in db.session.scalars(select(Book).where(Book.id.in_(ids)))}
    return [books[book_id] for book_id in ids if book_id in books]


def _visible_count_and_version(shelf: Category | None) -> tuple[int, int]:
    """How many visible books a category (or the shop) has, and its listing version (both kept by triggers)."""
    if shelf is not None:
        return shelf.book_count, shelf.listing_version
    total, version = db.session.execute(select(func.coalesce(func.sum(Category.book_count), 0),
                                               func.coalesce(func.sum(Category.listing_version), 0))).one()
    return total, version


def _filter_versions(shelf: Category | None) -> tuple[int, int]:
    """The versions a filtered total of a category (or the shop) is valid for (listing_counts)."""
    if shelf is not None:
        return shelf.listing_version, shelf.filter_version
    return tuple(db.session.execute(select(func.coalesce(func.sum(Category.listing_version), 0),
                                           func.coalesce(func.sum(Category.filter_version), 0))).one())


def get_book(book_id: str) -> Book:
    """A visible book by its id, with what its page shows (exams, subjects, editions) loaded in four
    statements. :raise NotFound: for unknown, archived or malformed ids."""
    book = by_id(Book, book_id, options=WHOLE_BOOK)
    if book is None or book.archived:
        raise NotFound("Book not found.")
    return book


# One book whole (BookSchema): the edition it replaces joined, its exams, subjects (with their exams) and newer
# editions one statement each, instead of a lazy load per attribute and per subject's exam.
WHOLE_BOOK = (joinedload(Book.replaces_ref), selectinload(Book.exams),
              selectinload(Book.subjects).joinedload(ExamSubject.exam), selectinload(Book.newer_editions))


def visible_books(book_ids: list[str]) -> list[Book]:
    """The visible books among these ids, in the order asked; unknown, archived and malformed ids are left out."""
    return [book for book in _books_in_order([key for key in map(parse_id, book_ids) if key]) if not book.archived]


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
    """The 18 categories in order (product §3.1), each with its number of visible books (kept by triggers)."""
    return list(db.session.scalars(select(Category).order_by(Category.position)))


# Product §3.4: up to 3 suggestions by title, 2 by author, 2 by category, 2 by description; 8 at most.
SUGGESTION_QUOTAS = (("title", 3), ("author", 2), ("category", 2), ("description", 2))
MAX_SUGGESTIONS = 8
SUGGESTION_CANDIDATES = 200
SUGGESTION_BEST_SELLERS = 500  # PostgreSQL: best sellers checked before a part's word index is asked
# How many of its best candidates a part needs so that its quota is met even when the parts before it
# took some of them: its quota plus theirs (title 3, author 5, category 7, description 9). Asking for
# more would choose the same books: the first fresh ones of a longer list are among these.
_CANDIDATES_NEEDED = {part: sum(quota for _, quota in SUGGESTION_QUOTAS[:n + 1])
                      for n, (part, _) in enumerate(SUGGESTION_QUOTAS)}


@dataclass
class Suggestion:
    book: Book
    matched_on: str
    preview: str | None = None


def _matching_category_ids(query: str) -> list[int]:
    """Categories whose name or slug the query starts ('gate', 'bank', 'med tech')."""
    return [category_id for category_id, name, slug in _category_names()
            if search.matches_words(name, query) or search.matches_words(slug, query)]


def _category_names() -> list[tuple[int, str, str]]:
    # The 18 categories are fixed by the migrations; remember them per database for the process.
    key = str(db.engine.url)
    if key not in _CATEGORY_NAMES:
        _CATEGORY_NAMES[key] = [tuple(row) for row in db.session.execute(
            select(Category.id, Category.name, Category.slug).order_by(Category.position))]
    return _CATEGORY_NAMES[key]


_CATEGORY_NAMES: dict[str, list[tuple[int, str, str]]] = {}


def suggest(query: str) -> list[Suggestion]:
    """Search-as-you-type suggestions, one per book, following the quotas of product §3.4.

    Within one part every prefix match is as good as another, so each part offers its best sellers
    among a bounded set of its matches (search.best_sellers_by_part): the same cost at 1,000 or
    100,000 books.
    """
    if len(query.strip()) < 2 or not search.tokens(query):
        return []
    text_parts = tuple(part for part, _ in SUGGESTION_QUOTAS if part != "category")
    candidates: dict[str, list[int]] = {part: [] for part, _ in SUGGESTION_QUOTAS}
    found = search.best_sellers_by_part(query, text_parts, tuple(_CANDIDATES_NEEDED[part] for part in text_parts),
                                        SUGGESTION_CANDIDATES, SUGGESTION_BEST_SELLERS)
    for part, book_id in found:
        candidates[part].append(book_id)
    category_ids = _matching_category_ids(query)
    if category_ids:
        candidates["category"] = list(db.session.scalars(
            select(Book.id).where(Book.archived.is_(False), Book.category_id.in_(category_ids))
            .order_by(Book.copies_sold.desc(), Book.id).limit(_CANDIDATES_NEEDED["category"])))
    chosen: list[tuple[str, int]] = []
    seen: set[int] = set()
    for part, quota in SUGGESTION_QUOTAS:
        fresh = [book_id for book_id in candidates[part] if book_id not in seen][:quota]
        seen.update(fresh)
        chosen += [(part, book_id) for book_id in fresh]
    chosen = chosen[:MAX_SUGGESTIONS]
    books = {book.id: book for book in _books_in_order([book_id for _, book_id in chosen])}
    labelled = [(_matched_on(books[book_id], query, found_by, category_ids), book_id)
                for found_by, book_id in chosen if book_id in books]
    return [Suggestion(books[book_id], part,
                       search.preview(books[book_id].description, query) if part == "description" else None)
            for part, book_id in labelled]


def _matched_on(book: Book, query: str, found_by: str, category_ids: list[int]) -> str:
    """The first of title, author, category and description that the query matches in this book (a
    book another part's quota took is still labelled by its title when the title matches)."""
    for part in ("title", "author"):
        if part == found_by or search.matches_words(getattr(book, part) or "", query):
            return part
    if found_by == "category" or book.category_id in category_ids:
        return "category"
    return found_by
