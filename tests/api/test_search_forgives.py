"""Search that forgives (issue 15): typos corrected with "did you mean", synonyms the shop keeps as
data (edited by administrators, audited), and "c++", "c#", ".net" and numbers as words."""
import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import AuditEntry, SearchSynonym
from bookstore.services import search

URL = "/api/admin/search-synonyms"


def _search(client, text: str, **params) -> dict:
    response = client.get("/api/books", query_string={"search": text, **params})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["success"] is True
    return body


def _titles(body: dict) -> list[str]:
    return [book["title"] for book in body["books"]]


def _set_synonyms(client, admin, groups: list[list[str]]) -> dict:
    response = client.put(URL, headers=admin, json={"groups": groups})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.fixture
def admin(auth):
    return auth.admin()


# ---------------------------------------------------------------- typos

def test_a_misspelt_word_is_corrected_and_the_reply_says_so(client, factories):
    """"physcis" (two letters swapped: one typo) finds the Physics books and answers didYouMean "physics"."""
    factories.book(title="Concepts of Physics")
    factories.book(title="Organic Chemistry")
    body = _search(client, "physcis")
    assert _titles(body) == ["Concepts of Physics"]
    assert body["didYouMean"] == "physics"
    assert body["totalBooks"] == 1


def test_a_search_that_finds_books_as_typed_is_not_corrected(client, factories):
    """Exact and prefix matches win: "physic" finds Physics as a prefix, with no didYouMean."""
    factories.book(title="Concepts of Physics")
    body = _search(client, "physic")
    assert _titles(body) == ["Concepts of Physics"]
    assert "didYouMean" not in body


@pytest.mark.parametrize("typed, title, found", [
    ("chemisty", "Organic Chemistry", True),          # 8 letters, one left out
    ("chmeisty", "Organic Chemistry", False),         # 8 letters, two typos: too many
    ("quantitave", "Quantitative Aptitude", True),    # 10 letters, two left out
    ("phyx", "Physics Notes", False),                 # under 5 letters: never corrected
    ("2025", "Physics 2026", False),                  # numbers are never corrected
    ("xhemistry", "Organic Chemistry", False),        # the first letter is not corrected
])
def test_typos_allowed_grow_with_the_word(client, factories, typed, title, found):
    """One typo in words of 5 to 8 letters, two from 9 (Meilisearch's rule); none in short words or numbers."""
    factories.book(title=title)
    body = _search(client, typed)
    assert bool(body["books"]) is found
    assert ("didYouMean" in body) is found


def test_a_correction_keeps_the_other_words_and_the_filters(client, factories):
    """Only the misspelt word changes; a category filter still applies to the corrected search."""
    factories.book(title="Organic Chemistry for NEET", category="pmt")
    factories.book(title="Organic Chemistry for JEE", category="iit")
    body = _search(client, "orgnaic chemistry", category="pmt")
    assert _titles(body) == ["Organic Chemistry for NEET"]
    assert body["didYouMean"] == "organic chemistry"


def test_a_correction_that_finds_nothing_is_not_offered(client, factories):
    """No didYouMean when the corrected search finds nothing either; an unknown word finds nothing."""
    factories.book(title="Organic Chemistry", category="pmt")
    body = _search(client, "chemisty", category="banking")
    assert body["books"] == [] and "didYouMean" not in body
    assert "didYouMean" not in _search(client, "zzzzzzzz")


@pytest.mark.parametrize("typed, title, expected", [
    ("fysics", "Concepts of Physics", "physics"),                # "ph" written as "f"
    ("fisiks", "Concepts of Physics", "physics"),                # ... and "c" as "k"
    ("kemistry", "Organic Chemistry", "chemistry"),
    ("saikology", "Introduction to Psychology", "psychology"),   # a silent "p", and one typo on top
    ("jenetics", "Genetics and Evolution", "genetics"),
    ("nowledge", "General Knowledge 2026", "knowledge"),
])
def test_a_word_spelt_as_it_sounds_is_corrected(client, factories, typed, title, expected):
    """A typo keeps the first letter, but a word may start another way for the same sound: those are
    looked up by how they sound, with the same typo tolerance."""
    factories.book(title=title)
    factories.book(title="Indian Polity")
    body = _search(client, typed)
    assert _titles(body) == [title]
    assert body["didYouMean"] == expected


def test_a_sound_alike_is_only_looked_for_when_typos_find_nothing(client, factories):
    """"fisics" is one typo from "fisica" (same first letter), which wins over Physics, spelt another way;
    a word that sounds like nothing indexed is not corrected."""
    factories.book(title="Concepts of Physics")
    factories.book(title="Fisica Generale")
    assert _search(client, "fisics")["didYouMean"] == "fisica"
    body = _search(client, "fyzzology")
    assert body["books"] == [] and "didYouMean" not in body


