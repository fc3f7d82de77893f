"""Full-text search over the catalogue: SQLite FTS5 or PostgreSQL tsvector behind one interface.

The index itself (FTS5 table `book_search`, or the `books.search_vector` column) is kept current
by database triggers created in the migrations, so no code path can forget to update it.
Shopper text never reaches the query syntax: it is cut into word tokens first, each matched as a
prefix, so "phys" finds Physics and no input can break the query.
"""
import functools
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import current_app
from sqlalchemy import ColumnElement, case, column, func, literal, literal_column, select, table
from sqlalchemy import text as sql_text

from bookstore.extensions import db
from bookstore.memory import BoundedMemory
from bookstore.models import Book
from bookstore.services import sound_alike, transliteration

MAX_TOKENS = 8
# Below this offset a page of whole rows costs no more than a page of ids.
SHALLOW_OFFSET = 100
# Product §3.3: a search's total is exact up to 1,000 matches; above that the shop says
# "1,000+", so counting stops there (a count visits every match's row on PostgreSQL). Tests lower
# it with the SEARCH_EXACT_TOTAL_LIMIT setting.
EXACT_TOTAL_LIMIT = 1000
_ISBN = re.compile(r"^(?:[0-9]{9}[0-9X]|[0-9]{13})$")

# SQLite: the FTS5 table (columns in the migration); queries need only its rowid, the book's id.
book_search = table("book_search", column("rowid"))
# PostgreSQL: how many visible books hold each word of the search vectors (migration 0009).
search_word_counts = table("search_word_counts", column("word"), column("books"))



def _is_word_character(character: str) -> bool:
    # Letters, numbers and combining marks: Hindi vowel signs belong to their word, as they do
    # for the FTS5 tokenizer (categories 'L* N* Co M*') and PostgreSQL's parser.
    return unicodedata.category(character)[0] in "LMN"


# Names written with symbols that both indexes would cut to a letter ("c++" to "c"): the index
# triggers (migration 0013) store them as these words, and shopper text is read the same way.
SYMBOL_WORDS = {"c++": "cplusplus", "c#": "csharp", "f#": "fsharp", ".net": "dotnet"}
_SYMBOLS = re.compile(r"(?<![\w+#.])(c\+\+|c#|f#|\.net)(?![^\W\d]|[+#])")


# ASCII text (most of it) is split by one regular expression: there, letters and digits are exactly
# the word characters of _is_word_character.
_ASCII_WORD = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens of shopper text, at most MAX_TOKENS of at most 40 characters; "c++",
    "c#", "f#" and ".net" are words of their own (SYMBOL_WORDS)."""
    return list(_tokens(text))


@functools.lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str, ...]:
    # Remembered: suggestions split the same best sellers' titles and category names again and again.
    lowered = _SYMBOLS.sub(lambda found: f" {SYMBOL_WORDS[found.group(1)]} ", text.lower())
    if lowered.isascii():
        return tuple(word[:40] for word in _ASCII_WORD.findall(lowered)[:MAX_TOKENS])
    words, current = [], []
    for character in lowered:
        if _is_word_character(character):
            current.append(character)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return tuple(word[:40] for word in words[:MAX_TOKENS])


def isbn_digits(text: str) -> str | None:
    """The ISBN in text written with or without hyphens and spaces, as stored; else None."""
    compact = re.sub(r"[\s\-]", "", text).upper()
    return compact if _ISBN.match(compact) else None


def isbn10_to_13(isbn10: str) -> str:
    """ISBN-10 -> ISBN-13 (978 prefix, recomputed check digit)."""
    core = "978" + isbn10[:9]
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(core))
    return core + str((10 - total % 10) % 10)


def exact_total_limit() -> int:
    """Up to how many matches a search's total is exact (see EXACT_TOTAL_LIMIT)."""
    return int(current_app.config.get("SEARCH_EXACT_TOTAL_LIMIT", EXACT_TOTAL_LIMIT))


def _is_postgres() -> bool:
    return db.engine.dialect.name == "postgresql"


# Relevance (product §3.3: title and author matches first) comes in tiers: every word in the
# title; else every word in the title or author; else anywhere. Newest first within a tier (a new
# edition before an old one). Unlike a per-row score (bm25, ts_rank), which needs every match
# scored and sorted, a tier is its own query read in id order that stops after one page, so a page
# costs about the same at 1,000 or 100,000 books.


