"""GET /api/categories: the 18 shelves of product §3.1, in their order, with live book counts."""
import re

from bookstore.extensions import db
from bookstore.models import Book
from tests.factories import count

SPEC_ORDER = [
    "I TO XII SCHOOL", "B.A.", "B.COM", "M.A.", "MEDICAL TECHNICAL", "ENGINEERING COMPUTER", "I.I.T", "BBA", "MBA",
    "PMT", "IAS", "GATE", "NET", "GRE", "GMAT", "SAT", "BANKING", "OTHER COMPETITIVE BOOKS",
]


def _categories(client) -> list[dict]:
    response = client.get("/api/categories")
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"success", "categories"}
    assert body["success"] is True
    return body["categories"]


def _counts(client) -> dict[str, int]:
    return {category["slug"]: category["bookCount"] for category in _categories(client)}


def test_the_eighteen_categories_in_the_spec_order(client):
    """The shop has exactly the 18 shelves of product §3.1, B.COM third, listed in its order."""
    categories = _categories(client)
    assert [category["name"] for category in categories] == SPEC_ORDER


def test_each_category_has_its_fields(client):
    """Each category has an id, name, slug, description, icon, colour and book count in their documented forms."""
    categories = _categories(client)
    for category in categories:
        assert set(category) == {"_id", "name", "slug", "description", "icon", "color", "bookCount"}
        assert isinstance(category["_id"], str) and category["_id"].isdigit()
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", category["slug"]), category["slug"]
        assert category["description"].strip() and category["icon"].strip()
        assert re.fullmatch(r"#[0-9a-f]{6}", category["color"]), category["color"]
        assert category["bookCount"] == 0
    assert len({c["_id"] for c in categories}) == len({c["slug"] for c in categories}) == 18
    by_name = {c["name"]: c["slug"] for c in categories}
    assert by_name["I.I.T"] == "iit" and by_name["B.COM"] == "bcom" and by_name["I TO XII SCHOOL"] == "school"


def test_category_slugs_filter_the_book_list(client, factories):
    """Every category's slug, as listed, is a working filter for /api/books."""
    factories.book(category="pmt")
    for category in _categories(client):
        response = client.get("/api/books", query_string={"category": category["slug"]})
        assert response.status_code == 200
        assert response.get_json()["totalBooks"] == (1 if category["slug"] == "pmt" else 0), category["slug"]


def test_book_counts_are_live_and_exclude_archived_books(client, factories):
    """Counts follow the catalogue as it is now: new, archived and deleted books are reflected at once."""
    gate = factories.book(category="gate")
    factories.book(category="gate")
    factories.book(category="gate", archived=True)
    iit = factories.book(category="iit", stock=0)
    counts = _counts(client)
    assert counts["gate"] == 2 and counts["iit"] == 1
    assert sum(counts.values()) == 3

    factories.book(category="banking")
    iit.archived = True
    db.session.delete(gate)
    db.session.commit()
    counts = _counts(client)
    assert counts["gate"] == 1 and counts["iit"] == 0 and counts["banking"] == 1
    assert sum(counts.values()) == 2


def test_listing_categories_writes_nothing(client, factories):
    """Listing categories writes nothing to the database."""
    factories.book(category="gate")
    before = count(Book)
    _categories(client)
    assert count(Book) == before
