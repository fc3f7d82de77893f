"""The demo catalogue generator: plausible, valid, deterministic books with covers stored as files."""
import hashlib
import os
import re
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import delete, func, select
from sqlalchemy import text as sql_text

from bookstore.demo import generator as demo
from bookstore.extensions import db
from bookstore.models import Book, Category, Kit, KitBook
from bookstore.services import catalogue

KEY = re.compile(r"^covers/([0-9a-f]{2})/(\1[0-9a-f]{30})(-thumb)?\.jpg$")
# A full stop between sentences, not inside "B.A. students" or "M.A. and M.Phil".
SENTENCE_BREAK = re.compile(r"(?<=[a-z0-9)])\. (?=[A-Z0-9])")


def books() -> list[Book]:
    return list(db.session.scalars(select(Book).order_by(Book.id)))


def media(app) -> Path:
    return Path(app.config["MEDIA_ROOT"])


def valid_isbn13(isbn: str) -> bool:
    digits = [int(d) for d in isbn]
    return len(isbn) == 13 and sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10 == 0


def test_seed_makes_the_books_asked_for_over_all_18_categories(app):
    """Seeding 200 books makes 200 rows, and every one of the 18 shelves gets some."""
    calls = []
    assert demo.seed(200, progress=calls.append) == 200
    rows = books()
    assert len(rows) == 200 and sum(calls) == 200
    assert {book.category_id for book in rows} == set(db.session.scalars(select(Category.id)))
    assert db.session.scalar(select(func.count(Category.id))) == 18


def test_isbns_are_valid_indian_isbn13s_and_unique(app):
    """Every ISBN-13 has a correct check digit, an Indian 978-81/978-93 prefix, and none repeats."""
    demo.seed(200, with_covers=False)
    isbns = [book.isbn for book in books()]
    assert all(valid_isbn13(isbn) and isbn[:5] in ("97881", "97893") for isbn in isbns)
    assert len(set(isbns)) == 200
    # The textbook example, 978-0-306-40615-7.
    assert demo.isbn_check_digit("978030640615") == "7" and valid_isbn13("9780306406157")


