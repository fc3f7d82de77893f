"""The admin's kit screens in a real browser (issue 15): a kit refused without books (the server's words on the
form, nothing stored), then made from books found by search, listed with its price and saving, and archived.

Headless Chromium against gunicorn on the test database, at desktop (1280 px) and phone (360 px) widths.
"""
from playwright.sync_api import expect
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import Kit
from tests.e2e.admin_support import admin, admin_page, page_factory, server, sign_in  # noqa: F401
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll

LIST = "/admin/kits"


def kits() -> list[Kit]:
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    return list(db.session.scalars(select(Kit)))


def test_admin_makes_and_archives_a_kit(admin_page, server, admin, factories):
    """Without books the kit is refused with the server's message; with two books found by search it is created,
    listed with its price and saving, and archived from its editor (audited by the API)."""
    page = admin_page
    factories.book(title="Kitbuilder Physics", price_paise=50000, stock=5)
    factories.book(title="Kitbuilder Chemistry", price_paise=40000, stock=5)
    sign_in(page, server, path=LIST)
    page.wait_for_url(server.base_url + LIST)
    expect(page.get_by_role("heading", level=1, name="Kits")).to_be_visible()
    expect(page.get_by_text("No kits yet")).to_be_visible()
    assert_no_axe_violations(page)

    page.get_by_role("link", name="+ New kit").click()
    page.wait_for_url(server.base_url + "/admin/kits/new")
    page.get_by_label("Name").fill("Kitbuilder set")
    page.get_by_label("Kit price (₹)").fill("800")
    page.get_by_role("button", name="Create kit").click()
    expect(page.locator(".adm-summary")).to_contain_text("A kit needs at least one book.")
    assert kits() == []

    page.get_by_label("Add a book").fill("Kitbuilder")
    page.get_by_role("button", name="Find").click()
    page.get_by_role("button", name="Add Kitbuilder Physics to the kit").click()
    page.get_by_role("button", name="Add Kitbuilder Chemistry to the kit").click()
    expect(page.locator("[data-kit-total]")).to_contain_text("shoppers save ₹100")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)
    page.get_by_role("button", name="Create kit").click()
    page.wait_for_url(server.base_url + LIST)
    row = page.locator('[data-kit="kitbuilder-set"]')
    expect(row).to_contain_text("₹800")
    expect(row).to_contain_text("₹100")
    [kit] = kits()
    assert (kit.price_paise, len(kit.items), kit.archived) == (80000, 2, False)

    row.get_by_role("link", name="Edit kit Kitbuilder set").click()
    page.get_by_label("Archived").check()
    page.get_by_role("button", name="Save kit").click()
    page.wait_for_url(server.base_url + LIST)
    expect(page.locator('[data-kit="kitbuilder-set"]')).to_contain_text("Archived")
    assert kits()[0].archived is True