@dataclass
class Match:
    """A search as a WHERE condition on Book, and its relevance tiers (conditions too, best first)."""

    # Given on PostgreSQL and for an ISBN; on SQLite made from fts_query and fts_tiers when first asked
    # for (see condition and tiers): a plain search reads the full-text table alone and never needs them.
    _condition: ColumnElement | None = None
    _tiers: tuple[ColumnElement, ...] = ()
    fts_query: str | None = None  # SQLite: the full-text query of every match
    fts_tiers: tuple[str, ...] = ()  # SQLite: the full-text query of each tier, for index-only reads
    counted_word: str | None = None  # PostgreSQL, one word: search_word_counts can say "more than n"
    # PostgreSQL: the search is counted_word alone (no synonym, no other spelling), so when one word of
    # search_word_counts starts with it, that word's count is the exact number of matches.
    counted_exactly: bool = False
    from_index: tuple[bool, ...] = ()  # PostgreSQL: tiers to read from the index, never along the key
    # PostgreSQL: a tier's page statement among all visible books, by its shape (tier, limit, offset,
    # count): a remembered Match answers the same page again without building its SQL anew.
    _pages: BoundedMemory = field(default_factory=lambda: BoundedMemory(MAX_REMEMBERED_PAGES), repr=False,
                                  compare=False)

    @property
    def condition(self) -> ColumnElement:
        """The WHERE condition on Book of every match."""
        if self._condition is None:
            # Building the five SQL expressions of a search took 78% of search.match on SQLite.
            self._condition = _in_index(self.fts_query)
        return self._condition

    @property
    def tiers(self) -> tuple[ColumnElement, ...]:
        """The WHERE condition of each relevance tier, best first: disjoint, together the condition;
        none for an ISBN."""
        if len(self._tiers) < len(self.fts_tiers):
            self._tiers = tuple(_in_index(tier) for tier in self.fts_tiers)
        return self._tiers

    @property
    def tier_count(self) -> int:
        """How many tiers there are (0 for an ISBN), without building them."""
        return max(len(self._tiers), len(self.fts_tiers))

    @property
    def only_visible_books(self) -> bool:
        """SQLite's index holds only books shoppers can see, so its matches need no archived check."""
        return self.fts_query is not None

    def _in_index_alone(self, within: tuple) -> bool:
        # SQLite with nothing else to check: count and page in the full-text table itself.
        return self.fts_query is not None and not within

    def _matching(self, tier: int | None, within: tuple, at_most: int | None):
        """The ids of the matches (or of one tier's), as a select; at most at_most of them."""
        ids = select(Book.id).where(*within, self.condition if tier is None else self.tiers[tier])
        return ids if at_most is None else ids.limit(at_most)

    def _count(self, within: tuple, at_most: int | None, all_visible: bool) -> ColumnElement:
        """min(matches, at_most) as an SQL expression. Among all visible books (no other condition),
        a one-word search on PostgreSQL first asks search_word_counts whether a word it starts is
        held by at_most books or more: then so many match, and the index is not read at all (the
        count is a subquery PostgreSQL only runs when it is needed). When the word is the whole
        search (counted_exactly) and starts one word of the index, or none, that word's count (or 0)
        is the exact total: the GIN bitmap of every match, and a visit to each matching row, are
        saved (2.8 of 3.6 ms for "physics" at 10,000 books)."""
        counted = select(func.count()).select_from(self._matching(None, within, at_most).subquery()).scalar_subquery()
        if not (all_visible and self.counted_word and at_most is not None):
            return counted
        words = search_word_counts.c
        known = [(func.max(words.books) >= at_most, literal(at_most))]
        if self.counted_exactly:
            known += [(func.count() == 0, literal(0)), (func.count() == 1, func.max(words.books))]
        # NULL when the word counts cannot tell: then the matches are counted.
        told = (select(case(*known, else_=None)).where(words.word.like(self.counted_word + "%"), words.books > 0)
                .scalar_subquery())
        return func.coalesce(told, counted)

    def count(self, tier: int | None = None, within: tuple = (), at_most: int | None = None,
              all_visible: bool = False) -> int:
        """How many books match (or fall in one tier) among those the `within` conditions allow;
        with at_most, counting stops there, so the answer is min(matches, at_most). all_visible:
        `within` only leaves archived books out."""
        if self._in_index_alone(within):
            return db.session.scalar(_FTS_COUNT, {"q": self.fts_query if tier is None else self.fts_tiers[tier],
                                                  "at_most": -1 if at_most is None else at_most})
        if tier is None:
            return db.session.scalar(select(self._count(within, at_most, all_visible)))
        return db.session.scalar(select(func.count()).select_from(self._matching(tier, within, at_most).subquery()))

    def _tier_page(self, tier: int, limit: int, offset: int, within: tuple, with_total: bool,
                   count_at_most: int | None, all_visible: bool) -> tuple[list, int | None]:
        """(one tier's slice, newest first; with_total: how many match in all, up to count_at_most,
        if the slice is not empty). The slice holds Books when read from books near the start
        (one statement for rows and count), else ids."""
        if self._in_index_alone(within):
            if not with_total:
                params = {"q": self.fts_tiers[tier], "limit": limit, "offset": offset}
                return list(db.session.scalars(_TIER_PAGE, params)), None
            rows = db.session.execute(_TIER_PAGE_AND_TOTAL, {
                "q": self.fts_tiers[tier], "all": self.fts_query, "limit": limit, "offset": offset,
                "at_most": -1 if count_at_most is None else count_at_most}).all()
            return [row.rowid for row in rows], rows[0].total if rows else None
        # PostgreSQL reads a tier's rows (along the primary key or from the index) to check them
        # anyway, so a shallow slice takes whole rows; a deep one, ids, and only its own rows later.
        # all_visible: `within` is the one "not archived" condition, so the shape names the statement.
        shape = (tier, limit, offset, with_total, count_at_most) if all_visible else None
        statement = self._pages.get(shape) if shape else None
        if statement is None:
            statement = self._page_statement(tier, limit, offset, within, with_total, count_at_most, all_visible)
            if shape:
                self._pages.put(shape, statement)
        if not with_total:
            return list(db.session.scalars(statement)), None
        rows = db.session.execute(statement).all()
        return [row[0] for row in rows], rows[0].total if rows else None

    def _page_statement(self, tier: int, limit: int, offset: int, within: tuple, with_total: bool,
                        count_at_most: int | None, all_visible: bool):
        wanted = Book if offset < SHALLOW_OFFSET else Book.id
        # A tier with synonyms is an OR of phrases whose matches PostgreSQL overestimates: walking the
        # key for a page it thinks is near would read every book when none match; "id + 0" is no key.
        newest = (Book.id + 0).desc() if self.from_index and self.from_index[tier] else Book.id.desc()
        statement = select(wanted).where(*within, self.tiers[tier]).order_by(newest).limit(limit).offset(offset)
        if not with_total:
            return statement
        # The count is an uncorrelated subquery: computed once, in the same round trip.
        return statement.add_columns(self._count(within, count_at_most, all_visible).label("total"))

    def best_page(self, limit: int, offset: int, load: Callable[[list[int]], list], within: tuple = (),
                  count_at_most: int | None = None, all_visible: bool = False) -> tuple[list, int]:
        """(one page of matching books, best first; how many match, counting no further than
        count_at_most) among the books the `within` conditions allow (all_visible: they only leave
        archived books out); load(ids) reads books by id, in order. A first page of title matches
        is one statement (books, or SQLite's ids, and count)."""
        found: list = []
        sizes: list[int] = []  # how many of the page each tier gave
        total = None
        before = 0  # matches in the tiers already passed
        for n in range(self.tier_count):
            start = offset + len(found) - before
            rows, found_total = self._tier_page(n, limit - len(found), start, within, total is None, count_at_most,
                                                all_visible)
            total = total if found_total is None else found_total
            found += rows
            sizes.append(len(rows))
            if len(found) == limit or n == self.tier_count - 1:
                break
            # This tier ends before the page does: how many it holds places the next one.
            before += start + len(rows) if rows or start == 0 else self.count(n, within)
        books = found if not found or isinstance(found[0], Book) else load(found)
        if self.tier_count and len(books) == len(found):
            at, ordered = 0, []
            for size in sizes:
                ordered += newest_editions_first(books[at:at + size])
                at += size
            books = ordered
        return books, total if total is not None else self.count(within=within, at_most=count_at_most,
                                                                 all_visible=all_visible)


