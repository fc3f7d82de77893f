"""Migrations: one head, upgrade from empty on this run's database, no drift from the models."""
import os
import uuid

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from bookstore import create_app
from bookstore.extensions import db, migrate
from bookstore.models.search_index import include_in_autogenerate
from tests.conftest import _config


@pytest.fixture
def empty_database_url(tmp_path):
    """A brand-new, empty database of the kind this run tests (SQLite or PostgreSQL)."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        yield "sqlite:///" + str(tmp_path / "empty.db")
        return
    parsed = make_url(base)
    name = f"{parsed.database}_migrations_{uuid.uuid4().hex[:8]}"
    admin = parsed.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield parsed.set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def fresh_app(empty_database_url, tmp_path):
    app = create_app(_config(empty_database_url, str(tmp_path / "media")))
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


def test_single_head(app):
    """The migrations have a single head."""
    script = ScriptDirectory.from_config(migrate.get_config())
    assert len(script.get_heads()) == 1


def test_upgrade_from_empty_leaves_no_drift(fresh_app):
    """Upgrading an empty database gives exactly the models' schema (what `flask db check` checks)."""
    upgrade()
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={
            "compare_type": True,
            "include_name": include_in_autogenerate,
        })
        diff = compare_metadata(context, db.metadata)
    assert diff == []
    tables = set(inspect(db.engine).get_table_names())
    assert {"users", "categories", "books", "wishlist_items", "contact_messages", "newsletter_subscribers"} <= tables
    assert db.session.scalar(text("SELECT count(*) FROM categories")) == 18


