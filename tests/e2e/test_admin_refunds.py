"""Refunds needing attention in the admin (product §6.6, §10.8): the dashboard's count links to the list, which
shows each stuck refund with its order, amount, attempts and Razorpay's error, at 1280 and 360 px, axe clean."""
from playwright.sync_api import expect

from tests.e2e.admin_support import admin, admin_page, page_factory, server, sign_in  # noqa: F401
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.helpers import set_order

REFUSED = "Razorpay refused the refund: The refund amount provided is greater than amount captured."


def test_the_dashboard_links_to_the_refunds_needing_attention(admin_page, server, admin, factories):
    page = admin_page
    order = factories.order([(factories.book(title="Stuck Refund Physics", price_paise=50000), 1)])
    set_order(order["_id"], status="cancelled", payment_status="refund_pending", refund_stopped=True,
              refund_attempts=1, refund_error=REFUSED)
    sign_in(page, server)
    page.wait_for_url(server.base_url + "/admin")
    alert = page.get_by_role("alert").filter(has_text="1 refund needs a person")
    expect(alert).to_be_visible()
    alert.get_by_role("link", name="Refunds needing attention").click()
    page.wait_for_url(server.base_url + "/admin/refunds")
    expect(page.get_by_role("heading", level=1)).to_have_text("Refunds needing attention")
    row = page.locator(f"[data-refund='cancel:{order['_id']}']")
    expect(row).to_contain_text(order["orderNumber"])
    expect(row).to_contain_text("Cancelled order")
    expect(row).to_contain_text("1, stopped")
    expect(row).to_contain_text(REFUSED)
    expect(row.get_by_role("button", name="Retry")).to_be_enabled()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)
    row.get_by_role("link", name=order["orderNumber"]).click()
    page.wait_for_url(f"**/admin/orders?search={order['orderNumber']}")