def newest_editions_first(books: list) -> list:
    """The books in their order, except that a book comes before every book it replaces (its
    replaces_id chain): within one tier a newer edition ranks first even when the edition it replaces
    was added to the shop after it."""
    ordered = list(books)
    moved = True
    # Bounded, so that editions naming each other (a loop an administrator made) cannot spin.
    for _ in range(len(ordered) * len(ordered)):
        if not moved:
            break
        moved = False
        position = {book.id: n for n, book in enumerate(ordered)}
        for n, book in enumerate(ordered):
            older = position.get(book.replaces_id)
            if older is not None and older < n:
                ordered.insert(older, ordered.pop(n))
                moved = True
                break
    return ordered


# LIMIT -1 is no limit in SQLite. A count over a LIMIT stops reading the index there.
_FTS_COUNT = sql_text("SELECT count(*) FROM (SELECT 1 FROM book_search WHERE book_search MATCH :q LIMIT :at_most)")
_TIER_PAGE = sql_text("SELECT rowid FROM book_search WHERE book_search MATCH :q"
                      " ORDER BY rowid DESC LIMIT :limit OFFSET :offset")
# The count is an uncorrelated subquery: computed once, in the same round trip.
_TIER_PAGE_AND_TOTAL = sql_text(
    "SELECT rowid, (SELECT count(*) FROM (SELECT 1 FROM book_search WHERE book_search MATCH :all LIMIT :at_most))"
    " AS total FROM book_search WHERE book_search MATCH :q ORDER BY rowid DESC LIMIT :limit OFFSET :offset")


