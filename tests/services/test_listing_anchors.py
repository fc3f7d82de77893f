"""Deep pages of the plain listings start from remembered anchors, and stay exact as the catalogue changes."""
import random
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import Book, Category
from bookstore.services import listing_anchors

START = datetime(2026, 1, 1, tzinfo=timezone.utc)
LIMIT = 4


@pytest.fixture
def small_anchors(monkeypatch):
    """An anchor every 3 books, so a few dozen books have many of them; none remembered from other tests."""
    monkeypatch.setattr(listing_anchors, "ANCHOR_EVERY", 3)
    monkeypatch.setattr(listing_anchors, "_remembered", {})
    return listing_anchors._remembered


def _shelf_of_books(factories, count: int = 23) -> None:
    """Books in two categories, created at shuffled times with ties, so id order is not created order."""
    rng = random.Random(7)
    for n in range(count):
        factories.book(title=f"Book {n}", category="gate" if n % 3 else "banking",
                       created_at=START + timedelta(hours=rng.randrange(8)))


def _expected(sort: str, category: str | None = None) -> list[str]:
    """The listing computed independently: every visible book, in the sort's order."""
    books = db.session.scalars(select(Book).where(Book.archived.is_(False))).all()
    if category:
        books = [book for book in books if book.category.slug == category]
    key = lambda book: (book.created_at.replace(tzinfo=None), book.id)  # noqa: E731
    return [str(book.id) for book in sorted(books, key=key, reverse=sort == "newest")]


def _every_page(client, sort: str, category: str | None = None) -> list[str]:
    seen, page = [], 1
    while True:
        query = {"sortBy": sort, "limit": LIMIT, "page": page, **({"category": category} if category else {})}
        body = client.get("/api/books", query_string=query).get_json()
        if not body["books"]:
            assert page == body["totalPages"] + 1
            return seen
        seen += [book["_id"] for book in body["books"]]
        page += 1


@pytest.mark.parametrize("sort", ["newest", "oldest"])
@pytest.mark.parametrize("category", [None, "gate"])
def test_every_page_is_exact_through_the_anchors(client, factories, small_anchors, sort, category):
    """Paging through a listing from anchors gives every book once, in order, like an offset would."""
    _shelf_of_books(factories)
    assert _every_page(client, sort, category) == _expected(sort, category)
    assert small_anchors  # the deep pages did start from anchors


def test_anchors_follow_every_change_to_the_listing(client, factories, small_anchors):
    """Adding, archiving, restoring, moving and deleting books each change the listing; pages stay exact."""
    _shelf_of_books(factories)
    assert _every_page(client, "newest") == _expected("newest")

    def changed(action):
        before = db.session.scalar(select(db.func.sum(Category.listing_version)))
        action()
        db.session.commit()
        db.session.expire_all()
        assert db.session.scalar(select(db.func.sum(Category.listing_version))) > before
        assert _every_page(client, "newest") == _expected("newest")
        assert _every_page(client, "newest", "gate") == _expected("newest", "gate")

    books = db.session.scalars(select(Book).order_by(Book.id)).all()
    changed(lambda: factories.book(title="Brand new", created_at=START + timedelta(hours=3)))
    changed(lambda: setattr(books[5], "archived", True))
    changed(lambda: setattr(books[5], "archived", False))
    changed(lambda: setattr(books[7], "category", factories.category("banking")))
    changed(lambda: db.session.delete(books[9]))


def test_a_deep_page_past_the_end_is_empty(client, factories, small_anchors):
    """A deep page past the end of a listing is empty and still counts every book."""
    _shelf_of_books(factories, count=10)
    body = client.get("/api/books", query_string={"limit": LIMIT, "page": 9}).get_json()
    assert body["books"] == [] and body["totalBooks"] == 10


def test_stock_and_price_changes_keep_the_anchors(client, factories, small_anchors):
    """Orders change stock all day; they do not move books in these listings, so nothing is found again."""
    _shelf_of_books(factories)
    _every_page(client, "newest")
    before = db.session.scalar(select(db.func.sum(Category.listing_version)))
    book = db.session.scalars(select(Book)).first()
    book.stock, book.price_paise = 1, 59900
    db.session.commit()
    assert db.session.scalar(select(db.func.sum(Category.listing_version))) == before
    assert _every_page(client, "newest") == _expected("newest")
