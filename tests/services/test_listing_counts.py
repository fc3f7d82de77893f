"""Filtered list totals are remembered per process and stay exact through every change that could move them."""
import pytest
from sqlalchemy import event, select

from bookstore.extensions import db
from bookstore.memory import BoundedMemory
from bookstore.models import Book, Category
from bookstore.services import listing_counts

GATE_BAND = {"category": "gate", "minPrice": 200, "maxPrice": 600}


@pytest.fixture
def remembered(monkeypatch):
    """No totals remembered from other tests."""
    monkeypatch.setattr(listing_counts, "_remembered", BoundedMemory(4096))
    return listing_counts._remembered


@pytest.fixture
def counts_run():
    """The COUNT statements the database was sent, as they happen."""
    statements = []

    def seen(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SELECT COUNT"):
            statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", seen)
    yield statements
    event.remove(db.engine, "before_cursor_execute", seen)


def _total(client, **query) -> int:
    response = client.get("/api/books", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["pagination"]["total"]


def _gate_band_books(factories) -> list[Book]:
    """Five GATE books at ₹300 (one in Hindi, one hardcover), one at ₹900, and a ₹300 banking book."""
    books = [factories.book(category="gate", price_paise=30000) for _ in range(3)]
    books.append(factories.book(category="gate", price_paise=30000, language="Hindi"))
    books.append(factories.book(category="gate", price_paise=30000, format="Hardcover"))
    books.append(factories.book(category="gate", price_paise=90000))
    books.append(factories.book(category="banking", price_paise=30000))
    return books


def _versions(slug: str) -> tuple:
    return tuple(db.session.execute(select(Category.listing_version, Category.filter_version)
                                    .where(Category.slug == slug)).one())


def test_a_filtered_total_is_counted_once_while_its_books_are_unchanged(client, factories, remembered, counts_run):
    """Asking the same filtered list twice counts it in the database once; the second total comes from memory."""
    _gate_band_books(factories)
    assert _total(client, **GATE_BAND) == 5
    assert len(counts_run) == 1
    assert _total(client, **GATE_BAND) == 5
    assert len(counts_run) == 1
    assert _total(client, category="gate", minPrice=200, maxPrice=600, language="hindi") == 1
    assert len(counts_run) == 2  # another filter is another list


@pytest.mark.parametrize("change, expected", [
    (lambda book: setattr(book, "discounted_price_paise", 19900), 4),   # a sale takes it below the band
    (lambda book: setattr(book, "price_paise", 70000), 4),              # a new price takes it above
    (lambda book: setattr(book, "archived", True), 4),                  # archived: no longer shown
    (lambda book: setattr(book, "category_id", _category_id("banking")), 4),  # moved to another shelf
], ids=["discount", "price", "archive", "move"])
def test_a_remembered_total_follows_every_change_of_the_books_it_counts(client, factories, remembered, change, expected):
    """A price, a discount, an archive or a move of one counted book changes the next total at once."""
    books = _gate_band_books(factories)
    assert _total(client, **GATE_BAND) == 5
    change(books[0])
    db.session.commit()
    assert _total(client, **GATE_BAND) == expected


def _category_id(slug: str) -> int:
    return db.session.scalar(select(Category.id).where(Category.slug == slug))


def test_a_book_coming_into_the_filter_is_counted(client, factories, remembered):
    """A new book, a restored one, and a book whose format or language now matches all count at once."""
    books = _gate_band_books(factories)
    hindi = {"category": "gate", "language": "Hindi", "minPrice": 200, "maxPrice": 600}
    hardcover = {"category": "gate", "format": "Hardcover"}
    assert (_total(client, **GATE_BAND), _total(client, **hindi), _total(client, **hardcover)) == (5, 1, 1)
    factories.book(category="gate", price_paise=45000)
    books[5].price_paise = 50000          # ₹900 → ₹500: into the band
    books[0].language = "Hindi"
    books[1].format = "Hardcover"
    db.session.commit()
    assert (_total(client, **GATE_BAND), _total(client, **hindi), _total(client, **hardcover)) == (7, 2, 2)
    books[2].archived = True
    db.session.commit()
    assert _total(client, **GATE_BAND) == 6
    books[2].archived = False
    db.session.commit()
    assert _total(client, **GATE_BAND) == 7


def test_stock_and_sales_leave_remembered_totals_alone(client, factories, remembered):
    """Selling copies or restocking changes no filtered total, so it does not make the shop count again."""
    books = _gate_band_books(factories)
    before = _versions("gate")
    books[0].stock = 0
    books[1].copies_sold += 3
    books[2].price_paise = books[2].price_paise  # written again, unchanged
    db.session.commit()
    assert _versions("gate") == before


def test_changes_to_archived_books_move_no_version(client, factories, remembered):
    """An archived book's price is in no shopper's list, so changing it keeps the remembered totals."""
    books = _gate_band_books(factories)
    books[0].archived = True
    db.session.commit()
    before = _versions("gate")
    books[0].price_paise = 10000
    db.session.commit()
    assert _versions("gate") == before


def test_the_whole_shop_filtered_by_price_follows_a_change_in_any_shelf(client, factories, remembered):
    """Without a category the total is keyed by every shelf's version: a change on any shelf is seen."""
    books = _gate_band_books(factories)
    assert _total(client, minPrice=200, maxPrice=600) == 6
    books[6].price_paise = 100000  # the banking book leaves the band
    db.session.commit()
    assert _total(client, minPrice=200, maxPrice=600) == 5


def test_memory_is_bounded(client, factories, remembered, monkeypatch):
    """Past the memory's limit the oldest list is forgotten, and totals stay right."""
    remembered.limit = 3
    _gate_band_books(factories)
    for low in range(100, 106):
        assert _total(client, category="gate", minPrice=low, maxPrice=600) == 5
    assert len(remembered) == 3
