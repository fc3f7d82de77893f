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
_ISBN = re.compile(r"^(?:[0-9]{9}[0-9X]|[0-9]{13})$")

# SQLite: the FTS5 table (columns in the migration); queries need only its rowid, the book's id.
book_search = table("book_search", column("rowid"))



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
# edition before an old one). Unlike a per-row score (bm25, ts_rank), which needs every match
# scored and sorted, a tier is its own query read in id order that stops after one page, so a page
# costs about the same at 1,000 or 100,000 books.


@dataclass
class Match:
    """A search as a WHERE condition on Book, and its relevance tiers (conditions too, best first)."""

    condition: ColumnElement
    tiers: tuple[ColumnElement, ...] = ()  # disjoint, together the condition; none for an ISBN
    fts_query: str | None = None  # SQLite: the full-text query of every match
    fts_tiers: tuple[str, ...] = ()  # SQLite: the full-text query of each tier, for index-only reads

    @property
    def only_visible_books(self) -> bool:
        """SQLite's index holds only books shoppers can see, so its matches need no archived check."""
        return self.fts_query is not None

    def _in_index_alone(self, within: tuple) -> bool:
        # SQLite with nothing else to check: count and page in the full-text table itself.
        return self.fts_query is not None and not within

    def count(self, tier: int | None = None, within: tuple = ()) -> int:
        """How many books match (or fall in one tier) among those the `within` conditions allow."""
        if self._in_index_alone(within):
            return db.session.scalar(_FTS_COUNT, {"q": self.fts_query if tier is None else self.fts_tiers[tier]})
        condition = self.condition if tier is None else self.tiers[tier]
        return db.session.scalar(select(func.count()).select_from(Book).where(*within, condition))

    def _tier_page(self, tier: int, limit: int, offset: int, within: tuple, with_total: bool):
        """(ids of one tier's slice, newest first; the total of all matches when asked and known)."""
        if not self._in_index_alone(within):
            return list(db.session.scalars(select(Book.id).where(*within, self.tiers[tier])
                                           .order_by(Book.id.desc()).limit(limit).offset(offset))), None
        if not with_total:
            params = {"q": self.fts_tiers[tier], "limit": limit, "offset": offset}
            return list(db.session.scalars(_TIER_PAGE, params)), None
        rows = db.session.execute(_TIER_PAGE_AND_TOTAL, {"q": self.fts_tiers[tier], "all": self.fts_query,
                                                         "limit": limit, "offset": offset}).all()
        return [row.rowid for row in rows], rows[0].total if rows else None

    def best_page(self, limit: int, offset: int, within: tuple = ()) -> tuple[list[int], int]:
        """(ids of one page of matches, best first; how many match) among the books the `within`
        conditions allow. A first page of title matches on SQLite with nothing else to check is one
        statement."""
        ids: list[int] = []
        total = None if self._in_index_alone(within) else self.count(within=within)
        before = 0  # matches in the tiers already passed
        for n in range(len(self.tiers)):
            start = offset + len(ids) - before
            rows, found_total = self._tier_page(n, limit - len(ids), start, within, with_total=total is None)
            total = total if found_total is None else found_total
            ids += rows
            if len(ids) == limit or n == len(self.tiers) - 1:
                break
            # This tier ends before the page does: how many it holds places the next one.
            before += start + len(rows) if rows or start == 0 else self.count(n, within)
        return ids, total if total is not None else self.count(within=within)


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


def _matches_tsquery(query: str) -> ColumnElement:
    return literal_column("books.search_vector").op("@@")(func.to_tsquery("simple", query))


def match(text: str) -> Match | None:
    """How to find books matching shopper text; None if it holds no words."""
    isbn = isbn_digits(text)
    words = tokens(text)
    if not words and not isbn:
        return None
    if isbn:
        # An ISBN matches exactly, as stored (digits only), whether typed with hyphens or as ISBN-10.
        candidates = {isbn}
        if len(isbn) == 10:
            candidates.add(isbn10_to_13(isbn))
        return Match(Book.isbn.in_(candidates))
    if _is_postgres():
        def every_word(weights: str = "") -> str:
            return "(" + " & ".join(f"{w}:*{weights}" for w in words) + ")"
        anywhere, in_title, in_title_or_author = every_word(), every_word("A"), every_word("AB")
        tiers = (in_title, f"{in_title_or_author} & !{in_title}", f"{anywhere} & !{in_title_or_author}")
        return Match(_matches_tsquery(anywhere), tiers=tuple(_matches_tsquery(tier) for tier in tiers))
    anywhere = " ".join(f'"{w}"*' for w in words)
    in_title, in_title_or_author = f"title : ({anywhere})", f"{{title author}} : ({anywhere})"
    fts_tiers = (in_title, f"{in_title_or_author} NOT {in_title}", f"({anywhere}) NOT {in_title_or_author}")
    return Match(_in_index(anywhere), tiers=tuple(_in_index(tier) for tier in fts_tiers),
                 fts_query=anywhere, fts_tiers=fts_tiers)


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
            # The part's own word index (migration 0004): the whole-book vector's weights would be
            # checked row by row, over every book whose any part matches.
            params[f"q{n}"] = " & ".join(f"{w}:*" for w in words)
            candidates = (f"SELECT id FROM books WHERE to_tsvector('simple', {part}) @@ to_tsquery('simple', :q{n})"
                          f" AND archived IS false LIMIT :window")
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
