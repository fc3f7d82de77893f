"""Catalogue search: the text helpers, and what shoppers find through GET /api/books?search=."""
from datetime import datetime, timedelta, timezone

import pytest

from bookstore.extensions import db
from bookstore.models import Book
from bookstore.services import search
from tests.factories import count


def _to_isbn10(isbn13: str) -> str:
    """The ISBN-10 form of a 978 ISBN-13 (mod-11 check digit, X for ten)."""
    core = isbn13[3:12]
    check = (11 - sum((10 - i) * int(d) for i, d in enumerate(core)) % 11) % 11
    return core + ("X" if check == 10 else str(check))


def _hyphenate(isbn: str) -> str:
    """An ISBN written the way covers print it, e.g. 978-93-12345-67-8."""
    if len(isbn) == 13:
        return f"{isbn[:3]}-{isbn[3:5]}-{isbn[5:10]}-{isbn[10:12]}-{isbn[12]}"
    return f"{isbn[:1]}-{isbn[1:4]}-{isbn[4:9]}-{isbn[9]}"


def _days_ago(days: int) -> datetime:
    return datetime.now(timezone.utc) - timedelta(days=days)


def _search(client, text: str, **params) -> dict:
    response = client.get("/api/books", query_string={"search": text, **params})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["success"] is True
    assert isinstance(body["books"], list)
    return body


def _titles(body: dict) -> list[str]:
    return [book["title"] for book in body["books"]]


# ---------------------------------------------------------------- service functions

@pytest.mark.parametrize("text, expected", [
    ("Physics", ["physics"]),
    ("Concepts of PHYSICS, Vol-1!", ["concepts", "of", "physics", "vol", "1"]),
    ('"phys* AND (title:x) OR NOT', ["phys", "and", "title", "x", "or", "not"]),
    ("' OR 1=1 --", ["or", "1", "1"]),
    ("snake_case%like_", ["snake", "case", "like"]),
    ("<script>alert(1)</script>", ["script", "alert", "1", "script"]),
    ('" * ( ) ^ - % _ \\ & | ! 📚', []),
    ("", []),
])
def test_tokens_keep_only_lower_cased_words(text, expected):
    """Shopper text becomes plain lower-cased words; quotes, operators and symbols are dropped."""
    assert search.tokens(text) == expected


def test_tokens_are_capped_in_number_and_length():
    """At most 8 words of at most 40 characters reach the index, whatever the shopper pastes."""
    assert search.tokens("one two three four five six seven eight nine ten") == [
        "one", "two", "three", "four", "five", "six", "seven", "eight"]
    assert search.tokens("a" * 200) == ["a" * 40]


@pytest.mark.parametrize("text, expected", [
    ("9789312345678", "9789312345678"),
    ("978-93-12345-67-8", "9789312345678"),
    (" 978 93 12345 67 8 ", "9789312345678"),
    ("0306406152", "0306406152"),
    ("0-306-40615-2", "0306406152"),
    ("930900004x", "930900004X"),
    ("9-309-00004-X", "930900004X"),
])
def test_isbn_digits_accepts_isbns_with_or_without_separators(text, expected):
    """An ISBN-13 or ISBN-10 is recognised however it is written, and given back as stored."""
    assert search.isbn_digits(text) == expected


@pytest.mark.parametrize("text", [
    "", "physics", "12345", "978931234567", "97893123456789", "X306406152", "97893123456X8",
    "978-93-12345-67-8 physics", "978.93.12345.67.8",
])
def test_isbn_digits_rejects_anything_else(text):
    """Words, short or long digit runs and misplaced X are not ISBNs."""
    assert search.isbn_digits(text) is None


@pytest.mark.parametrize("isbn10, isbn13", [
    ("0306406152", "9780306406157"),
    ("930900004X", "9789309000041"),
    ("8120340078", "9788120340077"),
])
def test_isbn10_to_13_prefixes_978_and_recomputes_the_check_digit(isbn10, isbn13):
    """The 13-digit form of an ISBN-10 is 978 + its first nine digits + a new check digit."""
    assert search.isbn10_to_13(isbn10) == isbn13


LONG_TEXT = ("This guide opens with a gentle overview of the syllabus and then moves on to "
             "thermodynamics, with solved problems from ten years of papers and tips for the exam.")


