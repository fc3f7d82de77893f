"""What the mail outbox keeps (issue 25, 16): no live link token in the clear, sent mail pruned after a short
retention, nothing personal left behind by a closed account, and a closed account's order links only show."""
import re
from datetime import timedelta

from sqlalchemy import update

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Order, OutboxMail, ReturnRequest
from bookstore.services import mail
from tests.factories import count
from tests.helpers import REGISTRATION, bearer, link_token, order_row, register


def order_token(body: str, public_id: str) -> str:
    """The token of the order page link in an e-mail (signed: id.expiry.signature)."""
    match = re.search(rf"https://books\.example\.in/orders/{public_id}\?token=([\w.-]+)", body)
    assert match, body
    return match.group(1)

PASSWORD = REGISTRATION["password"]


def _outbox() -> list[OutboxMail]:
    db.session.expire_all()
    return db.session.scalars(db.select(OutboxMail).order_by(OutboxMail.id)).all()


def _delivered_order(client, factories, headers) -> dict:
    book = factories.book(title="NEET Physics", stock=5)
    order = factories.order([(book, 1)], client=client, headers=headers)
    order_row(order["_id"]).status = "delivered"
    db.session.commit()
    return order | {"book": book}


def test_the_outbox_keeps_no_live_link_token(mail_app, smtp_sink, factories):
    """Verify, reset and order mails keep a placeholder in the outbox; the mail sent carries a working link."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    assert client.post("/api/auth/forgot-password", json={"email": REGISTRATION["email"]}).status_code == 202
    order = factories.order([(factories.book(stock=3), 1)], client=client, headers=headers)
    bodies = [row.body for row in _outbox()]
    assert len(bodies) >= 3 and all(row.sent_at is not None for row in _outbox())
    # Each link's token is a placeholder ({{link:...}}), filled in the mail as sent.
    assert sum(body.count("token={{link:") for body in bodies) >= 3
    assert not any(re.search(r"token=(?!\{\{link:)", body) for body in bodies), bodies
    sent = "\n".join(smtp_sink.body(i) for i in range(len(smtp_sink.messages)))
    reset = link_token(sent, "/reset-password")
    opens = order_token(sent, order["_id"])
    assert client.get(f"/api/orders/{order['_id']}?token={opens}").status_code == 200
    reply = client.post("/api/auth/reset-password", json={"token": reset, "password": "a-new-river-42"})
    assert reply.status_code == 200
    assert client.post("/api/auth/login", json={"email": REGISTRATION["email"],
                                                "password": "a-new-river-42"}).status_code == 200


def test_sent_mail_is_pruned_after_its_retention(mail_app, smtp_sink, factories):
    """The hourly job deletes mail sent more than MAIL_KEEP_SENT_DAYS ago; newer and unsent mail stays."""
    client = mail_app.test_client()
    register(client)
    with mail_app.app_context():
        old, recent = _outbox()[0], mail.queue("x@example.in", "Recent", "Sent an hour ago.")
        unsent = OutboxMail(to_address="y@example.in", subject="Waiting", body="Not sent yet.", attempts=8)
        db.session.add(unsent)
        db.session.flush()
        now = old.sent_at
        days = mail_app.config["MAIL_KEEP_SENT_DAYS"]
        db.session.execute(update(OutboxMail).where(OutboxMail.id == old.id).values(
            created_at=now - timedelta(days=days, minutes=2), sent_at=now - timedelta(days=days, minutes=1)))
        db.session.execute(update(OutboxMail).where(OutboxMail.id == recent.id).values(
            sent_at=now - timedelta(hours=1)))
        db.session.commit()
        kept = {recent.id, unsent.id}
        assert tasks.prune_expired.call_local() >= 1
    assert {row.id for row in _outbox()} == kept


def test_closing_an_account_leaves_nothing_personal_in_the_outbox(mail_app, smtp_sink, factories):
    """After closing, no outbox row names the shopper, their address or phone, and only the closing
    confirmation (which greets nobody by name) is addressed to the old e-mail."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    _delivered_order(client, factories, headers)
    assert any(REGISTRATION["firstName"] in row.body for row in _outbox())
    closed = client.post("/api/auth/close-account", headers=headers, json={"password": PASSWORD})
    assert closed.status_code == 200, closed.get_json()
    rows = _outbox()
    for row in rows:
        text = f"{row.to_address} {row.subject} {row.body}"
        for personal in (REGISTRATION["firstName"], REGISTRATION["lastName"], REGISTRATION["phone"], "MG Road"):
            assert personal not in text, (personal, row.subject)
    assert [row.subject for row in rows if row.to_address == REGISTRATION["email"]] == [
        "Your Bookstore account is closed"]


def test_a_closed_accounts_order_link_only_shows_the_order(mail_app, smtp_sink, factories):
    """The order link of a closed account still opens the order and its bill, but asks for no return and
    cancels nothing (403 saying why); nothing is written."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    order = _delivered_order(client, factories, headers)
    sent = "\n".join(smtp_sink.body(i) for i in range(len(smtp_sink.messages)))
    token = order_token(sent, order["_id"])
    assert client.post("/api/auth/close-account", headers=headers, json={"password": PASSWORD}).status_code == 200
    assert client.get(f"/api/orders/{order['_id']}?token={token}").status_code == 200
    message = "This order's account was closed: its link can show the order, not change it."
    asked = client.post(f"/api/orders/{order['_id']}/returns?token={token}",
                        json={"lines": [{"book": str(order["book"].id), "quantity": 1, "reason": "damaged"}]})
    assert asked.status_code == 403 and asked.get_json() == {"success": False, "message": message}
    cancelled = client.post(f"/api/orders/{order['_id']}/cancel?token={token}")
    assert cancelled.status_code == 403 and cancelled.get_json()["message"] == message
    assert count(ReturnRequest) == 0
    db.session.expire_all()
    assert db.session.scalar(db.select(Order.status).where(Order.public_id == order["_id"])) == "delivered"
