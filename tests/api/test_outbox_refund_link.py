"""The part refund's mail keeps no live order-link token in the outbox either (issue 25, 16): the link's
token is made when the mail is sent, and the link as sent opens the order. Runs on the shop app (SMTP sink)."""
import pytest

from tests.api.test_outbox_links import assert_no_live_token, sent_link
from tests.api.test_refunds import part_refund
from tests.api.test_returns import deliver
from tests.factories import placed


@pytest.fixture
def app(shop_app):
    return shop_app


def test_a_part_refund_mail_links_the_order_without_a_stored_token(client, auth, admin, factories, smtp_sink):
    book = factories.book(title="CAT Quant", price_paise=30000, stock=5)
    order = deliver(client, placed(client, [(book, 1)], headers=auth.customer()), admin)
    made = part_refund(client, order, admin, amount=10, reason="Sorry", payoutReference="UTR42")
    assert made.status_code == 201, made.get_json()
    token = sent_link(smtp_sink, f"/orders/{order['_id']}")
    assert_no_live_token(token)
    assert client.get(f"/api/orders/{order['_id']}?token={token}").status_code == 200
