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


@pytest.mark.parametrize("text, expected", [
    ("C++ Primer", ["cplusplus", "primer"]),
    ("Programming in C#", ["programming", "in", "csharp"]),
    ("ASP.NET and .NET Core", ["asp", "net", "and", "dotnet", "core"]),
    ("F# for fun", ["fsharp", "for", "fun"]),
    ("C++11 and C", ["cplusplus", "11", "and", "c"]),
    ("abc++ x#", ["abc", "x"]),
])
def test_tokens_read_symbol_names_as_words(text, expected):
    """"c++", "c#", "f#" and ".net" (standing alone) are words of their own, as the index triggers store them."""
    assert search.tokens(text) == expected


def test_a_search_ranks_whole_words_before_prefixes(client, factories):
    """"java" finds Java books before JavaScript ones, even newer JavaScript ones (tier: title, whole words)."""
    java = factories.book(title="Learn Java", created_at=_days_ago(30))
    script = factories.book(title="Learn JavaScript", created_at=_days_ago(1))
    assert [book["_id"] for book in _search(client, "java")["books"]] == [str(java.id), str(script.id)]


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
    """A preview of text whose match is at its start begins with the text itself and ends with an ellipsis."""
    text = search.preview(LONG_TEXT, "guide")
    assert text.startswith("This guide")
    assert text.endswith("…")


def test_preview_of_short_text_is_the_whole_text():
    """Text shorter than a preview is shown whole, without ellipses."""
    assert search.preview("Solved papers.", "papers") == "Solved papers."


def test_preview_without_a_match_starts_at_the_beginning():
    """Without a match in the text the preview starts at its beginning."""
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
    """A search matches whatever the letter case of the query."""
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
    """A match in the author ranks before a match in the description, even for an older book."""
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
    """Books with every word in the title rank first, then words split over title and author, then words spread into
    the description."""
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
    """A book stored with an ISBN-10 is found by that ISBN typed with hyphens."""
    book = factories.book(title="Old Edition", isbn="0306406152")
    body = _search(client, "0-306-40615-2")
    assert [b["_id"] for b in body["books"]] == [str(book.id)]


def test_unknown_isbn_finds_nothing(client, factories):
    """A well-formed ISBN that no book has finds nothing, with a total of 0 and no pages."""
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
    """Search operators and punctuation around a word are ignored; the word still matches."""
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
    """Changing a book's tags and description changes what finds it: old words no longer do, new ones do."""
    book = factories.book(title="Plain Title", tags=["jee"], description="Old words.")
    book.tags = ["neet"]
    book.description = "Covers genetics."
    db.session.commit()
    assert _search(client, "jee")["books"] == []
    assert [b["_id"] for b in _search(client, "neet")["books"]] == [str(book.id)]
    assert [b["_id"] for b in _search(client, "genetics")["books"]] == [str(book.id)]


def test_deleting_a_book_removes_it_from_search(client, factories):
    """A deleted book is no longer found or counted."""
    book = factories.book(title="Concepts of Physics")
    keep = factories.book(title="Physics Galaxy")
    db.session.delete(book)
    db.session.commit()
    body = _search(client, "physics")
    assert [b["_id"] for b in body["books"]] == [str(keep.id)]
    assert body["totalBooks"] == 1


def test_archived_books_are_never_found(client, factories):
    """Archived books are never found or counted by a search."""
    factories.book(title="Concepts of Physics", archived=True)
    live = factories.book(title="Physics Galaxy")
    body = _search(client, "physics")
    assert [b["_id"] for b in body["books"]] == [str(live.id)]
    assert body["totalBooks"] == 1


def test_archived_book_is_not_found_by_isbn(client, factories):
    """An archived book is not found by its ISBN either."""
    factories.book(title="Concepts of Physics", isbn=ISBN13, archived=True)
    body = _search(client, _hyphenate(ISBN13))
    assert body["books"] == [] and body["totalBooks"] == 0


# ---------------------------------------------------------------- totals above the exact limit

# Product §3.3: a search's total is exact up to 1,000 matches and "1,000+" above that. The tests
# lower the limit to 5 (SEARCH_EXACT_TOTAL_LIMIT) instead of making a thousand books.
EXACT_LIMIT = 5


@pytest.fixture
def capped(app):
    app.config["SEARCH_EXACT_TOTAL_LIMIT"] = EXACT_LIMIT