def test_sound_keys():
    """Spellings of one sound share a key; different words keep different keys."""
    from bookstore.services.sound_alike import other_starts, sound_key
    assert sound_key("physics") == sound_key("fysics") == sound_key("fisiks")
    assert sound_key("chemistry") == sound_key("kemistry")
    assert sound_key("science") == sound_key("sience")
    assert sound_key("rhythm") == sound_key("rythm") and sound_key("knowledge") == sound_key("nowledge")
    assert sound_key("physics") != sound_key("chemistry")
    assert other_starts("physics") == ("f",) and other_starts("fysics") == ("ph",) and other_starts("xylem") == ()


def test_typos_allowed_are_meilisearch_s():
    """0 below 5 characters, 1 from 5, 2 from 9; none for numbers and symbol names."""
    assert [search.typos_allowed(w) for w in ("jee", "polty", "chemisty", "quantitave", "20262", "cplusplus")] \
        == [0, 1, 1, 2, 0, 0]


# ---------------------------------------------------------------- synonyms

def test_a_synonym_finds_books_written_the_other_way(client, factories, admin):
    """With the group [jee main, jee mains, iit jee], "jee mains" and "iit jee" find "JEE Main" books."""
    factories.book(title="JEE Main Physics")
    factories.book(title="JEE Advanced Physics")
    _set_synonyms(client, admin, [["JEE Main", "JEE Mains", "IIT JEE"]])
    assert _titles(_search(client, "jee mains")) == ["JEE Main Physics"]
    assert _titles(_search(client, "iit jee physics")) == ["JEE Main Physics"]


def test_class_numbers_match_roman_numerals_and_not_editions(client, factories, admin):
    """"class 10 maths" finds Mathematics for Class X, not Class XI nor a 10th edition for Class IX."""
    wanted = factories.book(title="Foundation Mathematics for Class X")
    factories.book(title="Mathematics for Class XI")
    factories.book(title="Mathematics for Class IX (10th Edition)")
    _set_synonyms(client, admin, [["class 10", "class x", "tenth"], ["maths", "math", "mathematics"]])
    body = _search(client, "class 10 maths")
    assert [book["_id"] for book in body["books"]] == [str(wanted.id)]
    assert _titles(_search(client, "tenth mathematics")) == ["Foundation Mathematics for Class X"]


def test_words_as_typed_rank_above_their_synonyms(client, factories, admin):
    """A title with the typed words comes before a newer one that only holds a synonym."""
    typed = factories.book(title="IAS Prelims Guide", created_at=None)
    synonym = factories.book(title="UPSC Prelims Guide")  # added later: newer
    _set_synonyms(client, admin, [["upsc", "ias", "civil services"]])
    body = _search(client, "ias prelims")
    assert [book["_id"] for book in body["books"]] == [str(typed.id), str(synonym.id)]


def test_synonyms_apply_at_once_and_can_be_removed(client, factories, admin):
    """A saved group takes effect on the next search; an empty list removes every group."""
    factories.book(title="Bangalore Coaching Guide")
    assert _search(client, "bengaluru")["books"] == []
    _set_synonyms(client, admin, [["Bengaluru", "Bangalore"]])
    assert _titles(_search(client, "bengaluru")) == ["Bangalore Coaching Guide"]
    _set_synonyms(client, admin, [])
    assert _search(client, "bengaluru")["books"] == []


# ---------------------------------------------------------------- symbols and numbers

@pytest.mark.parametrize("typed, expected", [
    ("c++", ["Let's Code in C++"]),
    ("C++ programming", ["Let's Code in C++"]),
    ("c#", ["Programming in C#"]),
    (".net", ["Learning .NET Core"]),
])
def test_symbol_names_are_words(client, factories, typed, expected):
    """"c++", "c#" and ".net" find their books only, not C or every word starting with c."""
    for title in ("Let's Code in C++", "Programming in C#", "Learning .NET Core", "Programming in C",
                  "Chemistry Class XII"):
        factories.book(title=title, description="A programming book." if "Code" in title else "Notes.")
    assert _titles(_search(client, typed)) == expected


def test_a_single_letter_finds_that_word_first(client, factories):
    """"c" finds the C book first (a whole word in the title); on SQLite only it, where PostgreSQL,
    whose parser keeps "I.I.T" as one word, still takes single letters as prefixes after it."""
    for title in ("Programming in C", "Chemistry Class XII", "Let's Code in C++"):
        factories.book(title=title)
    titles = _titles(_search(client, "c"))
    assert titles[0] == "Programming in C"
    if db.engine.dialect.name == "sqlite":
        assert titles == ["Programming in C"]
    assert "Let's Code in C++" not in titles[:1]


