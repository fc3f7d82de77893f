"""Full-text search over the catalogue: SQLite FTS5 or PostgreSQL tsvector behind one interface.

The index itself (FTS5 table `book_search`, or the `books.search_vector` column) is kept current
by database triggers created in the migrations, so no code path can forget to update it.
Shopper text never reaches the query syntax: it is cut into word tokens first, each matched as a
prefix, so "phys" finds Physics and no input can break the query.
"""
import re
import unicodedata
from dataclasses import dataclass

from sqlalchemy import ColumnElement, column, func, literal_column, select, table
from sqlalchemy import text as sql_text

from bookstore.extensions import db
from bookstore.models import Book

MAX_TOKENS = 8
# A plain search ranks its newest RANK_WINDOW matches before the rest (see Match.best_ids).
RANK_WINDOW = 1000
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
    """A search as a WHERE condition on Book, plus how to order a select by relevance."""

    condition: ColumnElement
    ranked_rows: object | None  # SQLite: subquery (rowid, score); lower score is better
    pg_rank: ColumnElement | None  # PostgreSQL: ts_rank expression; higher is better
    fts_match: ColumnElement | None = None  # SQLite: the MATCH on the full-text table itself

    @property
    def only_visible_books(self) -> bool:
        """SQLite's index holds only books shoppers can see, so its matches need no archived check."""
        return self.fts_match is not None

    def count(self) -> int:
        """How many books match, counted in the index alone (only when only_visible_books)."""
        return db.session.scalar(select(func.count()).select_from(book_search).where(self.fts_match))

    def best_ids(self, limit: int, offset: int, window: int = RANK_WINDOW) -> list[int]:
        """Ids of one page of matches, best first, ranked in the index alone (only when only_visible_books).

        Scoring every match costs in proportion to their number (4,600 books say "chemistry" in a
        100,000-book shop). So the newest `window` matches are ranked first, then the older ones:
        a shopper's first pages cost the same at any catalogue size, and paging stays consistent.
        """
        newest = db.session.scalar(select(book_search.c.rowid).where(self.fts_match)
                                   .order_by(book_search.c.rowid.desc()).limit(1).offset(window - 1))
        if newest is None:  # fewer matches than the window: rank them all
            return self._ranked_ids(self.fts_match, limit, offset)
        ids = []
        if offset < window:
            ids = self._ranked_ids(self.fts_match & (book_search.c.rowid >= newest), min(limit, window - offset), offset)
        if offset + limit > window:
            older = self.fts_match & (book_search.c.rowid < newest)
            ids += self._ranked_ids(older, limit - len(ids), max(0, offset - window))
        return ids

    @staticmethod
    def _ranked_ids(condition, limit: int, offset: int) -> list[int]:
        score = func.bm25(literal_column("book_search"), *FTS_WEIGHTS)
        return list(db.session.scalars(select(book_search.c.rowid).where(condition)
                                       .order_by(score, book_search.c.rowid.desc()).limit(limit).offset(offset)))

    def order_by_relevance(self, statement):
        """(statement, order clauses) ranking the matches, best first."""
        if self.ranked_rows is not None:
            # The join keeps only matches, so the condition is not repeated (MATCH would run twice).
            ranked = self.ranked_rows
            return statement.join(ranked, ranked.c.rowid == Book.id), (ranked.c.score, Book.id.desc())
        statement = statement.where(self.condition)
        if self.pg_rank is not None:
            return statement, (self.pg_rank.desc(), Book.id.desc())
        return statement, (Book.id.desc(),)


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
        return Match(Book.isbn.in_(candidates), None, None)
    if _is_postgres():
        weights = PG_WEIGHTS[column_name] if column_name else ""
        query = func.to_tsquery("simple", " & ".join(f"{w}:*{weights}" for w in words))
        vector = literal_column("books.search_vector")
        return Match(vector.op("@@")(query), None, func.ts_rank(vector, query))
    phrase = " ".join(f'"{w}"*' for w in words)
    matches = literal_column("book_search").op("MATCH")(f"{column_name} : ({phrase})" if column_name else phrase)
    # The full-text index answers first and the books are looked up by id: asking SQLite to join
    # instead lets it walk every book and run the MATCH once per row (seconds at 100,000 books).
    condition = Book.id.in_(select(book_search.c.rowid).where(matches))
    score = func.bm25(literal_column("book_search"), *FTS_WEIGHTS).label("score")
    ranked = select(book_search.c.rowid.label("rowid"), score).where(matches).subquery("ranked")
    return Match(condition, ranked, None, matches)


def first_matches(found: Match, limit: int) -> ColumnElement:
    """The search limited to its first `limit` matches: a constant cost, whatever the catalogue's size."""
    if found.fts_match is not None:
        return Book.id.in_(select(book_search.c.rowid).where(found.fts_match).limit(limit))
    return Book.id.in_(select(Book.id).where(found.condition).limit(limit))


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