def _tiered_physics(factories, count: int) -> None:
    """count books matching "physics", spread over the three tiers (title, author, description)."""
    for n in range(count):
        fields = [{"title": f"Physics Part {n}"}, {"author": f"Physics Academy {n}"},
                  {"description": "physics notes"}][n % 3]
        factories.book(**{"title": f"Book {n}", **fields}, price_paise=10000 + 100 * n)
    factories.book(title="Chemistry", description="not a match")


def test_the_exact_limit_is_a_thousand_by_default(app):
    """Search totals are counted exactly up to 1,000 matches by default."""
    assert search.EXACT_TOTAL_LIMIT == 1000 and search.exact_total_limit() == 1000


SEARCHES = [{}, {"category": "gate"}, {"sortBy": "title"}, {"sortBy": "price-high", "category": "gate"},
            {"minPrice": "50"}]


@pytest.mark.parametrize("params", SEARCHES)
@pytest.mark.parametrize("matches, total, approximate, total_pages", [
    (EXACT_LIMIT - 1, EXACT_LIMIT - 1, False, 2),
    (EXACT_LIMIT, EXACT_LIMIT, False, 3),
    # More than the limit: "5+", and the pages known to hold books include the one after the 5th.
    (EXACT_LIMIT + 1, EXACT_LIMIT, True, 3),
    (EXACT_LIMIT + 4, EXACT_LIMIT, True, 3),
])
def test_a_search_counts_up_to_the_limit_and_says_when_there_are_more(client, factories, capped, params, matches,
                                                                         total, approximate, total_pages):
    """On either database, in every way a search is read (ranked or sorted, in the index alone or filtered)."""
    _tiered_physics(factories, matches)
    body = _search(client, "physics", limit=2, **params)
    assert len(body["books"]) == 2
    assert body["totalBooks"] == body["pagination"]["total"] == total
    assert body["pagination"]["totalIsApproximate"] is approximate
    assert body["totalPages"] == body["pagination"]["totalPages"] == total_pages


@pytest.mark.parametrize("params", SEARCHES)
def test_following_next_through_an_approximate_total_shows_every_match_once(client, factories, capped, params):
    """Past the known pages the count reaches the end of the page asked: each page says whether a next
    one holds books, until the last, whose total is exact."""
    _tiered_physics(factories, 9)
    everything = _search(client, "physics", limit=50, **params)  # counted to 50: exact
    assert everything["totalBooks"] == 9 and everything["pagination"]["totalIsApproximate"] is False
    seen, totals, page = [], [], 1
    while True:
        body = _search(client, "physics", limit=2, page=page, **params)
        assert body["books"], page
        seen += [book["_id"] for book in body["books"]]
        totals.append((body["totalBooks"], body["pagination"]["totalIsApproximate"], body["totalPages"]))
        if page == body["totalPages"]:
            break
        page += 1
    assert seen == [book["_id"] for book in everything["books"]]
    # Pages 1-2 end within the limit; page 3 is counted to its end (6) and finds more; page 4 to 8, still more;
    # page 5 to 10, and there are 9.
    assert totals == [(5, True, 3), (5, True, 3), (6, True, 4), (8, True, 5), (9, False, 5)]


def test_a_page_past_the_end_of_an_approximate_search_is_empty_and_exact(client, factories, capped):
    """A page past the end of a capped search is empty and reports the exact total."""
    _tiered_physics(factories, 9)
    body = _search(client, "physics", limit=2, page=20)
    assert body["books"] == []
    assert (body["totalBooks"], body["totalPages"], body["pagination"]["totalIsApproximate"]) == (9, 5, False)


def test_a_list_without_a_search_is_always_counted_in_full(client, factories, capped):
    """Listings without a search are always counted exactly, whatever their filters or sort."""
    _tiered_physics(factories, 9)
    for params in ({}, {"category": "gate"}, {"minPrice": "50"}, {"sortBy": "title"}):
        body = client.get("/api/books", query_string={"limit": 2, **params}).get_json()
        assert (body["totalBooks"], body["pagination"]["totalIsApproximate"]) == (10, False), params


def test_archived_books_are_not_counted_towards_the_limit(client, factories, capped):
    """Archived books do not count towards the exact-total limit of a search."""
    _tiered_physics(factories, EXACT_LIMIT)
    for n in range(3):
        factories.book(title=f"Physics Archived {n}", archived=True)
    body = _search(client, "physics", limit=2)
    assert (body["totalBooks"], body["pagination"]["totalIsApproximate"]) == (EXACT_LIMIT, False)