def test_preview_shows_about_fifty_characters_around_the_match():
    """The preview centres on the matched word and marks cut text with ellipses."""
    text = search.preview(LONG_TEXT, "thermo")
    assert "thermodynamics" in text
    assert text.startswith("…") and text.endswith("…")
    assert 40 <= len(text.strip("…")) <= 50
    assert text.strip("…") in LONG_TEXT


def test_preview_is_case_insensitive_and_uses_the_earliest_word():
    """Upper-case queries still find their place; with several words the earliest match wins."""
    text = search.preview(LONG_TEXT, "EXAM syllabus")
    assert "syllabus" in text
    assert "exam" not in text


def test_preview_of_text_that_starts_with_the_match_has_no_leading_ellipsis():
    text = search.preview(LONG_TEXT, "guide")
    assert text.startswith("This guide")
    assert text.endswith("…")


def test_preview_of_short_text_is_the_whole_text():
    assert search.preview("Solved papers.", "papers") == "Solved papers."


def test_preview_without_a_match_starts_at_the_beginning():
    text = search.preview(LONG_TEXT, "zoology")
    assert text.startswith("This guide") and text.endswith("…")


# ---------------------------------------------------------------- what each part of a book finds

@pytest.mark.parametrize("book_fields, query", [
    ({"title": "Quantum Mechanics Simplified"}, "quantum"),
    ({"author": "Ramesh Kumar Sharma"}, "sharma"),
    ({"publisher": "Arihant Publications"}, "arihant"),
    ({"category": "banking"}, "banking"),
    ({"category": "iit"}, "i.i.t"),
    ({"tags": ["neet", "biology"]}, "neet"),
    ({"description": "Covers thermodynamics with solved examples."}, "thermodynamics"),
    ({"isbn": "9789309000041"}, "9789309000041"),
])
def test_search_covers_every_part_of_a_book(client, factories, book_fields, query):
    """Title, author, publisher, category, tags, description and ISBN are all searchable."""
    target = factories.book(**{"title": "Target Book", **book_fields})
    factories.book(title="Decoy Book")  # same defaults elsewhere, so only the field under test differs
    body = _search(client, query)
    assert [book["_id"] for book in body["books"]] == [str(target.id)]
    assert body["totalBooks"] == 1


def test_prefix_matches_as_you_type(client, factories):
    """'phys' finds Physics, and so does every longer prefix."""
    factories.book(title="Concepts of Physics")
    factories.book(title="Organic Chemistry")
    for typed in ("ph", "phy", "phys", "physic", "physics"):
        assert _titles(_search(client, typed)) == ["Concepts of Physics"], typed


def test_a_word_is_not_found_from_its_middle(client, factories):
    """Prefix search is not substring search: 'ysics' finds nothing."""
    factories.book(title="Concepts of Physics")
    body = _search(client, "ysics")
    assert body["books"] == [] and body["totalBooks"] == 0


def test_every_word_must_match(client, factories):
    """Several words narrow the search: each must appear somewhere in the book."""
    factories.book(title="Objective Physics", author="D. C. Pandey")
    factories.book(title="Physics Theory", author="H. C. Verma")
    factories.book(title="Objective Chemistry", author="O. P. Tandon")
    assert _titles(_search(client, "objective physics")) == ["Objective Physics"]
    assert _titles(_search(client, "physics verma")) == ["Physics Theory"]
    assert _search(client, "objective verma")["books"] == []


@pytest.mark.parametrize("query", ["PHYSICS", "pHySiCs", "Physics", "CONCEPTS OF phys"])
def test_search_is_case_insensitive(client, factories, query):
    factories.book(title="Concepts of Physics")
    factories.book(title="Organic Chemistry")
    assert _titles(_search(client, query)) == ["Concepts of Physics"]


def test_hindi_title_is_found_by_its_hindi_words(client, factories):
    """Books in Hindi are common in an Indian shop: a Devanagari word finds the book it names."""
    factories.book(title="भौतिकी कक्षा 11", language="Hindi")
    factories.book(title="रसायन विज्ञान", language="Hindi")
    assert _titles(_search(client, "भौतिकी")) == ["भौतिकी कक्षा 11"]


