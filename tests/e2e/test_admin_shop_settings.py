"""The admin's Shipping & payments screen in a real browser (issue 14): delivery zones, cash-on-delivery rules
and fees read from and saved to /api/admin/shop-settings, the server's refusals shown beside their fields.

Headless Chromium against gunicorn on the test database, at desktop (1280 px) and phone (360 px) widths.
"""
import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import AuditEntry, ShopSetting
from bookstore.services import delivery
from tests.e2e.admin_support import (ADMIN_EMAIL, ADMIN_PASSWORD, admin, admin_page, page_factory,  # noqa: F401
                                     server, sign_in)
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll

SCREEN = "/admin/shipping-payments"


def open_settings(page, server):
    sign_in(page, server, path=SCREEN)
    page.wait_for_url(server.base_url + SCREEN)
    expect(page.get_by_role("heading", level=1, name="Shipping & payments")).to_be_visible()


def zone(page, name: str):
    return page.get_by_role("group", name=name, exact=True)


def stored_settings() -> dict:
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    return delivery.settings()


def test_admin_changes_the_cod_cap_and_a_zones_days(admin_page, server, admin):
    """The screen shows the settings in force (rupees); a new COD cap, a zone's days and its COD switch are saved,
    said so ('Settings saved.'), audited, and still there after a reload."""
    page = admin_page
    open_settings(page, server)
    cap = page.get_by_label("COD order value cap (₹)")
    expect(cap).to_have_value("5000")
    expect(page.get_by_label("Shipping fee (₹)")).to_have_value("40")
    expect(page.get_by_label("Dispatch PIN")).to_have_value("560001")
    expect(page.get_by_label("Dispatch cut-off (IST)")).to_have_value("14:00")
    metro = zone(page, "Metro to metro")
    expect(metro.get_by_label("Fewest days")).to_have_value("2")
    expect(metro.get_by_label("Most days")).to_have_value("4")
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)

    cap.fill("7500.50")
    metro.get_by_label("Fewest days").fill("3")
    metro.get_by_label("Most days").fill("5")
    special = zone(page, "North-east, J&K and islands")
    special.get_by_label("Cash on delivery").uncheck()
    page.get_by_label("Holidays").fill("2026-12-25\n2026-10-20")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status").filter(has_text="Settings saved.")).to_be_visible()
    expect(page.get_by_label("Holidays")).to_have_value("2026-10-20\n2026-12-25")  # as the server keeps them

    settings = stored_settings()
    assert settings["cod_limit_paise"] == 750050
    assert settings["zones"]["metro"] == {"min_days": 3, "max_days": 5, "cod": True, "shipping_paise": None}
    assert settings["zones"]["special"]["cod"] is False
    assert settings["zones"]["sameCity"] == delivery.DEFAULTS["zones"]["sameCity"]
    assert settings["holidays"] == ["2026-10-20", "2026-12-25"]
    assert settings["shipping_paise"] == 4000
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "settings.update"))
    assert entry is not None and entry.actor_email == ADMIN_EMAIL
    assert_no_axe_violations(page)

    page.reload()
    expect(page.get_by_label("COD order value cap (₹)")).to_have_value("7500.5")
    expect(zone(page, "Metro to metro").get_by_label("Most days")).to_have_value("5")
    expect(zone(page, "North-east, J&K and islands").get_by_label("Cash on delivery")).not_to_be_checked()


