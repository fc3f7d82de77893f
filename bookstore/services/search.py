"""Full-text search over the catalogue: SQLite FTS5 or PostgreSQL tsvector behind one interface.

The index itself (FTS5 table `book_search`, or the `books.search_vector` column) is kept current
by database triggers created in the migrations, so no code path can forget to update it.
Shopper text never reaches the query syntax: it is cut into word tokens first, each matched as a
prefix, so "phys" finds Physics and no input can break the query.
"""
import re
import unicodedata
from dataclasses import dataclass

from sqlalchemy import ColumnElement, case, column, func, literal_column, select, table
from sqlalchemy import text as sql_text

from bookstore.extensions import db
from bookstore.models import Book

MAX_TOKENS = 8
_ISBN = re.compile(r"^(?:[0-9]{9}[0-9X]|[0-9]{13})$")

# SQLite: the FTS5 table (columns in the migration); queries need only its rowid, the book's id.
book_search = table("book_search", column("rowid"))

# PostgreSQL: which tsvector weight holds which part of the book (see the migration).
PG_WEIGHTS = {"title": "A", "author": "B", "description": "D"}


def _is_word_character(character: str) -> bool:
    # Letters, numbers and combining marks: Hindi vowel signs belong to their word, as they do
    # for the FTS5 tokenizer (categories 'L* N* Co M*') and PostgreSQL's parser.
    return unicodedata.category(character)[0] in "LMN"


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens of shopper text, at most MAX_TOKENS of at most 40 characters."""
    words, current = [], []
    for character in text.lower():
        if _is_word_character(character):
            current.append(character)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return [word[:40] for word in words][:MAX_TOKENS]


def isbn_digits(text: str) -> str | None:
    """The ISBN in text written with or without hyphens and spaces, as stored; else None."""
    compact = re.sub(r"[\s\-]", "", text).upper()
    return compact if _ISBN.match(compact) else None


def isbn10_to_13(isbn10: str) -> str:
    """ISBN-10 -> ISBN-13 (978 prefix, recomputed check digit)."""
    core = "978" + isbn10[:9]
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(core))
    return core + str((10 - total % 10) % 10)


def _is_postgres() -> bool:
    return db.engine.dialect.name == "postgresql"


# Relevance (decisions §4: title and author matches first) comes in tiers: every word in the
# title; else every word in the title or author; else anywhere. Newest first within a tier (a new
# edition before an old one). Unlike a per-row score (bm25, ts_rank), a tier is its own index
# query, so a page costs about the same at 1,000 or 100,000 books.


@dataclass
class Match:
    """A search as a WHERE condition on Book, plus how to order a select by relevance."""

    condition: ColumnElement
    tier: ColumnElement | None = None  # PostgreSQL: the book's relevance tier (0 best)
    fts_query: str | None = None  # SQLite: the full-text query of every match
    tier_queries: tuple[str, ...] = ()  # SQLite: the full-text query of each tier, best first

    @property
    def only_visible_books(self) -> bool:
        """SQLite's index holds only books shoppers can see, so its matches need no archived check."""
        return self.fts_query is not None

    def count(self, fts_query: str | None = None, within: tuple = ()) -> int:
        """How many books match (or match one tier's query), among those `within` conditions on Book
        hold; without conditions counted in the index alone (SQLite)."""
        query = fts_query or self.fts_query
        if not within:
            return db.session.scalar(_FTS_COUNT, {"q": query})
        return db.session.scalar(select(func.count()).select_from(Book).where(*within, _in_index(query)))

    def best_page(self, limit: int, offset: int, within: tuple = ()) -> tuple[list[int], int]:
        """(ids of one page of matches, best first; how many match) among the books `within`
        conditions on Book allow (SQLite). A first page of title matches is one statement when
        nothing else filters, two when something does."""
        ids: list[int] = []
        total = None if not within else self.count(within=within)
        before = 0  # matches in the tiers already passed
        for n, tier_query in enumerate(self.tier_queries):
            start = offset + len(ids) - before
            wanted = limit - len(ids)
            if within:
                rows = list(db.session.scalars(select(Book.id).where(*within, _in_index(tier_query))
                                               .order_by(Book.id.desc()).limit(wanted).offset(start)))
            elif total is None:
                page = db.session.execute(_TIER_PAGE_AND_TOTAL, {"q": tier_query, "all": self.fts_query,
                                                                 "limit": wanted, "offset": start}).all()
                total = page[0].total if page else None
                rows = [row.rowid for row in page]
            else:
                rows = list(db.session.scalars(_TIER_PAGE, {"q": tier_query, "limit": wanted, "offset": start}))
            ids += rows
            if len(ids) == limit or n == len(self.tier_queries) - 1:
                break
            # This tier ends before the page does: how many it holds places the next one.
            before += start + len(rows) if rows or start == 0 else self.count(tier_query, within)
        return ids, total if total is not None else self.count()

    def order_by_relevance(self, statement):
        """(statement, order clauses) ranking the matches, best first (PostgreSQL; SQLite pages with best_page)."""
        statement = statement.where(self.condition)
        if self.tier is not None:
            return statement, (self.tier, Book.id.desc())
        return statement, (Book.id.desc(),)


