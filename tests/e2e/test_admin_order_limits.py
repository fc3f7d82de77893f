"""The admin's Shipping & payments screen sets the anti-hoarding limits (product §5.7) in a real browser: copies
unpaid orders may hold per buyer and the size from which a cash order waits for the shop's confirmation, with
the server's refusals beside their fields.

Headless Chromium against gunicorn on the test database.
"""
import re

from playwright.sync_api import expect
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import ShopSetting
from bookstore.services import delivery
from tests.e2e.admin_support import admin, admin_page, api, page_factory, server, sign_in  # noqa: F401
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.test_admin_shop_settings import open_settings, stored_settings

UNPAID = "Unpaid copies per buyer"
LARGE = "Large COD order above (copies)"


def test_admin_sets_the_hoarding_limits_and_sees_bad_values_refused(admin_page, server, admin):
    """The fields show the limits in force; 0 and 20000 are refused beside each field ("Must be between 1 and
    10000.") and nothing is stored; valid values are saved and shown again after a reload."""
    page = admin_page
    open_settings(page, server)
    unpaid, large = page.get_by_role("spinbutton", name=UNPAID), page.get_by_role("spinbutton", name=LARGE)
    # The server's deployment default (UNPAID_COPIES_PER_BUYER of the test server) and the shop default.
    expect(unpaid).to_have_value(re.compile(r"^[1-9][0-9]*$"))
    expect(large).to_have_value(str(delivery.DEFAULTS["large_cod_copies"]))

    unpaid.fill("20000")
    large.fill("0")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("alert")).to_contain_text("Nothing was saved.")
    expect(page.locator("#field-shop-unpaidCopiesPerBuyer .adm-field__error")).to_have_text(
        "Must be between 1 and 10000.")
    expect(page.locator("#field-shop-largeCodCopies .adm-field__error")).to_have_text("Must be between 1 and 10000.")
    expect(unpaid).to_have_attribute("aria-invalid", "true")
    expect(large).to_have_value("0")
    assert db.session.scalar(select(db.func.count()).select_from(ShopSetting)) == 0
    assert_no_axe_violations(page)

    unpaid.fill("80")
    large.fill("12")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status").filter(has_text="Settings saved.")).to_be_visible()
    settings = stored_settings()
    assert (settings["unpaid_copies_per_buyer"], settings["large_cod_copies"]) == (80, 12)
    page.reload()
    expect(page.get_by_role("spinbutton", name=UNPAID)).to_have_value("80")
    expect(page.get_by_role("spinbutton", name=LARGE)).to_have_value("12")


def test_a_large_cash_order_says_until_when_it_waits(admin_page, server, admin, factories, api):
    """A cash order of 11 copies: its order link's page and the admin's order details say "Waiting for the
    shop's confirmation until …"."""
    books = [api.book(factories.book(title=f"Bulk Reader {n}", price_paise=10000, stock=20).id) for n in range(2)]
    order = api.place_cod_order(None, [(books[0], 6), (books[1], 5)])
    assert order["confirmBy"]
    page = admin_page
    page.goto(server.base_url + order["link"])
    expect(page.get_by_text("Waiting for the shop's confirmation until")).to_be_visible()
    sign_in(page, server, path="/admin/orders")
    short = order["orderNumber"]
    page.get_by_role("button", name=f"View order {short}").click()
    details = page.get_by_role("dialog", name=re.compile(short))
    expect(details).to_contain_text("Waiting for the shop's confirmation until")