@pytest.mark.parametrize("admin_page", [1280], ids=["desktop"], indirect=True)
def test_admin_sets_a_zones_shipping_fee(admin_page, server, admin):
    """A zone's shipping field starts blank (the flat fee); a fee over ₹1,000 is refused beside the field and
    nothing is stored; ₹75 for the rest of India is saved in paise, audited, and still there after a reload;
    cleared again, the zone is back on the flat fee."""
    page = admin_page
    open_settings(page, server)
    rest = zone(page, "Rest of India")
    fee = rest.get_by_label("Shipping (₹)")
    expect(fee).to_have_value("")
    assert_no_axe_violations(page)

    fee.fill("1500")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("alert")).to_contain_text("Nothing was saved.")
    expect(page.locator("#field-shop-zones-restOfIndia-shippingFee .adm-field__error")).to_have_text(
        "Must be between 0 and 1,000 rupees.")
    expect(fee).to_have_attribute("aria-invalid", "true")
    assert stored_settings()["zones"]["restOfIndia"]["shipping_paise"] is None

    fee.fill("75")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status").filter(has_text="Settings saved.")).to_be_visible()
    expect(page.locator("#field-shop-zones-restOfIndia-shippingFee .adm-field__error")).to_have_count(0)
    settings = stored_settings()
    assert settings["zones"]["restOfIndia"] == {"min_days": 4, "max_days": 7, "cod": True, "shipping_paise": 7500}
    assert settings["zones"]["metro"] == delivery.DEFAULTS["zones"]["metro"] and settings["shipping_paise"] == 4000
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "settings.update"))
    assert entry.after["zones"]["restOfIndia"]["shipping_paise"] == 7500
    assert_no_axe_violations(page)

    page.reload()
    expect(zone(page, "Rest of India").get_by_label("Shipping (₹)")).to_have_value("75")
    expect(zone(page, "Metro to metro").get_by_label("Shipping (₹)")).to_have_value("")
    zone(page, "Rest of India").get_by_label("Shipping (₹)").fill("")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status").filter(has_text="Settings saved.")).to_be_visible()
    assert stored_settings()["zones"]["restOfIndia"]["shipping_paise"] is None


def test_a_bad_value_shows_the_servers_message_and_changes_nothing(admin_page, server, admin):
    """A cap over ₹10,00,000 and a zone whose most days are under its fewest are refused with the server's words
    beside each field; a PIN outside the directory too; nothing is stored or audited, and the form keeps the
    admin's text to correct."""
    page = admin_page
    open_settings(page, server)
    cap = page.get_by_label("COD order value cap (₹)")
    cap.fill("2000000")
    metro = zone(page, "Metro to metro")
    metro.get_by_label("Fewest days").fill("6")
    metro.get_by_label("Most days").fill("3")
    page.get_by_label("COD never offered at").fill("012345")
    page.get_by_role("button", name="Save settings").click()

    summary = page.get_by_role("alert")
    expect(summary).to_contain_text("Nothing was saved.")
    expect(summary.get_by_role("link", name=re.compile("COD order value cap"))).to_be_visible()
    expect(page.locator("#field-shop-codLimit .adm-field__error")).to_have_text("Must be between 0 and 10,00,000 rupees.")
    expect(cap).to_have_attribute("aria-invalid", "true")
    expect(metro.locator(".adm-field__error")).to_have_text("Must be at least minDays.")
    expect(metro.get_by_label("Most days")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#field-shop-codOffPins .adm-field__error")).to_contain_text(
        "“012345”: PIN code must be 6 digits and cannot start with 0.")
    expect(cap).to_have_value("2000000")
    expect(page.get_by_role("status").filter(has_text="Settings saved.")).to_have_count(0)
    assert_no_axe_violations(page)

    # The schema passes, the service refuses: a PIN the directory does not know.
    cap.fill("6000")
    metro.get_by_label("Most days").fill("8")
    page.get_by_label("COD never offered at").fill("")
    page.get_by_label("Dispatch PIN").fill("999999")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("#field-shop-dispatchPin .adm-field__error")).to_have_text(
        "The dispatch PIN must be a PIN in the directory.")
    expect(page.locator("#field-shop-codLimit .adm-field__error")).to_have_count(0)

    assert stored_settings() == {**delivery.DEFAULTS, **delivery._deployment_defaults()}
    assert db.session.scalar(select(db.func.count()).select_from(ShopSetting)) == 0
    assert db.session.scalar(select(db.func.count()).select_from(AuditEntry)) == 0


def test_the_menu_leads_to_the_new_screens(page_factory, server, admin):
    """Shipping & payments and Coupons are in the admin menu and open their screens."""
    page = page_factory()
    sign_in(page, server)
    page.wait_for_url(server.base_url + "/admin")
    menu = page.get_by_role("navigation", name="Admin")
    menu.get_by_role("link", name="Shipping & payments").click()
    page.wait_for_url(server.base_url + SCREEN)
    expect(page.get_by_role("heading", level=1, name="Shipping & payments")).to_be_visible()
    expect(menu.get_by_role("link", name="Shipping & payments")).to_have_attribute("aria-current", "page")
    menu.get_by_role("link", name="Coupons").click()
    page.wait_for_url(server.base_url + "/admin/coupons")
    expect(page.get_by_role("heading", level=1, name="Coupons")).to_be_visible()
    assert page.errors == []