def _in_index(fts_query: str) -> ColumnElement:
    # The full-text index answers first and the books are looked up by id: asking SQLite to join
    # instead lets it walk every book and run the MATCH once per row (seconds at 100,000 books).
    return Book.id.in_(select(book_search.c.rowid).where(literal_column("book_search").op("MATCH")(fts_query)))


def _matches_tsquery(query: str) -> ColumnElement:
    return literal_column("books.search_vector").op("@@")(func.to_tsquery("simple", query))


# A search is a list of slots, all of which must match; a slot is one or more alternatives (a
# typed word, or a typed phrase and its synonyms), any of which may. Typed words match as
# prefixes ("phys" finds Physics), except numbers and single letters, which match whole ("10" is
# not "100", "c" is not "cplusplus"); synonyms match as whole phrases ("class x" is not "class xi").


@dataclass(frozen=True)
class _Words:
    """Words that must all match: typed (each a prefix if it can be) or a synonym (a whole phrase)."""

    words: tuple[str, ...]
    typed: bool
    phrase: bool = False  # typed words that are a synonym phrase: next to each other, in order


def _as_prefix(word: str) -> bool:
    return len(word) > 1 and not word.isdigit()


def _fts_words(alternative: _Words, prefixes: bool) -> str:
    if not alternative.typed:
        return '"' + " ".join(alternative.words) + '"'
    if alternative.phrase:
        return '"' + " ".join(alternative.words) + '"' + ("*" if prefixes and _as_prefix(alternative.words[-1]) else "")
    each = [f'"{w}"' + ("*" if prefixes and _as_prefix(w) else "") for w in alternative.words]
    return each[0] if len(each) == 1 else "(" + " AND ".join(each) + ")"


def _fts(slots: list[list[_Words]], prefixes: bool = True) -> str:
    """The FTS5 query of every slot; quoted words only, so no shopper text reaches its syntax."""
    rendered = [" OR ".join(_fts_words(a, prefixes) for a in slot) for slot in slots]
    return " AND ".join(r if len(slot) == 1 else f"({r})" for r, slot in zip(rendered, slots))


def _ts_words(alternative: _Words, prefixes: bool, weights: str) -> str:
    def term(word: str, prefix: bool) -> str:
        return f"{word}:*{weights}" if prefix else (f"{word}:{weights}" if weights else word)
    if not alternative.typed:
        # Every word rather than the phrase (<->): GIN cannot check positions, so a phrase of common
        # words ("class x") would recheck thousands of rows.
        return "(" + " & ".join(term(w, False) for w in alternative.words) + ")"
    if alternative.phrase:
        *first, last = alternative.words
        return "(" + " <-> ".join([*(term(w, False) for w in first), term(last, prefixes and not last.isdigit())]) + ")"
    # PostgreSQL's parser keeps "I.I.T" or "B.Com" as one word, so single letters stay prefixes there.
    return "(" + " & ".join(term(w, prefixes and not w.isdigit()) for w in alternative.words) + ")"


def _tsquery(slots: list[list[_Words]], prefixes: bool = True, weights: str = "") -> str:
    """PostgreSQL's tsquery of every slot, each word limited to the weights (A title, B author)."""
    return "(" + " & ".join("(" + " | ".join(_ts_words(a, prefixes, weights) for a in slot) + ")"
                            for slot in slots) + ")"


# Synonyms are read on every search, so each process keeps them all (a few hundred rows) for
# SYNONYMS_CACHE_SECONDS (the SEARCH_SYNONYMS_CACHE_SECONDS setting; 0 reads them every time): an
# administrator's change reaches the process that saved it at once and the others within that time.
SYNONYMS_CACHE_SECONDS = 5.0
_synonyms_cache: dict = {"read_at": None, "by_word": {}}


def forget_synonyms() -> None:
    """Read the synonyms again on the next search (after they were saved)."""
    _synonyms_cache["read_at"] = None
    _matches.clear()


def _synonyms_by_first_word() -> dict[str, dict[tuple[str, ...], set[tuple[str, ...]]]]:
    """first word -> {phrase as words: its group's phrases as words}, from the cache when fresh."""
    from bookstore.models import SearchSynonym

    keep_for = float(current_app.config.get("SEARCH_SYNONYMS_CACHE_SECONDS", SYNONYMS_CACHE_SECONDS))
    read_at, now = _synonyms_cache["read_at"], time.monotonic()
    if read_at is not None and keep_for > 0 and now - read_at < keep_for:
        return _synonyms_cache["by_word"]
    groups: dict[int, list[tuple[str, ...]]] = {}
    for group_no, phrase in db.session.execute(select(SearchSynonym.group_no, SearchSynonym.phrase)):
        groups.setdefault(group_no, []).append(tuple(phrase.split()))
    by_word: dict[str, dict[tuple[str, ...], set[tuple[str, ...]]]] = {}
    for phrases in groups.values():
        for phrase in phrases:
            by_word.setdefault(phrase[0], {}).setdefault(phrase, set()).update(phrases)
    _synonyms_cache.update(read_at=now, by_word=by_word)
    return by_word