def test_prices_discounts_and_stock_are_in_range(app):
    """Prices are whole rupees from 99 to 1,999 ending like shop prices; offers are below price; stock 0-60."""
    demo.seed(200, with_covers=False)
    rows = books()
    assert all(9900 <= b.price_paise <= 199900 and b.price_paise % 100 == 0 for b in rows)
    assert all(b.price_paise // 100 % 100 in (99, 49, 0) for b in rows)
    offers = [b for b in rows if b.discounted_price_paise is not None]
    assert 30 <= len(offers) <= 90
    assert all(0 < b.discounted_price_paise < b.price_paise and b.discounted_price_paise % 100 == 0 for b in offers)
    assert all(0 <= b.stock <= 60 for b in rows)
    assert any(b.stock == 0 for b in rows) and sum(b.stock > 0 for b in rows) > 150


def test_books_look_like_a_real_study_shelf(app):
    """Languages, formats, dates, ratings, sizes, tags and descriptions are all filled plausibly."""
    demo.seed(200, with_covers=False)
    rows = books()
    assert {b.language for b in rows} == {"English", "Hindi", "English & Hindi"}
    assert {b.format for b in rows} <= {"Paperback", "Hardcover", "E-Book", "Audiobook"}
    assert sum(b.format == "Paperback" for b in rows) > 120
    oldest = demo.REFERENCE_DATE - timedelta(days=8 * 366)
    assert all(oldest <= b.publication_date < demo.REFERENCE_DATE < date.today() for b in rows)
    assert len({b.created_at for b in rows}) == 200
    assert all(b.created_at.date() >= b.publication_date for b in rows)
    assert all(3.0 <= b.rating <= 5.0 and round(b.rating, 1) == b.rating and b.rating_count > 0 for b in rows)
    assert max(b.copies_sold for b in rows) > 10 * sorted(b.copies_sold for b in rows)[100]
    for book in rows:
        assert book.title and book.author and book.publisher and book.description
        assert book.tags and all(isinstance(tag, str) and tag for tag in book.tags)
        assert 2 <= len(SENTENCE_BREAK.split(book.description)) <= 4
        if book.format in ("Paperback", "Hardcover"):
            assert re.fullmatch(r"\d+g", book.weight)
            assert re.fullmatch(r"[\d.]+ x [\d.]+ x [\d.]+ cm", book.dimensions)
            assert book.pages >= 8
    assert len({b.title for b in rows}) > 190


def test_the_same_count_gives_the_same_catalogue(app):
    """Seeding N books into an empty catalogue twice gives identical titles, ISBNs, prices and covers."""
    fields = ("title", "author", "isbn", "price_paise", "discounted_price_paise", "stock", "description",
              "publication_date", "created_at", "tags", "cover_key", "thumbnail_key")
    demo.seed(60)
    first = [tuple(getattr(b, f) for f in fields) for b in books()]
    db.session.execute(delete(KitBook))  # the demo kits name its books
    db.session.execute(delete(Kit))
    db.session.execute(delete(Book))
    db.session.commit()
    demo.seed(60)
    assert [tuple(getattr(b, f) for f in fields) for b in books()] == first


def test_books_do_not_depend_on_the_process_hash_seed():
    """Book n is the same in every process whatever PYTHONHASHSEED: no set or hash order leaks in."""
    script = ("from bookstore.demo import data, generator as demo\n"
              "shelves = [demo.Shelf(n, s, s.upper(), '#455a64') for n, s in enumerate(data.SHELVES)]\n"
              "for i in range(90): print(demo._book(i, demo.isbn13(i), shelves[i % 18]))")
    outputs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).parents[2], env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")]
    assert outputs[0] == outputs[1] and outputs[0].count("\n") == 90


def test_covers_are_content_addressed_image_files_and_the_database_holds_keys(app):
    """Each book's cover and thumbnail are JPEG files named by their hash; the rows keep only the keys."""
    demo.seed(40)
    for book in books():
        cover_match, thumb_match = KEY.match(book.cover_key), KEY.match(book.thumbnail_key)
        assert cover_match and thumb_match and thumb_match.group(3) == "-thumb"
        assert thumb_match.group(2) == cover_match.group(2)
        cover_bytes = (media(app) / book.cover_key).read_bytes()
        assert hashlib.sha256(cover_bytes).hexdigest()[:32] == cover_match.group(2)
        with Image.open(media(app) / book.cover_key) as cover, Image.open(media(app) / book.thumbnail_key) as thumb:
            assert (cover.format, cover.size) == ("JPEG", (300, 450))
            assert (thumb.format, thumb.size) == ("JPEG", (150, 225))
            cover.verify()
    assert len({b.cover_key for b in books()}) == 40
    assert len(list(media(app).rglob("*.jpg"))) == 80
    assert not list(media(app).rglob("*.tmp"))


def test_seeding_twice_continues_without_colliding(app):
    """A second run adds books after the first run's, with fresh ISBNs (the column is unique)."""
    demo.seed(30, with_covers=False)
    demo.seed(30, with_covers=False)
    isbns = [b.isbn for b in books()]
    assert len(isbns) == len(set(isbns)) == 60
    assert isbns == [demo.isbn13(i) for i in range(60)]


def test_seeding_skips_isbns_an_administrator_already_used(app, factories):
    """An existing book holding the next demo ISBN is stepped over instead of failing the insert."""
    factories.book(isbn=demo.isbn13(1))
    assert demo.seed(5, with_covers=False) == 5
    isbns = [b.isbn for b in books()]
    assert len(isbns) == len(set(isbns)) == 6
    assert isbns[1:] == [demo.isbn13(i) for i in (2, 3, 4, 5, 6)]


