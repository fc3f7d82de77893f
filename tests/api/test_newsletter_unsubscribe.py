"""One-click unsubscribe (RFC 8058): newsletter mails carry a signed link and the List-Unsubscribe headers; a POST
to the link unsubscribes without signing in, a GET shows the confirmation screen; bad tokens change nothing."""
import re
from urllib.parse import urlsplit

import pytest

from bookstore.extensions import db
from bookstore.models import NewsletterSubscriber, utcnow
from bookstore.services import newsletter


def _subscribers(*emails, confirmed=True):
    for email in emails:
        db.session.add(NewsletterSubscriber(email=email, confirmed_at=utcnow() if confirmed else None))
    db.session.commit()


def _unsubscribed(email):
    db.session.expire_all()
    return db.session.scalar(db.select(NewsletterSubscriber.unsubscribed_at)
                             .where(NewsletterSubscriber.email == email)) is not None


def _link(message) -> str:
    return re.fullmatch(r"<(.+)>", message["List-Unsubscribe"]).group(1)


def test_newsletter_mails_carry_one_click_headers_and_a_link(mail_app, smtp_sink):
    """Each confirmed subscriber's mail has List-Unsubscribe with their own https link, List-Unsubscribe-Post:
    List-Unsubscribe=One-Click, and the same link in the text; unconfirmed or unsubscribed addresses get none."""
    _subscribers("one@example.in", "two@example.in")
    _subscribers("pending@example.in", confirmed=False)
    assert newsletter.send_issue("New GATE books", "Fresh titles this month.") == 2
    assert sorted(m["To"] for m in smtp_sink.messages) == ["one@example.in", "two@example.in"]
    links = set()
    for message in smtp_sink.messages:
        link = _link(message)
        assert link.startswith("https://books.example.in/newsletter/unsubscribe?token=")
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        text = message.get_body(("plain",)).get_content()  # mails have a plain-text and an HTML part
        assert link in text and "Fresh titles this month." in text
        links.add(link)
    assert len(links) == 2


def test_a_one_click_post_unsubscribes_without_signing_in(mail_app, smtp_sink):
    """A mail program's POST (form body List-Unsubscribe=One-Click) to the header's URL unsubscribes that address
    only; a second POST still succeeds; the next newsletter skips it."""
    client = mail_app.test_client()
    _subscribers("one@example.in", "two@example.in")
    newsletter.send_issue("Issue 1", "Hello.")
    message = next(m for m in smtp_sink.messages if m["To"] == "one@example.in")
    url = urlsplit(_link(message))
    for _ in range(2):
        response = client.post(f"{url.path}?{url.query}", data={"List-Unsubscribe": "One-Click"})
        assert response.status_code == 200 and response.get_json()["success"] is True
    assert _unsubscribed("one@example.in") and not _unsubscribed("two@example.in")
    assert newsletter.send_issue("Issue 2", "Hello again.") == 1


def test_a_get_of_the_link_shows_the_screen_and_changes_nothing(mail_app, smtp_sink):
    """Opening the link (GET, as a link checker or a shopper would) answers the client's page and unsubscribes
    nobody; the screen's button posts the token to /api/newsletter/unsubscribe."""
    client = mail_app.test_client()
    _subscribers("one@example.in")
    newsletter.send_issue("Issue 1", "Hello.")
    url = urlsplit(_link(smtp_sink.messages[0]))
    page = client.get(f"{url.path}?{url.query}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert not _unsubscribed("one@example.in")
    token = url.query.removeprefix("token=")
    answer = client.post("/api/newsletter/unsubscribe", json={"token": token})
    assert answer.status_code == 200 and _unsubscribed("one@example.in")


@pytest.mark.parametrize("query", ["token=not-a-token", "token=", "", "token=MQ.forged-signature", "token=InRleHQi"])
def test_bad_tokens_are_refused_and_change_nothing(client, query):
    """A token the shop did not sign (forged, cut, empty or missing) is 400 on the one-click URL and nobody is
    unsubscribed."""
    _subscribers("one@example.in")
    response = client.post(f"/newsletter/unsubscribe?{query}", data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 400 and response.get_json()["success"] is False
    assert "not valid" in response.get_json()["message"]
    assert not _unsubscribed("one@example.in")


@pytest.mark.parametrize("body, status", [({"token": "forged"}, 400), ({}, 422), ({"token": ""}, 422)])
def test_the_screens_call_refuses_bad_tokens(client, body, status):
    """The screen's call refuses a forged token (400) and a missing one (422), unsubscribing nobody."""
    _subscribers("one@example.in")
    response = client.post("/api/newsletter/unsubscribe", json=body)
    assert response.status_code == status and response.get_json()["success"] is False
    assert not _unsubscribed("one@example.in")


def test_the_operator_command_queues_the_newsletter(mail_app, smtp_sink, tmp_path):
    """`flask send-newsletter --subject S FILE` queues one mail per confirmed subscriber with the headers."""
    _subscribers("one@example.in")
    body = tmp_path / "issue.txt"
    body.write_text("Our best sellers.\n", encoding="utf-8")
    result = mail_app.test_cli_runner().invoke(args=["send-newsletter", "--subject", "Best sellers", str(body)])
    assert result.exit_code == 0 and "1 subscriber" in result.output
    assert smtp_sink.messages[0]["Subject"] == "Best sellers" and smtp_sink.messages[0]["List-Unsubscribe-Post"]