def _synonyms(words: list[str]) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    """The synonym phrases (as words) of every phrase starting with one of these words, by phrase."""
    by_word = _synonyms_by_first_word()
    return {phrase: synonyms for word in set(words) for phrase, synonyms in by_word.get(word, {}).items()}


def _slots(words: list[str], synonyms: dict) -> list[list[_Words]]:
    """The typed words as slots; a run of them that is a synonym phrase (the longest first) becomes one
    slot of the typed words and the phrase's synonyms."""
    slots, at = [], 0
    longest = max((len(phrase) for phrase in synonyms), default=0)
    while at < len(words):
        for size in range(min(longest, len(words) - at), 0, -1):
            span = tuple(words[at:at + size])
            if span in synonyms:
                others = sorted(synonyms[span] - {span})
                slots.append([_Words(span, typed=True, phrase=size > 1),
                              *(_Words(phrase, typed=False) for phrase in others)])
                at += size
                break
        else:
            slots.append([_Words((words[at],), typed=True)])
            at += 1
    return slots


# Hindi in both scripts (issue 15): a typed Latin word also matches the Devanagari words of the
# index it may be a spelling of ("itihas", "itihaas": इतिहास), and a Devanagari word the Latin ones
# ("भारत": bharat), as alternatives like synonyms, so the words as typed still rank first. Words are
# compared by transliteration.key, with the typo tolerance of search words. The index's Devanagari
# words are few (one Unicode block, read by range from the vocabulary) and each process keeps them
# keyed for SCRIPT_WORDS_CACHE_SECONDS; the Latin spellings of a Devanagari word are read from its
# first letter's range, as typo corrections are.
SCRIPT_WORDS_CACHE_SECONDS = 60.0
_DEVANAGARI_FIRST, _DEVANAGARI_AFTER = "\u0900", "\u0980"
_devanagari_cache: dict = {"read_at": None, "by_key": {}}
_MAX_OTHER_SPELLINGS = 6


def forget_script_words() -> None:
    """Read the index's Devanagari words again on the next search."""
    _devanagari_cache["read_at"] = None
    _matches.clear()


def _words_in_range(low: str, high: str, shortest: int = 1, longest: int = 40) -> list[str]:
    statement = _VOCAB_POSTGRES if _is_postgres() else _VOCAB_SQLITE
    return [word for word, _books in db.session.execute(statement, {"low": low, "high": high,
                                                                  "shortest": shortest, "longest": longest})]


def _devanagari_by_key() -> dict[str, list[str]]:
    """transliteration.key -> the index's Devanagari words with that key, from the cache when fresh."""
    keep_for = float(current_app.config.get("SEARCH_SCRIPT_WORDS_CACHE_SECONDS", SCRIPT_WORDS_CACHE_SECONDS))
    read_at, now = _devanagari_cache["read_at"], time.monotonic()
    if read_at is not None and keep_for > 0 and now - read_at < keep_for:
        return _devanagari_cache["by_key"]
    by_key: dict[str, list[str]] = {}
    for word in _words_in_range(_DEVANAGARI_FIRST, _DEVANAGARI_AFTER):
        by_key.setdefault(transliteration.key(word), []).append(word)
    _devanagari_cache.update(read_at=now, by_key=by_key)
    return by_key


def _near_keys(wanted: str, keys, exact_only: bool = False) -> list[str]:
    """The keys equal to wanted, else those within the typos a word of its length may have."""
    from rapidfuzz.distance import OSA

    if wanted in keys or exact_only:
        return [wanted] if wanted in keys else []
    typos = 0 if wanted.isdigit() or len(wanted) < 5 else (1 if len(wanted) < 9 else 2)
    return [k for k in keys if typos and abs(len(k) - len(wanted)) <= typos
            and OSA.distance(wanted, k, score_cutoff=typos) <= typos]


def other_script_words(word: str) -> list[str]:
    """The index's words in the other script that this typed word may be a spelling of (and, for a
    Devanagari word, its other Devanagari spellings)."""
    if word.isdigit() or len(word) < 2 or word in SYMBOL_WORDS.values():
        return []
    wanted = transliteration.key(word)
    if not transliteration.is_devanagari(word):
        if not wanted.isascii():
            return []
        by_key = _devanagari_by_key()
        return [w for k in sorted(_near_keys(wanted, by_key)) for w in by_key[k]][:_MAX_OTHER_SPELLINGS]
    # The same word written another way in Devanagari too (हिंदी, हिन्दी).
    variants = [w for w in _devanagari_by_key().get(wanted, []) if w != word]
    latin = transliteration.romanised(word)
    if not latin:
        return variants[:_MAX_OTHER_SPELLINGS]
    first = latin[0]
    by_key: dict[str, list[str]] = {}
    for candidate in _words_in_range(first, _after(first), max(1, len(latin) - 2), len(latin) + 3):
        if not transliteration.is_devanagari(candidate) and not candidate.isdigit():
            by_key.setdefault(transliteration.key(candidate), []).append(candidate)
    return (variants + [w for k in sorted(_near_keys(wanted, by_key)) for w in by_key[k]])[:_MAX_OTHER_SPELLINGS]