# ---------------------------------------------------------------- PostgreSQL's counts of each word's books

@pytest.fixture
def postgres(app):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("search_word_counts is PostgreSQL's (migration 0009)")


@pytest.fixture
def made_up_word_counts(postgres):
    """A test that makes word counts up: afterwards each word's count is its visible books' again, so
    the tests that follow (the same database) are counted right."""
    yield
    db.session.rollback()
    db.session.execute(db.text("UPDATE search_word_counts SET books = 0"))
    db.session.execute(db.text(
        "INSERT INTO search_word_counts AS counts (word, books) SELECT word, count(*) FROM books,"
        " unnest(tsvector_to_array(search_vector)) AS word WHERE archived IS false GROUP BY word"
        " ON CONFLICT (word) DO UPDATE SET books = EXCLUDED.books"))
    db.session.commit()


def _word_counts() -> dict[str, int]:
    rows = db.session.execute(db.text("SELECT word, books FROM search_word_counts WHERE books <> 0"))
    return dict(rows.all())


def _words_of_visible_books() -> dict[str, int]:
    rows = db.session.execute(db.text(
        "SELECT word, count(*) FROM books, unnest(tsvector_to_array(search_vector)) AS word"
        " WHERE archived IS false GROUP BY word"))
    return dict(rows.all())


def test_word_counts_follow_every_change_to_the_books(client, factories, postgres):
    """Added, renamed, archived, restored, deleted and sold books: each word's count stays the number
    of visible books holding it (triggers in the same transaction), and stock changes move nothing."""
    books = [factories.book(title=f"Physics Part {n}", tags=["jee"]) for n in range(3)]
    factories.book(title="Organic Chemistry", archived=True)
    assert _word_counts() == _words_of_visible_books() and _word_counts()["physics"] == 3
    books[0].title = "Inorganic Chemistry"
    books[1].archived = True
    db.session.commit()
    db.session.execute(db.text("UPDATE books SET archived = false WHERE title = 'Organic Chemistry'"))
    db.session.execute(db.text("UPDATE books SET stock = stock + 1, copies_sold = copies_sold + 2"))
    db.session.delete(books[2])
    db.session.commit()
    assert _word_counts() == _words_of_visible_books()
    assert ("physics" not in _word_counts(), _word_counts()["chemistry"]) == (True, 2)


def test_a_one_word_search_among_all_visible_books_trusts_the_word_counts(client, factories, capped,
                                                                          made_up_word_counts):
    """When a word the search starts is held by more books than the limit, the matches are not counted
    (the count below is made up to show it is what answers); more words, or a filter, count the matches."""
    for n in range(2):
        factories.book(title=f"Physics Part {n}")
    db.session.execute(db.text("UPDATE search_word_counts SET books = 1000 WHERE word = 'physics'"))
    db.session.commit()
    for params in ({}, {"sortBy": "title"}):
        body = _search(client, "phys", limit=2, **params)
        assert (body["totalBooks"], body["pagination"]["totalIsApproximate"]) == (EXACT_LIMIT, True), params
    for text, params in (("physics part", {}), ("physics", {"category": "gate"}), ("physics", {"minPrice": "1"})):
        body = _search(client, text, limit=2, **params)
        assert (body["totalBooks"], body["pagination"]["totalIsApproximate"]) == (2, False), (text, params)


def test_a_word_alone_that_starts_one_indexed_word_takes_that_words_count_as_its_total(client, factories,
                                                                                      made_up_word_counts):
    """A one-word search with no synonym or other spelling, among all visible books, that starts exactly
    one word of the index is answered with that word's count, exactly (made up below to show it is what
    answers); a word starting two words, a filter or a second word count the matches; a word starting
    none has none."""
    for n in range(2):
        factories.book(title=f"Physics Part {n}")
    factories.book(title="Physical Geography")
    db.session.execute(db.text("UPDATE search_word_counts SET books = 7 WHERE word = 'physics'"))
    db.session.commit()
    body = _search(client, "physics", limit=2)
    assert (body["totalBooks"], body["pagination"]["totalIsApproximate"], len(body["books"])) == (7, False, 2)
    for text, params, total in (("physic", {}, 3), ("physics", {"minPrice": "1"}, 2), ("physics part", {}, 2),
                                ("qqqqqq", {}, 0)):
        body = _search(client, text, limit=2, **params)
        assert (body["totalBooks"], body["pagination"]["totalIsApproximate"]) == (total, False), (text, params)
