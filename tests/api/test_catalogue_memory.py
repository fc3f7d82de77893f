"""What each process remembers to answer the catalogue faster (issue 11): book cards by everything they are
made from, and a search's SQL by its text while the synonyms it was built from are kept. Neither may ever
answer something stale."""
import marshmallow
import pytest
from sqlalchemy import text

from bookstore.extensions import db
from bookstore.models import Book
from bookstore.schemas import remembered
from bookstore.schemas.book import BookCardSchema, BookSchema
from bookstore.services import search
from tests.conftest import _in_context
from tests.factories import Factories


def _cards(client, **query) -> dict[str, dict]:
    response = client.get("/api/books", query_string=query)
    assert response.status_code == 200, response.get_json()
    return {card["title"]: card for card in response.get_json()["books"]}


def test_a_remembered_card_is_the_card_dumped_afresh(client, factories):
    """The second list answers cards from memory, and they equal marshmallow's own dump of each book."""
    factories.book(title="Concepts of Physics", tags=["jee", "physics"], stock=3)
    factories.book(title="Organic Chemistry", discounted_price_paise=39900)
    first = _cards(client)
    again = _cards(client)
    assert again == first
    schema = BookCardSchema()
    for book in db.session.scalars(db.select(Book)):
        assert schema.dump(book) == marshmallow.Schema.dump(schema, book)


@pytest.mark.parametrize("column, value, field, expected", [
    ("stock", 0, "inStock", False),
    ("discounted_price_paise", 29900, "discountedPrice", 299.0),
    ("title", "Concepts of Physics, 2nd ed.", "title", "Concepts of Physics, 2nd ed."),
    ("copies_sold", 7, "copiesSold", 7),
])
def test_a_book_changed_behind_the_process_is_dumped_again(client, factories, column, value, field, expected):
    """A change written by another process (plain SQL here; no ORM event, no updated_at) shows at once."""
    book = factories.book(title="Concepts of Physics", stock=5)
    assert _cards(client)["Concepts of Physics"][field] != expected
    db.session.execute(text(f"UPDATE books SET {column} = :value WHERE id = :id"), {"value": value, "id": book.id})
    db.session.commit()
    db.session.expire_all()
    card = next(iter(_cards(client).values()))
    assert card[field] == expected


def test_a_book_with_more_than_a_card_is_never_remembered(client, factories):
    """BookSchema adds exams and editions, which no book column tells: its dumps are always fresh."""
    book = factories.book(title="Concepts of Physics")
    before = len(remembered._remembered)
    BookSchema().dump(book)
    assert len(remembered._remembered) == before
    assert BookCardSchema(only=("title",)).dump(book) == {"title": "Concepts of Physics"}


@pytest.fixture
def caching_app(app_pool):
    """The app with synonyms and other-script words kept for a minute, as in production."""
    yield from _in_context(app_pool.app(SEARCH_SYNONYMS_CACHE_SECONDS=60, SEARCH_SCRIPT_WORDS_CACHE_SECONDS=60))


def test_a_search_is_built_once_and_forgotten_when_synonyms_are_saved(caching_app):
    """The same text reuses its Match; saving synonyms forgets it, so the next search uses them at once."""
    client, factories = caching_app.test_client(), Factories()
    factories.user(email="admin@example.in", password="admin-pass-1", role="admin")
    login = client.post("/api/auth/login", json={"email": "admin@example.in", "password": "admin-pass-1"})
    admin = {"Authorization": f"Bearer {login.get_json()['token']}"}
    factories.book(title="IIT JEE Physics")
    search.forget_synonyms()
    assert search.match("jee mains") is search.match("jee mains")
    assert _cards(client, search="jee mains") == {}
    saved = client.put("/api/admin/search-synonyms", headers=admin,
                       json={"groups": [["JEE Main", "JEE Mains", "IIT JEE"]]})
    assert saved.status_code == 200, saved.get_json()
    assert list(_cards(client, search="jee mains")) == ["IIT JEE Physics"]


def test_a_remembered_search_answers_its_pages_again_alike(caching_app):
    """A search asked again (its Match and, on PostgreSQL, its page statements remembered) answers the same
    pages, totals and order, and sees a book added meanwhile."""
    client, factories = caching_app.test_client(), Factories()
    for n in range(15):
        factories.book(title=f"Physics Workbook {n}")
    first = [client.get("/api/books", query_string={"search": "physics", "page": page}).get_json() for page in (1, 2)]
    again = [client.get("/api/books", query_string={"search": "physics", "page": page}).get_json() for page in (1, 2)]
    assert again == first
    assert first[0]["totalBooks"] == 15 and len(first[1]["books"]) == 3
    factories.book(title="Physics Workbook 15")
    newest = client.get("/api/books", query_string={"search": "physics"}).get_json()
    assert newest["books"][0]["title"] == "Physics Workbook 15"
    assert newest["totalBooks"] == 16