def _in_both_scripts(slots: list[list[_Words]]) -> list[list[_Words]]:
    """The slots, each typed word's slot also taking its spellings in the other script."""
    widened = []
    for slot in slots:
        typed = slot[0]
        known = {alternative.words for alternative in slot}
        others = [] if len(typed.words) > 1 else [(w,) for w in other_script_words(typed.words[0])]
        widened.append([*slot, *(_Words(words, typed=False) for words in others if words not in known)])
    return widened


# The same few searches come again and again, and building a search's SQL expressions is a third of its
# Python time. Each process keeps the Match of a text until the synonyms or other-script words it was
# made from are to be read again (their settings; 0 keeps nothing), and forgets them all when either is
# forgotten (an administrator saved synonyms).
MAX_REMEMBERED_PAGES = 32  # page statements per remembered Match, the least recently used forgotten first
_matches = BoundedMemory(1024)  # (database, text) -> (until, match)


def match(text: str) -> Match | None:
    """How to find books matching shopper text; None if it holds no words (see _match)."""
    keeps = (float(current_app.config.get("SEARCH_SYNONYMS_CACHE_SECONDS", SYNONYMS_CACHE_SECONDS)),
             float(current_app.config.get("SEARCH_SCRIPT_WORDS_CACHE_SECONDS", SCRIPT_WORDS_CACHE_SECONDS)))
    if min(keeps) <= 0:
        return _match(text)
    key, now = (str(db.engine.url), text), time.monotonic()
    remembered = _matches.get(key)
    if remembered is not None and now < remembered[0]:
        return remembered[1]
    found = _match(text)
    # Kept until the first of the caches it was made from expires (one never read: from now).
    until = min((now if cache["read_at"] is None else cache["read_at"]) + keep
                for cache, keep in ((_synonyms_cache, keeps[0]), (_devanagari_cache, keeps[1])))
    _matches.put(key, (until, found))
    return found


def _match(text: str) -> Match | None:
    """How to find books matching shopper text; None if it holds no words.

    Tiers, best first: every word in the title as typed (whole words; one-word searches), then as prefixes, then with
    synonyms; then in the title or author; then anywhere. Tiers that would be the same are left out."""
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
    slots = _in_both_scripts(_slots(words, _synonyms(words)))
    # The words as typed: a run that is a synonym phrase must be typed together ("10th class" is not a
    # Class IX book's 10th edition).
    typed = [[slot[0]] for slot in slots]
    with_synonyms = any(len(slot) > 1 for slot in slots)
    # Whole words before prefixes ("java" before "javascript") for a one-word search, where a prefix
    # most often takes in other words; longer searches save the extra query.
    forms = ([(typed, False)] if len(words) == 1 else []) + [(typed, True)] + ([(slots, True)] if with_synonyms else [])
    if _is_postgres():
        titles = list(dict.fromkeys(_tsquery(form, prefixes, "A") for form, prefixes in forms))
        in_title_or_author, anywhere = _tsquery(slots, weights="AB"), _tsquery(slots)
        narrower = [*titles, in_title_or_author, anywhere]
        tiers = [narrower[0]] + [f"{query} & !{narrower[n]}" for n, query in enumerate(narrower[1:])]
        # One typed word: if the word alone starts words 1,000 books hold, its search (synonyms too) has
        # at least as many matches, so search_word_counts can still answer "1,000+".
        single_word = len(words) == 1 and not words[0].isdigit()
        with_typed_words_only = len(titles) - (1 if with_synonyms else 0)
        # Plain letters and digits, which PostgreSQL's parser keeps as the one word search_word_counts holds.
        alone = single_word and len(slots[0]) == 1 and words[0].isascii() and words[0].isalnum()
        return Match(_matches_tsquery(anywhere), tuple(_matches_tsquery(tier) for tier in tiers),
                     counted_word=words[0] if single_word else None, counted_exactly=alone,
                     from_index=tuple(with_synonyms and n >= with_typed_words_only for n in range(len(tiers))))
    titles = list(dict.fromkeys(f"title : ({_fts(form, prefixes)})" for form, prefixes in forms))
    anywhere = _fts(slots)
    narrower = [*titles, f"{{title author}} : ({anywhere})", f"({anywhere})"]
    fts_tiers = [narrower[0]] + [f"{query} NOT {narrower[n]}" for n, query in enumerate(narrower[1:])]
    return Match(fts_query=anywhere, fts_tiers=tuple(fts_tiers))