def test_title_and_author_matches_rank_before_description_only_matches(client, factories):
    """Without sortBy a search is ordered by relevance, not by date."""
    title_match = factories.book(title="Concepts of Physics", author="H. C. Verma", created_at=_days_ago(30))
    author_match = factories.book(title="Problems Book", author="Irodov Physics Academy", created_at=_days_ago(20))
    # Newest and with the highest id: any date or id order would put it first.
    factories.book(title="Revision Notes", author="S. Gupta", created_at=_days_ago(1),
                   description="Physics problems, physics notes and physics formulas for quick revision.")
    titles = _titles(_search(client, "physics"))
    assert len(titles) == 3
    assert titles[-1] == "Revision Notes"
    assert set(titles[:2]) == {title_match.title, author_match.title}


def test_author_match_ranks_before_description_match(client, factories):
    factories.book(title="Concepts of Physics", author="H. C. Verma", created_at=_days_ago(30))
    factories.book(title="Solutions Manual", author="S. Gupta", created_at=_days_ago(1),
                   description="Worked solutions to every problem in the Verma textbook.")
    assert _titles(_search(client, "verma")) == ["Concepts of Physics", "Solutions Manual"]


def test_relevance_pages_hold_every_match_once_title_matches_first(client, factories):
    """On either database, paging a plain search shows each match once, title matches before the rest."""
    titled = {str(factories.book(title=f"Physics Part {n}").id) for n in range(3)}
    described = {str(factories.book(title=f"Revision {n}", description="physics notes").id) for n in range(6)}
    seen = [book["_id"] for page in range(1, 6)
            for book in _search(client, "physics", page=page, limit=2)["books"]]
    assert sorted(seen) == sorted(titled | described)
    assert set(seen[:3]) == titled


def _tiered_books(factories) -> list[int]:
    """Books matching "physics" in each relevance tier, added in mixed order; their ids best first."""
    tiers = {0: [], 1: [], 2: []}
    for n in range(3):
        tiers[2].append(factories.book(title=f"Revision {n}", description="physics notes").id)
        tiers[0].append(factories.book(title=f"Physics Part {n}").id)
        tiers[1].append(factories.book(title=f"Problems {n}", author=f"Physics Academy {n}").id)
    tiers[0].append(factories.book(title="Physics Workbook").id)
    factories.book(title="Chemistry", description="not a match")
    return [book_id for tier in (0, 1, 2) for book_id in sorted(tiers[tier], reverse=True)]