def test_search_index_exists_after_upgrade(fresh_app):
    """After the migrations the search index exists: the FTS table on SQLite, the search_vector column on PostgreSQL."""
    upgrade()
    if db.engine.dialect.name == "sqlite":
        assert db.session.scalar(text("SELECT count(*) FROM sqlite_master WHERE name = 'book_search'")) == 1
    else:
        columns = {c["name"] for c in inspect(db.engine).get_columns("books")}
        assert "search_vector" in columns
        # Shoppers' searches use a GIN index of visible books only; admins' the whole one.
        indexes = dict(db.session.execute(
            text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'books'")).all())
        assert "USING gin (search_vector)" in indexes["ix_books_search_vector"]
        assert indexes["ix_books_search_vector_visible"].endswith("USING gin (search_vector) WHERE (archived IS FALSE)")
        assert "INCLUDE (discounted_price_paise, price_paise)" in indexes["ix_books_listing_category_price"]
        for part in ("title", "author", "description"):  # suggestions look in one part at a time
            assert f"to_tsvector('simple'::regconfig, ({part})::text)" in indexes[f"ix_books_search_{part}_words"] \
                or f"to_tsvector('simple'::regconfig, {part})" in indexes[f"ix_books_search_{part}_words"]


def test_downgrade_to_empty_and_up_again(fresh_app):
    """The migrations go down to an empty database and up again, with the 18 categories back."""
    upgrade()
    downgrade(revision="base")
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    upgrade()
    assert db.session.scalar(text("SELECT count(*) FROM categories")) == 18


def test_existing_languages_become_media(fresh_app):
    """Migration 0014 reads each existing book's free-text language into the fixed medium list ("Hindi Medium" ->
    hindi, "English & Hindi" -> bilingual, anything else english) and its publication year into the edition year."""
    upgrade(revision="0011_promised_delivery")
    languages = {"Hindi Medium": "hindi", "hindi": "hindi", "English & Hindi": "bilingual",
                 "Bilingual": "bilingual", "English": "english", "Tamil": "english"}
    for number, language in enumerate(languages, start=1):
        db.session.execute(text(
            "INSERT INTO books (title, author, category_id, price_paise, stock, description, publisher, "
            "publication_date, language, format, dimensions, weight, tags, rating, rating_count, copies_sold, "
            "archived, created_at, updated_at) VALUES (:title, 'A', 1, 100, 1, '', '', :published, :language, "
            "'Paperback', '', '', '[]', 0, 0, 0, false, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"),
            {"title": f"Book {number}", "published": f"20{10 + number}-05-01", "language": language})
    db.session.commit()
    upgrade()
    rows = db.session.execute(text("SELECT language, medium, edition_year FROM books ORDER BY id")).all()
    assert {language: medium for language, medium, _ in rows} == languages
    assert [year for _, _, year in rows] == [2011, 2012, 2013, 2014, 2015, 2016]


@pytest.mark.parametrize("saved, address", [
    ({"contact_address": "12 Residency Road, Bengaluru 560025"}, "12 Residency Road, Bengaluru 560025"),
    ({"contact_address": "12 Residency Road, Bengaluru 560025", "seller_address": "5 Park Street, Kolkata 700016"},
     "5 Park Street, Kolkata 700016"),
    ({"contact_address": ""}, None),
])
def test_the_contact_address_becomes_the_shop_address(fresh_app, saved, address):
    """Migration 0021 keeps one address setting, seller_address: an administrator's contact address carries over
    unless a seller address was saved too (that one is on bills already); the contact_address row goes."""
    import sqlalchemy as sa
    settings = sa.table("shop_settings", sa.column("key", sa.String), sa.column("value", sa.JSON),
                        sa.column("updated_at", sa.DateTime(timezone=True)))
    upgrade(revision="0020_bill")
    for key, value in saved.items():
        db.session.execute(settings.insert().values(key=key, value=value, updated_at=sa.func.now()))
    db.session.commit()
    upgrade()
    rows = dict(db.session.execute(sa.select(settings.c.key, settings.c.value)).all())
    assert "contact_address" not in rows and rows.get("seller_address") == address
    downgrade(revision="0020_bill")
    rows = dict(db.session.execute(sa.select(settings.c.key, settings.c.value)).all())
    assert rows.get("contact_address") == (address if "seller_address" in rows else None)
    db.session.commit()


def test_orders_paid_before_bills_existed_are_numbered_by_the_migration(fresh_app):
    """Migration 0024 numbers every paid or delivered order without a bill number in the order its bill became
    due (the earlier of payment and delivery), per financial year in India time, continuing each year's
    counter; unpaid orders and numbered ones are left alone, and billed_at is the moment it became due."""
    from datetime import datetime, timedelta, timezone

    from sqlalchemy import insert

    from bookstore.models import Order, OrderStatusChange
    def ist(*parts):  # stored in UTC, as the shop stores every time (SQLite keeps no offset)
        return datetime(*parts, tzinfo=timezone(timedelta(hours=5, minutes=30))).astimezone(timezone.utc)
    upgrade(revision="0020_bill")

    def order(key, **values):
        row = {"public_id": f"order-{key}", "order_number": f"BK-2026-{key:0>6}", "payment_method": "cod",
               "items_paise": 10000, "shipping_paise": 4000, "total_paise": 14000, "email": "a@example.in",
               "first_name": "Asha", "last_name": "Rao", "phone": "9876543210", "address": "1 MG Road",
               "city": "Pune", "state": "Maharashtra", "zip_code": "411001", **values}
        return db.session.execute(insert(Order).values(**row).returning(Order.id)).scalar_one()

    may = order("MAYPAY", payment_method="online", payment_status="paid", status="processing",
                paid_at=ist(2026, 5, 10, 9, 0))
    april = order("APRPAY", payment_method="online", payment_status="paid", status="shipped",
                  paid_at=ist(2026, 4, 1, 0, 30))
    march = order("MARDEL", status="delivered", payment_status="pending")
    db.session.execute(insert(OrderStatusChange).values(order_id=march, status="delivered", by="system",
                                                        at=ist(2026, 3, 31, 20, 0)))
    order("UNPAID", status="pending", payment_status="pending")
    order("BILLED", payment_status="paid", status="delivered", bill_number="BS/2627/000003",
          billed_at=ist(2026, 4, 20), paid_at=ist(2026, 4, 20))
    db.session.execute(text("INSERT INTO bill_counters (financial_year, last_number) VALUES ('2026-27', 3)"))
    db.session.commit()

    upgrade()

    numbers = dict(db.session.execute(text("SELECT order_number, bill_number FROM orders")).all())
    assert numbers == {"BK-2026-MAYPAY": "BS/2627/000005", "BK-2026-APRPAY": "BS/2627/000004",
                       "BK-2026-MARDEL": "BS/2526/000001", "BK-2026-UNPAID": None, "BK-2026-BILLED": "BS/2627/000003"}
    assert dict(db.session.execute(text("SELECT financial_year, last_number FROM bill_counters")).all()) == {
        "2026-27": 5, "2025-26": 1}
    billed = db.session.scalar(select_billed_at(may))
    assert billed.replace(tzinfo=billed.tzinfo or timezone.utc) == ist(2026, 5, 10, 9, 0)
    assert april and march


def select_billed_at(order_id: int):
    from sqlalchemy import select

    from bookstore.models import Order
    return select(Order.billed_at).where(Order.id == order_id)


def test_kit_lines_sold_before_0025_get_their_books_prices_and_formats(fresh_app):
    """Migration 0025 gives each book of a kit line sold before it the book's sale price (the discounted one when
    there is one) and format (e-books and audiobooks: digital) as they are when it runs; return lines gain a
    book_id, empty for the lines already there."""
    from sqlalchemy import insert

    from bookstore.models import Kit, Order, OrderLine
    from tests.factories import Factories
    upgrade(revision="0024_booking_and_old_bills")
    factories = Factories()
    printed = factories.book(title="Physics", price_paise=50000, discounted_price_paise=45000)
    download = factories.book(title="Formulae", price_paise=15000, format="E-Book", stock=0)
    kit = db.session.execute(insert(Kit).values(name="Kit", slug="kit", price_paise=55000).returning(Kit.id)).scalar_one()
    order = db.session.execute(insert(Order).values(
        public_id="order-kit", order_number="BK-2026-KIT001", payment_method="cod", items_paise=55000,
        shipping_paise=4000, total_paise=59000, email="a@example.in", first_name="Asha", last_name="Rao",
        phone="9876543210", address="1 MG Road", city="Pune", state="Maharashtra", zip_code="411001",
    ).returning(Order.id)).scalar_one()
    line = db.session.execute(insert(OrderLine).values(order_id=order, kit_id=kit, title="Kit", author="Kit of 2 books",
                                                       unit_price_paise=55000, quantity=1).returning(OrderLine.id)).scalar_one()
    for book in (printed, download):
        db.session.execute(text("INSERT INTO order_line_books (order_line_id, book_id, title, quantity) "
                                "VALUES (:line, :book, :title, 1)"), {"line": line, "book": book.id, "title": book.title})
    db.session.commit()

    upgrade()

    rows = db.session.execute(text("SELECT title, unit_price_paise, digital FROM order_line_books ORDER BY book_id")).all()
    assert [(title, price, bool(digital)) for title, price, digital in rows] == [
        ("Physics", 45000, False), ("Formulae", 15000, True)]
    assert "book_id" in {column["name"] for column in inspect(db.engine).get_columns("return_lines")}


def test_the_stock_ledger_opens_each_existing_book_with_its_stock(fresh_app):
    """Migration 0031 writes one `opening` row of its current stock per book, so `flask check-stock` holds at once."""
    from tests.factories import Factories
    upgrade(revision="0030_order_placed_from")
    factories = Factories()
    books = [factories.book(stock=stock) for stock in (0, 7, 12)]

    upgrade()

    rows = db.session.execute(text("SELECT book_id, kind, quantity, stock_after, actor FROM stock_movements "
                                   "ORDER BY book_id")).all()
    assert [tuple(row) for row in rows] == [(book.id, "opening", book.stock, book.stock, "system") for book in books]
    result = fresh_app.test_cli_runner().invoke(args=["check-stock"])
    assert result.exit_code == 0, result.output