# Typo tolerance (Meilisearch's rule): one typo in a word of 5 to 8 characters, two from 9; a typo
# is a letter added, left out, changed, or two swapped (optimal string alignment). A word is only
# corrected when no indexed word starts with it, and only when the search as typed found nothing,
# so exact and prefix matches always come first. Candidates share the word's first letter (a typo
# there is rarely made, and counts double in Meilisearch), so each look-up reads one letter's range
# of the vocabulary index, never all of it.
# SQLite: the fts5vocab table over the index (migration 0013); PostgreSQL: search_word_counts (0009).
_VOCAB_SQLITE = sql_text("SELECT term AS word, doc AS books FROM book_search_vocab"
                         " WHERE term >= :low AND term < :high AND length(term) BETWEEN :shortest AND :longest")
_VOCAB_POSTGRES = sql_text("SELECT word, books FROM search_word_counts WHERE word >= :low AND word < :high"
                           " AND books > 0 AND length(word) BETWEEN :shortest AND :longest")
_KNOWN_SQLITE = sql_text("SELECT 1 FROM book_search_vocab WHERE term >= :low AND term < :high LIMIT 1")
_KNOWN_POSTGRES = sql_text("SELECT 1 FROM search_word_counts WHERE word >= :low AND word < :high AND books > 0 LIMIT 1")


def typos_allowed(word: str) -> int:
    """How many typos a word may be corrected for: none below 5 characters, in numbers and in symbol names."""
    if word.isdigit() or word in SYMBOL_WORDS.values() or len(word) < 5:
        return 0
    return 1 if len(word) < 9 else 2