_FTS_COUNT = sql_text("SELECT count(*) FROM book_search WHERE book_search MATCH :q")
_TIER_PAGE = sql_text("SELECT rowid FROM book_search WHERE book_search MATCH :q"
                      " ORDER BY rowid DESC LIMIT :limit OFFSET :offset")
# The count is an uncorrelated subquery: computed once, in the same round trip.
_TIER_PAGE_AND_TOTAL = sql_text(
    "SELECT rowid, (SELECT count(*) FROM book_search WHERE book_search MATCH :all) AS total"
    " FROM book_search WHERE book_search MATCH :q ORDER BY rowid DESC LIMIT :limit OFFSET :offset")


def _in_index(fts_query: str) -> ColumnElement:
    # The full-text index answers first and the books are looked up by id: asking SQLite to join
    # instead lets it walk every book and run the MATCH once per row (seconds at 100,000 books).
    return Book.id.in_(select(book_search.c.rowid).where(literal_column("book_search").op("MATCH")(fts_query)))


def match(text: str) -> Match | None:
    """How to find books matching shopper text; None if it holds no words."""
    isbn = isbn_digits(text)
    words = tokens(text)
    if not words and not isbn:
        return None
    if isbn:
        # An ISBN is an exact look-up, whichever way it was written.
        candidates = {isbn}
        if len(isbn) == 10:
            candidates.add(isbn10_to_13(isbn))
        return Match(Book.isbn.in_(candidates))
    if _is_postgres():
        vector = literal_column("books.search_vector")

        def matches(weights: str = ""):
            return vector.op("@@")(func.to_tsquery("simple", " & ".join(f"{w}:*{weights}" for w in words)))
        tier = case((matches("A"), 0), (matches("AB"), 1), else_=2)
        return Match(matches(), tier=tier)
    anywhere = " ".join(f'"{w}"*' for w in words)
    in_title, in_title_or_author = f"title : ({anywhere})", f"{{title author}} : ({anywhere})"
    tier_queries = (in_title, f"{in_title_or_author} NOT {in_title}", f"({anywhere}) NOT {in_title_or_author}")
    return Match(_in_index(anywhere), fts_query=anywhere, tier_queries=tier_queries)


def best_sellers_by_part(text: str, parts: tuple[str, ...], per_part: int, window: int) -> list[tuple[str, int]]:
    """(part, book id) pairs: for each part of the book in turn, the best sellers among the first
    `window` books whose that part matches the text as typed (prefixes). One round trip for all parts,
    and a constant cost whatever the catalogue's size. Only visible books."""
    words = tokens(text)
    if not words:
        return []
    postgres = _is_postgres()
    arms, params = [], {"per_part": per_part, "window": window}
    for n, part in enumerate(parts):
        if postgres:
            params[f"q{n}"] = " & ".join(f"{w}:*{PG_WEIGHTS[part]}" for w in words)
            candidates = (f"SELECT id FROM books WHERE search_vector @@ to_tsquery('simple', :q{n})"
                          f" AND NOT archived LIMIT :window")
        else:
            params[f"q{n}"] = f"{part} : (" + " ".join(f'"{w}"*' for w in words) + ")"
            candidates = f"SELECT rowid FROM book_search WHERE book_search MATCH :q{n} LIMIT :window"
        arms.append(f"SELECT * FROM (SELECT '{part}' AS part, {n} AS arm, id, copies_sold FROM books"
                    f" WHERE id IN ({candidates}) ORDER BY copies_sold DESC, id LIMIT :per_part) AS arm{n}")
    statement = sql_text(" UNION ALL ".join(arms) + " ORDER BY arm, copies_sold DESC, id")
    return [(row.part, row.id) for row in db.session.execute(statement, params)]


def matches_words(text: str, query: str) -> bool:
    """Whether every word of the query starts a word of text (the index's rule, for short lists)."""
    words = tokens(text)
    return all(any(word.startswith(wanted) for word in words) for wanted in tokens(query))


def preview(text: str, query: str, width: int = 50) -> str:
    """About `width` characters of text around the first word of the query (spec §9)."""
    words = tokens(query)
    lowered = text.lower()
    start = min((i for i in (lowered.find(w) for w in words) if i >= 0), default=0)
    start = max(0, start - 10)
    snippet = text[start:start + width].strip()
    return ("…" if start > 0 else "") + snippet + ("…" if start + width < len(text) else "")