def test_numbers_match_whole_numbers(client, factories):
    """"2026" finds the 2026 edition and a 2026-27 session, not 20261; "10" is not "100"."""
    factories.book(title="NEET 2026 Guide")
    factories.book(title="Income Tax (AY 2026-27)")
    factories.book(title="Serial 20261")
    factories.book(title="100 Practice Sets")
    assert sorted(_titles(_search(client, "2026"))) == ["Income Tax (AY 2026-27)", "NEET 2026 Guide"]
    assert _search(client, "10")["books"] == []


def test_a_symbol_name_in_an_edited_book_is_indexed(client, factories, admin):
    """The index triggers read symbol names on updates too: a title changed to C# is found as "c#"."""
    book = factories.book(title="Programming Basics")
    book.title = "Programming Basics in C#"
    db.session.commit()
    assert _titles(_search(client, "c#")) == ["Programming Basics in C#"]


# ---------------------------------------------------------------- administrators' synonyms

def test_administrators_read_and_replace_the_synonyms_with_an_audit_entry(client, admin):
    """PUT stores the groups as search words (lower case, punctuation dropped, repeats dropped);
    GET answers them; the change is audited once, an unchanged save not at all."""
    reply = _set_synonyms(client, admin, [["NEET-UG", "NEET", "neet", "PMT"], ["C++", "CPP"]])
    assert reply["groups"] == [["neet ug", "neet", "pmt"], ["cplusplus", "cpp"]]
    got = client.get(URL, headers=admin)
    assert got.status_code == 200 and got.get_json()["groups"] == reply["groups"]
    assert db.session.scalar(select(func.count()).select_from(SearchSynonym)) == 5
    _set_synonyms(client, admin, [["neet ug", "neet", "pmt"], ["c++", "cpp"]])
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "search_synonyms.update")).all()
    assert len(entries) == 1
    assert entries[0].after == {"groups": reply["groups"]} and entries[0].before == {"groups": []}


def test_synonyms_are_for_administrators_only(client, auth):
    """Guests get 401 and shoppers 403, for reading and for writing, and nothing changes."""
    body = {"groups": [["a b", "c d"]]}
    assert client.get(URL).status_code == 401
    assert client.put(URL, json=body).status_code == 401
    shopper = auth.customer()
    assert client.get(URL, headers=shopper).status_code == 403
    assert client.put(URL, headers=shopper, json=body).status_code == 403
    assert db.session.scalar(select(func.count()).select_from(SearchSynonym)) == 0


@pytest.mark.parametrize("body, field", [
    ({}, "groups"),
    ({"groups": "neet, pmt"}, "groups"),
    ({"groups": [["neet"]]}, "groups.0"),
    ({"groups": [["neet", "NEET!"]]}, "groups.0"),
    ({"groups": [["neet", "   "]]}, "groups.0.1"),
    ({"groups": [["neet", "pmt"], ["aipmt", "PMT"]]}, "groups.1.1"),
    ({"groups": [["neet", "a b c d e f g h"]]}, "groups.0.1"),
    ({"groups": [["neet", 7]]}, "groups"),
    ({"groups": [["neet", "x" * 81]]}, "groups"),
])
def test_bad_synonyms_are_422_and_change_nothing(client, admin, body, field):
    """Missing or malformed groups, a group of one, a phrase without words, a phrase in two groups or too
    long: 422 naming the place, nothing stored or audited."""
    _set_synonyms(client, admin, [["upsc", "ias"]])
    response = client.put(URL, headers=admin, json=body)
    assert response.status_code == 422, response.get_json()
    reply = response.get_json()
    assert reply["success"] is False
    where = reply["errors"]
    for key in field.split("."):
        where = where[key]
    assert where and reply["message"]
    assert client.get(URL, headers=admin).get_json()["groups"] == [["upsc", "ias"]]
    assert db.session.scalar(select(func.count()).select_from(AuditEntry)) == 1