def _after(prefix: str) -> str:
    """The smallest text greater than every text that starts with prefix."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _is_indexed_prefix(word: str) -> bool:
    statement = _KNOWN_POSTGRES if _is_postgres() else _KNOWN_SQLITE
    return db.session.scalar(statement, {"low": word, "high": _after(word)}) is not None


def _vocabulary(start: str, shortest: int, longest: int):
    """(word, books holding it) for the indexed words that start with `start`, of these lengths."""
    statement = _VOCAB_POSTGRES if _is_postgres() else _VOCAB_SQLITE
    return db.session.execute(statement, {"low": start, "high": _after(start), "shortest": shortest,
                                          "longest": longest})


def _closest_word(word: str, typos: int) -> str | None:
    """The indexed word nearest to this one within `typos`, the one most books hold among equals; else the
    nearest that sounds like it within as many, starting another way ("fysics": physics; sound_alike.py);
    None if none."""
    from rapidfuzz.distance import OSA

    # (distance, fewer books last, word): the nearest within the typos, the most-held among equals.
    typed = ((OSA.distance(word, candidate, score_cutoff=typos), -books, candidate)
             for candidate, books in _vocabulary(word[0], len(word) - typos, len(word) + typos)
             if not candidate.isdigit())
    best = min((near for near in typed if near[0] <= typos), default=None)
    if best is None:
        key = sound_alike.sound_key(word)
        # Another spelling of a sound may be longer or shorter ("ph" for "f", "ks" for "x").
        sounded = ((OSA.distance(key, sound_alike.sound_key(candidate), score_cutoff=typos), -books, candidate)
                   for start in sound_alike.other_starts(word)
                   for candidate, books in _vocabulary(start, len(word) - typos - 2, len(word) + typos + 2))
        best = min((near for near in sounded if near[0] <= typos), default=None)
    return best[2] if best else None


def corrected(text: str) -> str | None:
    """The shopper's text with each word no indexed word starts with replaced by the nearest indexed
    word within the typos it may have (typos_allowed), as search words; None if nothing was corrected."""
    if isbn_digits(text):
        return None
    words = tokens(text)
    changes = {}
    for word in dict.fromkeys(words):
        typos = typos_allowed(word)
        if typos and not _is_indexed_prefix(word):
            closest = _closest_word(word, typos)
            if closest:
                changes[word] = closest
    if not changes:
        return None
    shown = {word: symbol for symbol, word in SYMBOL_WORDS.items()}
    return " ".join(shown.get(word, changes.get(word, word)) for word in words)


def best_sellers_by_part(text: str, parts: tuple[str, ...], per_part: tuple[int, ...], window: int,
                         best_sellers: int) -> list[tuple[str, int]]:
    """(part, book id) pairs: for each part of the book in turn, up to per_part[n] best sellers among
    the books whose that part matches the text as typed (prefixes), best first. One round trip for
    all parts, and a cost that does not grow with the catalogue. Only visible books.

    SQLite takes them among the first `window` matches of its full-text index. PostgreSQL walks the
    `best_sellers` best-selling books first, so a common prefix finds the shop's real best sellers
    at once; only a part that has fewer than per_part[n] matches among those also takes the best
    sellers among its first `window` matches in its word index."""
    words = tokens(text)
    if not words:
        return []
    if _is_postgres():
        return _best_sellers_by_part_postgres(words, parts, per_part, window, best_sellers)
    arms, params = [], {"window": window}
    for n, part in enumerate(parts):
        params[f"q{n}"] = f"{part} : (" + " ".join(f'"{w}"*' for w in words) + ")"
        params[f"per_part{n}"] = per_part[n]
        arms.append(f"SELECT * FROM (SELECT '{part}' AS part, {n} AS arm, id, copies_sold FROM books"
                    f" WHERE id IN (SELECT rowid FROM book_search WHERE book_search MATCH :q{n} LIMIT :window)"
                    f" ORDER BY copies_sold DESC, id LIMIT :per_part{n}) AS arm{n}")
    statement = sql_text(" UNION ALL ".join(arms) + " ORDER BY arm, copies_sold DESC, id")
    return [(row.part, row.id) for row in db.session.execute(statement, params)]


# The weight of each part in books.search_vector (migration 0001's trigger).
_PART_WEIGHTS = {"title": "A", "author": "B", "description": "D"}


def _best_sellers_by_part_postgres(words: list[str], parts: tuple[str, ...], per_part: tuple[int, ...], window: int,
                                   best_sellers: int) -> list[tuple[str, int]]:
    # A GIN index only answers with the bitmap of every match: 5,000 books for "phys" at 100,000,
    # so asking it for a common prefix costs more the larger the catalogue. The best sellers are
    # read in order instead (ix_books_listing_bestselling), once for every part: each row's stored
    # vector is checked with each part's weight (walking them once per part read up to three times
    # as many rows: 1,359 buffers per suggestion at 100,000 books, 548 now). A part with fewer than
    # per_part[n] matches among them (a prefix that rare has few matches) also asks the part's own
    # word index (migration 0004) for the best sellers among its first `window` matches.
    params = {"window": window, "best_sellers": best_sellers, "q": " & ".join(f"{w}:*" for w in words)}
    checks, walks, arms = [], [], []
    for n, part in enumerate(parts):
        params[f"w{n}"] = " & ".join(f"{w}:*{_PART_WEIGHTS[part]}" for w in words)
        params[f"per_part{n}"] = per_part[n]
        checks.append(f"search_vector @@ to_tsquery('simple', :w{n}) AS in{n}")
        walks.append(f"best{n} AS (SELECT id, copies_sold FROM top WHERE in{n} ORDER BY copies_sold DESC, id"
                     f" LIMIT :per_part{n})")
        arms.append(f"SELECT {n} AS arm, id, copies_sold FROM best{n}")
        # The WHERE needs no row of its own: the planner runs the index scan only when it holds.
        arms.append(f"SELECT {n} AS arm, id, copies_sold FROM (SELECT id, copies_sold FROM (SELECT id, copies_sold"
                    f" FROM books WHERE to_tsvector('simple', {part}) @@ to_tsquery('simple', :q)"
                    f" AND archived IS false LIMIT :window) AS first ORDER BY copies_sold DESC, id"
                    f" LIMIT :per_part{n}) AS more{n} WHERE (SELECT count(*) FROM best{n}) < :per_part{n}")
    top = (f"top AS (SELECT id, copies_sold, {', '.join(checks)} FROM books WHERE archived IS false"
           f" ORDER BY copies_sold DESC, id LIMIT :best_sellers)")
    statement = sql_text("WITH " + ", ".join([top, *walks]) + " " + " UNION ALL ".join(arms))
    found: dict[int, dict[int, int]] = {n: {} for n in range(len(parts))}
    for row in db.session.execute(statement, params):
        found[row.arm][row.id] = row.copies_sold
    return [(part, book_id) for n, part in enumerate(parts)
            for book_id in sorted(found[n], key=lambda book_id: (-found[n][book_id], book_id))[:per_part[n]]]


def matches_words(text: str, query: str) -> bool:
    """Whether every word of the query starts a word of text (the index's rule, for short lists)."""
    words = tokens(text)
    return all(any(word.startswith(wanted) for word in words) for wanted in tokens(query))


def preview(text: str, query: str, width: int = 50) -> str:
    """About `width` characters of text around the first word of the query (product §3.4)."""
    words = tokens(query)
    lowered = text.lower()
    start = min((i for i in (lowered.find(w) for w in words) if i >= 0), default=0)
    start = max(0, start - 10)
    snippet = text[start:start + width].strip()
    return ("…" if start > 0 else "") + snippet + ("…" if start + width < len(text) else "")
