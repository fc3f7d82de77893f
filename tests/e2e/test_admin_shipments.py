"""The admin order dialog's shipments (product §7.8), at 1280 and 360 px: Ship part of an order with a
courier and AWB, then the rest; add a tracking event; the dialog stays axe clean."""
import re

from playwright.sync_api import expect

from tests.e2e.admin_support import (SHOPPER_PASSWORD, admin, admin_page, api, page_factory, server,  # noqa: F401
                                     sign_in)
from tests.e2e.support.axe import assert_no_axe_violations


def test_ship_dialog_partial_then_rest_and_an_event(admin_page, server, admin, factories, api, app):
    """Ship one book of two by hand (the order becomes processing), then the rest (shipped); add an
    "Out for delivery" event to the first parcel; the parcels list shows couriers, AWB links and events."""
    page = admin_page
    first = factories.book(title="Shipping Aptitude", price_paise=30000, stock=5)
    second = factories.book(title="Shipping Reasoning", price_paise=20000, stock=5)
    order = api.place_cod_order(None, [(api.book(first.id), 1), (api.book(second.id), 2)], first_name="Devi",
                                email="devi@example.in")
    number = order["orderNumber"]

    sign_in(page, server, path="/admin/orders")
    page.wait_for_url(server.base_url + "/admin/orders")
    page.get_by_role("row", name=re.compile(number)).get_by_role("button", name=f"View order {number}").click()
    dialog = page.get_by_role("dialog", name=re.compile(number))
    expect(dialog.get_by_text("Nothing shipped yet.")).to_be_visible()

    dialog.get_by_role("button", name="Ship…").click()
    form = dialog.locator("form.adm-ship")
    form.get_by_label("Courier", exact=True).select_option("Delhivery")
    form.get_by_label("AWB number").fill("DLV555")
    form.get_by_label(re.compile("Shipping Reasoning")).fill("0")
    assert_no_axe_violations(page)
    form.get_by_role("button", name="Ship parcel").click()
    expect(dialog.get_by_role("status").filter(has_text="Shipped. The order is now processing.")).to_be_visible()
    parcel = dialog.locator(".adm-parcel").first
    expect(parcel).to_contain_text("Parcel 1: Delhivery")
    expect(parcel.get_by_role("link", name="DLV555")).to_have_attribute(
        "href", "https://www.delhivery.com/track/package/DLV555")
    expect(parcel).to_contain_text("1 × Shipping Aptitude")

    dialog.get_by_role("button", name="Ship…").click()
    form = dialog.locator("form.adm-ship")
    expect(form.get_by_label(re.compile("Shipping Aptitude"))).to_have_count(0)
    form.get_by_label("Courier", exact=True).select_option("India Post")
    form.get_by_label("AWB number").fill("EE000111222IN")
    form.get_by_role("button", name="Ship parcel").click()
    expect(dialog.get_by_role("status").filter(has_text="Shipped. The order is now shipped.")).to_be_visible()
    expect(dialog.locator(".adm-parcel")).to_have_count(2)
    expect(dialog.get_by_role("button", name="Ship…")).to_have_count(0)

    parcel.get_by_role("button", name=re.compile("Add event")).click()
    event_form = parcel.get_by_role("form", name="New event for parcel 1")
    event_form.get_by_label("Event").select_option("out_for_delivery")
    event_form.get_by_label("Location (optional)").fill("Pune")
    assert_no_axe_violations(page)
    event_form.get_by_role("button", name="Record event").click()
    expect(dialog.get_by_role("status").filter(has_text="Tracking event recorded.")).to_be_visible()
    expect(parcel.locator(".adm-history li")).to_have_count(1)
    expect(parcel.locator(".adm-history li")).to_contain_text("Out for delivery")
    expect(parcel.locator(".adm-history li")).to_contain_text("Pune")
