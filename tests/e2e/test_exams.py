"""Exam journeys (issue 15): the exam list, an exam's page filtered by subject and medium, a book's
medium and edition, and the link from an older edition to the newer one, at desktop and phone sizes."""
import re
import secrets
from datetime import date

import pytest
from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.models import Book, Exam, ExamSubject
from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll


@pytest.fixture
def editions(shop):
    """Three CLAT Quantitative Techniques books with a unique word: a Hindi 2025 edition, the Hindi 2026
    edition that replaces it (the best seller), and an English one."""
    word = "Zyx" + secrets.token_hex(3)
    with shop.app.app_context():
        try:
            clat = db.session.scalar(db.select(Exam).where(Exam.slug == "clat"))
            quant = db.session.scalar(db.select(ExamSubject).where(ExamSubject.exam_id == clat.id,
                                                                   ExamSubject.slug == "quantitative-techniques"))
            tags = {"exams": [clat], "subjects": [quant], "category": "other-competitive"}
            older = shop.factories.book(title=f"{word} Quantitative Techniques 2025", medium="hindi",
                                        edition_year=2025, edition_number=2, copies_sold=5, **tags)
            newer = shop.factories.book(title=f"{word} Quantitative Techniques 2026", medium="hindi",
                                        edition_year=2026, edition_number=3, copies_sold=100000, replaces=older,
                                        publication_date=date(2026, 1, 10), **tags)
            english = shop.factories.book(title=f"{word} Quantitative Techniques in English", copies_sold=1, **tags)
            ids = {"older": str(older.id), "newer": str(newer.id), "english": str(english.id)}
            titles = {name: db.session.get(Book, int(book_id)).title for name, book_id in ids.items()}
        finally:
            db.session.rollback()
            db.session.remove()
    yield word, ids, titles
    # Off the shelves again, so the next test's exam page counts only its own books.
    for book_id in ids.values():
        shop.set_book(book_id, archived=True)


def journey(page, word: str, ids: dict, titles: dict) -> None:
    page.goto("/exams")
    expect(page.get_by_role("heading", name="Exams", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Law", level=2)).to_be_visible()
    expect(page.get_by_role("heading", name="School: CBSE", level=2)).to_be_visible()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    page.get_by_role("link", name=re.compile(r"^Common Law Admission Test")).click()
    expect(page).to_have_url(re.compile(r"/exam/clat$"))
    expect(page.get_by_role("heading", name="Common Law Admission Test", level=1)).to_be_visible()
    best = page.get_by_role("region", name="Best sellers for CLAT")
    expect(best.get_by_role("link", name=titles["newer"])).to_be_visible()

    # On a phone the filters are in a sheet behind the Filters button (issue 16).
    filters = page.get_by_role("button", name=re.compile(r"^Filters"))
    if filters.is_visible():
        filters.click()
    page.get_by_label("Subject").select_option("quantitative-techniques")
    expect(page).to_have_url(re.compile(r"subject=quantitative-techniques"))
    expect(page.get_by_text("Showing 3 of 3 books")).to_be_visible()
    page.get_by_label("Medium").select_option("hindi")
    expect(page).to_have_url(re.compile(r"medium=hindi"))
    expect(page.get_by_text("Showing 2 of 2 books")).to_be_visible()
    if filters.is_visible():
        page.get_by_role("dialog", name="Filters").get_by_role("button", name="Show 2 books").click()
        expect(filters).to_have_accessible_name("Filters 2 active")
    results = page.get_by_role("list", name="Books")
    expect(results.get_by_role("link", name=titles["english"])).to_have_count(0)
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    results.get_by_role("link", name=titles["older"]).click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_text("2nd edition, 2025")).to_be_visible()
    expect(dialog.get_by_text("Hindi", exact=True)).to_be_visible()
    newer_link = dialog.get_by_role("link", name=f"A newer edition is available: {titles['newer']}")
    expect(newer_link).to_be_visible()
    assert_no_axe_violations(page)
    newer_link.click()
    expect(page).to_have_url(re.compile(rf"/book/{ids['newer']}$"))
    expect(page.get_by_role("heading", name=titles["newer"], level=1)).to_be_visible()
    expect(page.get_by_text("3rd edition, 2026")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("A newer edition is available"))).to_have_count(0)
    expect(page.get_by_role("link", name="Common Law Admission Test")).to_be_visible()
    assert_no_axe_violations(page)

    page.goto(f"/book/{ids['older']}")
    page.get_by_role("link", name=f"A newer edition is available: {titles['newer']}").click()
    expect(page).to_have_url(re.compile(rf"/book/{ids['newer']}$"))


def test_exam_pages_filters_and_newer_edition_on_desktop(page, editions):
    """At 1280 px: /exams lists the exams by group, an exam page filters by subject and medium, a book shows
    its medium and edition, and an older edition links to the newer one; every screen is axe-clean."""
    journey(page, *editions)


def test_exam_pages_filters_and_newer_edition_on_a_phone(phone_page, editions):
    """The same journey at 360 px, without horizontal scrolling."""
    journey(phone_page, *editions)


def test_home_shows_popular_exams_and_books_filter_by_medium(page, editions):
    """Home's "Popular exams" links to an exam page; /books has a medium filter kept in the URL."""
    word, ids, titles = editions
    page.goto("/")
    popular = page.get_by_role("region", name="Popular exams")
    popular.get_by_role("link", name="JEE Main").click()
    expect(page).to_have_url(re.compile(r"/exam/jee-main$"))
    page.goto(f"/books?search={word}")
    expect(page.get_by_text(f'Showing 3 of 3 books for "{word}"')).to_be_visible()
    page.get_by_label("Medium").select_option("english")
    expect(page).to_have_url(re.compile(r"medium=english"))
    expect(page.get_by_text(f'Showing 1 of 1 book for "{word}"')).to_be_visible()
    assert_no_axe_violations(page)
