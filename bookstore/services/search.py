"""Full-text search over the catalogue: SQLite FTS5 or PostgreSQL tsvector behind one interface.

The index itself (FTS5 table `book_search`, or the `books.search_vector` column) is kept current
by database triggers created in the migrations, so no code path can forget to update it.
Shopper text never reaches the query syntax: it is cut into word tokens first, each matched as a
prefix, so "phys" finds Physics and no input can break the query.
"""
import re
import unicodedata
from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, column, func, literal_column, or_, table

from bookstore.extensions import db
from bookstore.models import Book

MAX_TOKENS = 8
_ISBN = re.compile(r"^(?:[0-9]{9}[0-9X]|[0-9]{13})$")

# SQLite: columns of the FTS5 table, in order, with their bm25 weights. Title and author
# weigh far more so their matches rank first.
FTS_COLUMNS = ("title", "author", "isbn", "publisher", "category", "tags", "description")
FTS_WEIGHTS = (100.0, 50.0, 5.0, 2.0, 5.0, 3.0, 1.0)
book_search = table("book_search", column("rowid"), *(column(name) for name in FTS_COLUMNS))

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


@dataclass
class Match:
    """A search's WHERE clause and relevance ORDER BY, ready to add to a Book query."""

    condition: ColumnElement
    relevance: ColumnElement | None
    needs_fts_join: bool


def match(text: str, column_name: str | None = None) -> Match | None:
    """How to find books matching shopper text (optionally in one part of the book); None if no words."""
    isbn = isbn_digits(text) if column_name is None else None
    words = tokens(text)
    if not words and not isbn:
        return None
    if isbn:
        # An ISBN is an exact look-up, whichever way it was written.
        candidates = {isbn}
        if len(isbn) == 10:
            candidates.add(isbn10_to_13(isbn))
        return Match(Book.isbn.in_(candidates), None, False)
    if _is_postgres():
        weights = PG_WEIGHTS[column_name] if column_name else ""
        query = func.to_tsquery("simple", " & ".join(f"{w}:*{weights}" for w in words))
        vector = literal_column("books.search_vector")
        return Match(vector.op("@@")(query), func.ts_rank(vector, query).desc(), False)
    phrase = " ".join(f'"{w}"*' for w in words)
    fts_query = f"{column_name} : ({phrase})" if column_name else phrase
    condition = literal_column("book_search").op("MATCH")(fts_query)
    relevance = func.bm25(literal_column("book_search"), *FTS_WEIGHTS)
    return Match(condition, relevance, True)


def apply(statement, found: Match):
    """Add a Match to a select() over Book."""
    if found.needs_fts_join:
        statement = statement.join(book_search, book_search.c.rowid == Book.id)
    return statement.where(found.condition)


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