def test_without_covers_no_files_are_written_and_keys_stay_empty(app):
    """--no-covers makes the books only: no image files, no keys."""
    demo.seed(20, with_covers=False)
    assert all(b.cover_key is None and b.thumbnail_key is None for b in books())
    assert not media(app).exists() or not any(media(app).rglob("*"))


def test_demo_books_are_found_by_search(app):
    """The search-index triggers index bulk-inserted demo books like any other."""
    demo.seed(40, with_covers=False)
    book = books()[7]
    word = max(re.findall(r"[A-Za-z]{5,}", book.title), key=len)
    found = catalogue.list_books(page=1, limit=100, search_text=f"{word} {book.author.split()[-1]}")
    assert book.id in [b.id for b in found.items]


def test_the_seed_demo_command_loads_books_and_respects_if_empty(app, runner):
    """`flask seed-demo --books 50` loads 50 books with covers; --if-empty then leaves them alone."""
    result = runner.invoke(args=["seed-demo", "--books", "50"])
    assert result.exit_code == 0, result.output
    assert "Loaded 50 demo books." in result.output
    assert len(books()) == 50 and all(b.cover_key for b in books())
    again = runner.invoke(args=["seed-demo", "--books", "50", "--if-empty"])
    assert again.exit_code == 0 and "already" in again.output
    assert len(books()) == 50


def test_the_seed_demo_command_without_covers(app, runner):
    """`flask seed-demo --no-covers` leaves the cover keys empty."""
    result = runner.invoke(args=["seed-demo", "--books", "25", "--no-covers"])
    assert result.exit_code == 0, result.output
    assert len(books()) == 25 and all(b.cover_key is None for b in books())


def test_after_a_bulk_load_postgresql_has_compact_categories_and_fresh_statistics(app):
    """A freshly loaded catalogue is fast from its first request: the category rows rewritten once per
    book are compacted and the planner knows how many books there are (PostgreSQL; SQLite plans
    without statistics)."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("planner statistics and row versions are PostgreSQL's")
    demo.seed(600, with_covers=False)
    pages, books_estimate = db.session.execute(sql_text(
        "SELECT (SELECT relpages FROM pg_class WHERE relname = 'categories'),"
        " (SELECT reltuples FROM pg_class WHERE relname = 'books')")).one()
    assert pages == 1  # 18 rows, not 600 dead versions of them
    assert books_estimate == 600
    assert sum(db.session.scalars(select(Category.book_count))) == 600


def test_books_carry_exams_media_and_editions(app):
    """Exam books are tagged with their exams and subjects, media follow the language (some Hindi and
    bilingual), edition years follow publication, and every 50th book is a newer edition of an older one."""
    demo.seed(200, with_covers=False)
    rows = books()
    tagged = [b for b in rows if b.exams]
    assert len(tagged) > 80 and len({exam.slug for b in tagged for exam in b.exams}) > 20
    assert all({subject.exam_id for subject in b.subjects} <= {exam.id for exam in b.exams} for b in rows)
    assert sum(bool(b.subjects) for b in rows) > 60
    jee = [b for b in rows if "jee-main" in {e.slug for e in b.exams}]
    assert jee and all(b.category.slug == "iit" for b in jee)
    assert {b.medium for b in rows} == {"english", "hindi", "bilingual"}
    assert all(b.medium == {"English": "english", "Hindi": "hindi", "English & Hindi": "bilingual"}[b.language]
               for b in rows)
    assert all(b.edition_year in (b.publication_date.year, b.publication_date.year + 1) for b in rows)
    newer = [b for b in rows if b.replaces_id is not None]
    assert len(newer) == 4  # books 49, 99, 149 and 199 (serial numbers from 0)
    for book in newer:
        older = book.replaces
        assert older.author == book.author and older.edition_year < book.edition_year
        assert book.edition_number == (older.edition_number or 1) + 1 and older.newer_edition.id == book.id
    found = catalogue.list_books(page=1, limit=100, exam="jee-main", medium="english")
    assert {b.id for b in found.items} == {b.id for b in jee if b.medium == "english"}
