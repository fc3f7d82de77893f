"""The admin book form's medium, edition and exam fields in a real browser (issue 15)."""
import re

import pytest
from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.models import Book
from tests.e2e.admin_support import (ADMIN_EMAIL, ADMIN_PASSWORD, admin, page, page_factory,  # noqa: F401
                                     server, sign_in)
from tests.e2e.conftest import assert_no_axe_violations


def test_admin_sets_medium_edition_exams_and_the_replaced_edition(page, server, admin, factories, app):
    """Editing a book, the admin picks the medium, edition year and number, the older edition it replaces, an
    exam and one of its subjects; the book is saved with them and the form shows them when opened again."""
    older = factories.book(title="Physics for JEE Main 2025")
    book = factories.book(title="Physics for JEE Main 2026", cover_key="covers/ab/abc.webp", weight="500g")
    sign_in(page, server)
    page.wait_for_url(server.base_url + "/admin")
    page.goto(server.base_url + f"/admin/books/edit/{book.id}")
    expect(page.get_by_role("heading", name="Edit Book")).to_be_visible()
    page.get_by_role("combobox", name="Medium", exact=True).select_option("hindi")
    page.get_by_role("spinbutton", name="Edition year", exact=True).fill("2026")
    page.get_by_role("spinbutton", name="Edition number", exact=True).fill("5")
    page.get_by_role("textbox", name="Replaces edition", exact=True).fill(str(older.id))
    page.get_by_role("checkbox", name="JEE Main", exact=True).check()
    page.get_by_role("checkbox", name="Physics", exact=True).check()
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Update Book").click()
    page.wait_for_url(re.compile(r"/admin/books$"))

    db.session.expire_all()
    saved = db.session.get(Book, book.id)
    assert (saved.medium, saved.edition_year, saved.edition_number, saved.replaces_id) == ("hindi", 2026, 5, older.id)
    assert [exam.slug for exam in saved.exams] == ["jee-main"]
    assert [(subject.exam.slug, subject.slug) for subject in saved.subjects] == [("jee-main", "physics")]

    page.goto(server.base_url + f"/admin/books/edit/{book.id}")
    expect(page.get_by_role("combobox", name="Medium", exact=True)).to_have_value("hindi")
    expect(page.get_by_role("checkbox", name="JEE Main", exact=True)).to_be_checked()
    expect(page.get_by_role("checkbox", name="Physics", exact=True)).to_be_checked()
    expect(page.get_by_role("spinbutton", name="Edition number", exact=True)).to_have_value("5")