@pytest.mark.parametrize("limit", [1, 2, 3, 4, 5, 12])
def test_search_pages_are_tiered_title_then_author_then_the_rest_newest_first(client, factories, limit):
    """On either database: every match once, all title matches, then author ones, then the rest,
    each tier most recently added first, across any page size."""
    expected = _tiered_books(factories)
    seen, totals = [], set()
    for page in range(1, len(expected) // limit + 3):
        body = _search(client, "physics", page=page, limit=limit)
        seen += [int(book["_id"]) for book in body["books"]]
        totals.add(body["totalBooks"])
    assert seen == expected
    assert totals == {len(expected)}


def test_filtered_search_keeps_the_tiers(client, factories):
    """With a filter the search is ranked in SQL over the filtered books, in the same order."""
    expected = _tiered_books(factories)
    factories.book(title="Physics Elsewhere", category="banking")
    body = _search(client, "physics", category="gate", limit=50)
    assert [int(book["_id"]) for book in body["books"]] == expected
    assert body["totalBooks"] == len(expected)


def test_every_word_in_title_or_author_ranks_before_words_spread_further(client, factories):
    spread = factories.book(title="Mechanics", author="S. Gupta", description="Verma's physics method").id
    split = factories.book(title="Physics Problems", author="H. C. Verma").id
    in_title = factories.book(title="Verma Physics Companion", author="R. Rao").id
    body = _search(client, "verma physics")
    assert [int(book["_id"]) for book in body["books"]] == [in_title, split, spread]


# ---------------------------------------------------------------- ISBN look-ups

ISBN13 = "9789309000041"
ISBN10 = "930900004X"


@pytest.mark.parametrize("typed", [
    ISBN13, _hyphenate(ISBN13), "978 93 09000 04 1", " 978-9309000041 ",
    ISBN10, _hyphenate(ISBN10), ISBN10.lower(), "930 900 004 X",
])
def test_isbn_finds_its_book_with_or_without_separators(client, factories, typed):
    """ISBN-13 as stored, or the ISBN-10 of the same book, typed with hyphens or spaces."""
    book = factories.book(title="GATE Previous Papers", isbn=ISBN13)
    factories.book(title="Other Book")
    body = _search(client, typed)
    assert [b["_id"] for b in body["books"]] == [str(book.id)]
    assert body["books"][0]["isbn"] == ISBN13


def test_stored_isbn10_is_found_as_typed(client, factories):
    book = factories.book(title="Old Edition", isbn="0306406152")
    body = _search(client, "0-306-40615-2")
    assert [b["_id"] for b in body["books"]] == [str(book.id)]


def test_unknown_isbn_finds_nothing(client, factories):
    factories.book(title="GATE Previous Papers", isbn=ISBN13)
    body = _search(client, "978-0-306-40615-7")
    assert body["books"] == [] and body["totalBooks"] == 0 and body["totalPages"] == 0


# ---------------------------------------------------------------- hostile input

HOSTILE = [
    '"', "'", "*", '"phys', "AND", "OR NOT", "NEAR(a b)", "title:x", "(", ")", "^", "-", "%", "_", "\\",
    "phys*", "a:*", "&|!", "<script>", "📚🙂", "भौतिकी", "x" * 200, "' OR 1=1 --", "'; DROP TABLE books; --",
    "phys:*A", "phys & chem | bio", "{title}: phys", "x²", "٣", "   ",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_never_breaks_search_or_suggestions(client, factories, text):
    """Whatever the shopper types, the list and the suggestions answer 200 with a (possibly empty) list."""
    factories.book(title="Concepts of Physics")
    before = count(Book)
    body = _search(client, text)
    assert isinstance(body["totalBooks"], int)
    assert len(body["books"]) == body["totalBooks"] <= 1

    response = client.get("/api/books/suggest", query_string={"q": text[:100]})
    assert response.status_code == 200, response.get_json()
    suggestions = response.get_json()
    assert suggestions["success"] is True and isinstance(suggestions["suggestions"], list)
    assert len(suggestions["suggestions"]) <= 1
    assert count(Book) == before


@pytest.mark.parametrize("text", ['"phys', "phys*", "phys:*", "(phys)", "PHYS^", "-phys", "phys%", "'phys'"])
def test_operators_around_a_word_are_ignored_and_the_word_still_matches(client, factories, text):
    factories.book(title="Concepts of Physics")
    factories.book(title="Organic Chemistry")
    assert _titles(_search(client, text)) == ["Concepts of Physics"]


# ---------------------------------------------------------------- the index follows the data

def test_renaming_a_book_updates_search(client, factories):
    """The index is maintained by database triggers: an ORM update is searchable at once."""
    book = factories.book(title="Concepts of Physics")
    book.title = "Organic Chemistry Explained"
    db.session.commit()
    assert _search(client, "physics")["books"] == []
    assert [b["_id"] for b in _search(client, "chemistry")["books"]] == [str(book.id)]


def test_changing_tags_and_description_updates_search(client, factories):
    book = factories.book(title="Plain Title", tags=["jee"], description="Old words.")
    book.tags = ["neet"]
    book.description = "Covers genetics."
    db.session.commit()
    assert _search(client, "jee")["books"] == []
    assert [b["_id"] for b in _search(client, "neet")["books"]] == [str(book.id)]
    assert [b["_id"] for b in _search(client, "genetics")["books"]] == [str(book.id)]


def test_deleting_a_book_removes_it_from_search(client, factories):
    book = factories.book(title="Concepts of Physics")
    keep = factories.book(title="Physics Galaxy")
    db.session.delete(book)
    db.session.commit()
    body = _search(client, "physics")
    assert [b["_id"] for b in body["books"]] == [str(keep.id)]
    assert body["totalBooks"] == 1


def test_archived_books_are_never_found(client, factories):
    factories.book(title="Concepts of Physics", archived=True)
    live = factories.book(title="Physics Galaxy")
    body = _search(client, "physics")
    assert [b["_id"] for b in body["books"]] == [str(live.id)]
    assert body["totalBooks"] == 1


def test_archived_book_is_not_found_by_isbn(client, factories):
    factories.book(title="Concepts of Physics", isbn=ISBN13, archived=True)
    body = _search(client, _hyphenate(ISBN13))
    assert body["books"] == [] and body["totalBooks"] == 0
