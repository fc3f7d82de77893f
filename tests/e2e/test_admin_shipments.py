"""The admin order dialog's shipments (product §7.8), at 1280 and 360 px: Ship part of an order with a
courier and AWB, then the rest; add a tracking event; book a parcel through Shiprocket (the server's own job
consumer books it while the dialog shows "Booking…" and refreshes), a failed booking and its retry; the
dialog stays axe clean."""
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.admin_support import (SHOPPER_PASSWORD, admin, admin_page, api, page_factory,  # noqa: F401
                                     sign_in)
from tests.e2e.support.axe import assert_no_axe_violations
from tests.fakes.shiprocket_server import COURIER_NAME, FakeShiprocket
from tests.server import Gunicorn

SHIPROCKET_LOGIN = {"email": "api@bookstore.example", "password": "sr-e2e-pass"}


@pytest.fixture(scope="module")
def shiprocket():
    """The fake Shiprocket the served shop books parcels with."""
    with FakeShiprocket(**SHIPROCKET_LOGIN) as fake:
        yield fake


@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory, shiprocket):
    """One gunicorn for the module, with Shiprocket set up: its booking job runs in the server's embedded job
    consumer, one try only, so a refusal shows as a failed booking at once."""
    running = Gunicorn(database_url, tmp_path_factory.mktemp("gunicorn"), workers=2, threads=4)
    running.env.update(SHIPROCKET_EMAIL=SHIPROCKET_LOGIN["email"], SHIPROCKET_PASSWORD=SHIPROCKET_LOGIN["password"],
                       SHIPROCKET_BASE_URL=shiprocket.base_url, SHIPROCKET_BOOKING_ATTEMPTS="1",
                       SHIPROCKET_TIMEOUT_SECONDS="5")
    with running:
        yield running


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


def test_shiprocket_booking_shows_then_refreshes_and_a_failure_is_retried(admin_page, server, admin, factories, api,
                                                                         shiprocket):
    """Through Shiprocket: the dialog says the parcel is being booked, then shows Shiprocket's courier, AWB and
    label without a reload. A refused booking shows Shiprocket's reason; Try booking again books the same
    Shiprocket order and the order is shipped."""
    page = admin_page
    book = factories.book(title="Booking Polity", price_paise=30000, stock=5)
    order = api.place_cod_order(None, [(api.book(book.id), 1)], first_name="Ravi", email="ravi@example.in")
    number = order["orderNumber"]
    shiprocket.fail_next("courier/assign/awb", 422, "No courier serviceable")

    sign_in(page, server, path="/admin/orders")
    page.wait_for_url(server.base_url + "/admin/orders")
    page.get_by_role("row", name=re.compile(number)).get_by_role("button", name=f"View order {number}").click()
    dialog = page.get_by_role("dialog", name=re.compile(number))
    dialog.get_by_role("button", name="Ship…").click()
    form = dialog.locator("form.adm-ship")
    form.get_by_label(re.compile("Through Shiprocket")).check()
    expect(form.get_by_label("AWB number")).to_have_count(0)
    form.get_by_role("button", name="Ship parcel").click()
    expect(dialog.get_by_role("status").filter(has_text="Booking the parcel with Shiprocket.")).to_be_visible()

    parcel = dialog.locator(".adm-parcel").first
    expect(parcel).to_contain_text("Booking failed", timeout=15000)
    expect(parcel).to_contain_text("Shiprocket refused to assign an AWB: No courier serviceable.")
    assert_no_axe_violations(page)
    parcel.get_by_role("button", name=re.compile("Try booking again")).click()
    expect(parcel).to_contain_text(f"Parcel 1: {COURIER_NAME}", timeout=15000)
    awb = shiprocket.orders[f"{number}-1"]["awb"]
    expect(parcel.get_by_role("link", name=awb)).to_have_attribute("href", f"https://shiprocket.co/tracking/{awb}")
    expect(parcel.get_by_role("link", name="Label")).to_be_visible()
    expect(dialog.get_by_role("button", name="Ship…")).to_have_count(0)
    assert [key for key in shiprocket.orders if key.startswith(number)] == [f"{number}-1"]