def test_the_seeded_synonyms_are_valid_groups(client, admin):
    """Migration 0013's seed is what an administrator could save: as search words already, no phrase in
    two groups, every group at least two phrases (saving it back changes nothing)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "migrations" / "versions" / "0013_search_synonyms.py"
    spec = importlib.util.spec_from_file_location("seed_0013", path)
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    assert _set_synonyms(client, admin, migration.SEED_GROUPS)["groups"] == migration.SEED_GROUPS


# ---------------------------------------------------------------- Hindi in both scripts

def test_a_devanagari_search_finds_hindi_titles(client, factories):
    """"इतिहास" finds the book whose title holds it, and not an English one."""
    factories.book(title="भारत का इतिहास")
    factories.book(title="History of Modern India")
    assert _titles(_search(client, "इतिहास")) == ["भारत का इतिहास"]


@pytest.mark.parametrize("typed", ["itihas", "itihaas", "Itihaas", "bharat ka itihas", "bhaarat"])
def test_romanised_hindi_finds_devanagari_titles(client, factories, typed):
    """Hindi typed in Latin letters the ways shoppers spell it finds the Devanagari title."""
    factories.book(title="भारत का इतिहास")
    factories.book(title="History of Modern India")
    body = _search(client, typed)
    assert _titles(body) == ["भारत का इतिहास"]
    assert "didYouMean" not in body


def test_devanagari_finds_romanised_titles(client, factories):
    """"इतिहास" and "भारत" also find titles that write them in Latin letters ("Itihas", "Bharat")."""
    factories.book(title="Hindi Sahitya ka Itihas")
    factories.book(title="Bharat Darshan")
    factories.book(title="Organic Chemistry")
    assert _titles(_search(client, "इतिहास")) == ["Hindi Sahitya ka Itihas"]
    assert _titles(_search(client, "भारत")) == ["Bharat Darshan"]


def test_romanised_hindi_takes_the_typo_tolerance(client, factories):
    """"bhartiya" (the inherent a left out) and "samanya gyan" find भारतीय and सामान्य ज्ञान."""
    factories.book(title="भारतीय राजव्यवस्था")
    factories.book(title="सामान्य ज्ञान 2026")
    assert _titles(_search(client, "bhartiya")) == ["भारतीय राजव्यवस्था"]
    assert _titles(_search(client, "samanya gyan")) == ["सामान्य ज्ञान 2026"]


def test_the_script_a_title_is_typed_in_ranks_first(client, factories):
    """Words as typed come before their spellings in the other script: "itihas" lists "Itihas" first."""
    factories.book(title="भारत का इतिहास")
    factories.book(title="Hindi Sahitya ka Itihas")
    assert _titles(_search(client, "itihas")) == ["Hindi Sahitya ka Itihas", "भारत का इतिहास"]


def test_english_words_do_not_take_hindi_spellings(client, factories):
    """An English search matches no Devanagari title by accident ("physics" is not भौतिकी)."""
    factories.book(title="भौतिक विज्ञान कक्षा 10")
    factories.book(title="Concepts of Physics")
    assert _titles(_search(client, "physics")) == ["Concepts of Physics"]
    assert _titles(_search(client, "vigyan")) == ["भौतिक विज्ञान कक्षा 10"]


def test_a_devanagari_word_finds_its_other_spelling(client, factories):
    """"हिंदी" (with anusvara) finds "हिन्दी" and the Latin "Hindi" alike."""
    factories.book(title="हिन्दी व्याकरण कक्षा 8")
    factories.book(title="Hindi Vyakaran Class VIII")
    factories.book(title="English Grammar Class VIII")
    assert sorted(_titles(_search(client, "हिंदी व्याकरण"))) == ["Hindi Vyakaran Class VIII", "हिन्दी व्याकरण कक्षा 8"]


# ---------------------------------------------------------------- editions

def test_a_newer_edition_ranks_above_the_one_it_replaces(client, factories):
    """Among books matching alike, the edition that replaces another comes first, even when the older
    one was added to the shop later (most recently added would put it first)."""
    newer = factories.book(title="Objective Physics Guide 2027", edition_year=2027)
    older = factories.book(title="Objective Physics Guide 2026", edition_year=2026)
    oldest = factories.book(title="Objective Physics Guide 2025", edition_year=2025)
    newer.replaces_id, older.replaces_id = older.id, oldest.id
    db.session.commit()
    other = factories.book(title="Objective Physics Guide for NEET")
    titles = _titles(_search(client, "objective physics guide"))
    assert titles == [other.title, newer.title, older.title, oldest.title]
    # A better match still comes first: the older edition's title holds the typed year.
    assert _titles(_search(client, "physics 2026"))[0] == older.title


def test_editions_that_name_each_other_do_not_stall_the_order():
    """Two books that each say they replace the other (an administrator's slip) keep an order and return."""
    from types import SimpleNamespace

    a, b = SimpleNamespace(id=1, replaces_id=2), SimpleNamespace(id=2, replaces_id=1)
    assert sorted(book.id for book in search.newest_editions_first([a, b])) == [1, 2]
