"""Contact form and newsletter sign-up."""
import pytest

from bookstore.models import ContactMessage, NewsletterSubscriber
from tests.factories import count

VALID = {"name": "Ravi Kumar", "email": "ravi@example.in", "phone": "9876543210", "subject": "order",
         "message": "Where is my order BK-2026-000123?"}


def test_contact_message_is_stored_as_new(client):
    """A valid contact message is stored with status new and thanked with 201 and its id."""
    response = client.post("/api/contact", json=VALID)
    assert response.status_code == 201
    body = response.get_json()
    assert body["success"] is True
    assert body["message"] == "Thank you for your message! We will get back to you soon."
    saved = ContactMessage.query.one()
    assert (saved.name, saved.email, saved.subject, saved.status) == ("Ravi Kumar", "ravi@example.in", "order", "new")
    assert body["contact"]["_id"] == str(saved.id)


def test_contact_phone_is_optional_and_markup_is_kept_as_text(client):
    """The phone is optional (empty is stored as none) and markup in a message is kept as plain text."""
    body = {**VALID, "phone": "", "message": "<script>alert('x')</script> hello there"}
    assert client.post("/api/contact", json=body).status_code == 201
    saved = ContactMessage.query.one()
    assert saved.phone is None and saved.message.startswith("<script>")


@pytest.mark.parametrize("subject", ["general", "order", "returns", "technical", "partnership", "other"])
def test_each_of_the_six_subjects_is_accepted(client, subject):
    """Each of the six contact subjects is accepted."""
    assert client.post("/api/contact", json={**VALID, "subject": subject}).status_code == 201


@pytest.mark.parametrize("changes, field", [
    ({"name": ""}, "name"), ({"name": "  "}, "name"), ({"email": "nope"}, "email"), ({"email": ""}, "email"),
    ({"subject": "spam"}, "subject"), ({"subject": ""}, "subject"), ({"message": "too short"}, "message"),
    ({"message": "x" * 5001}, "message"), ({"message": "          ok        "}, "message"),
    ({"phone": "123"}, "phone"), ({"name": "x" * 101}, "name"), ({"message": None}, "message"),
])
def test_contact_bad_input_is_422_and_stores_nothing(client, changes, field):
    """An invalid contact field is 422 on that field with a message, and nothing is stored."""
    response = client.post("/api/contact", json={**VALID, **changes})
    assert response.status_code == 422
    body = response.get_json()
    assert body["success"] is False and field in body["errors"] and body["message"]
    assert count(ContactMessage) == 0


@pytest.mark.parametrize("missing", ["name", "email", "subject", "message"])
def test_contact_required_fields(client, missing):
    """A contact message without a required field is 422 on it and nothing is stored."""
    response = client.post("/api/contact", json={k: v for k, v in VALID.items() if k != missing})
    assert response.status_code == 422 and missing in response.get_json()["errors"]
    assert count(ContactMessage) == 0


def test_contact_message_length_bounds(client):
    """Messages of 10 to 5,000 characters are accepted."""
    assert client.post("/api/contact", json={**VALID, "message": "x" * 10}).status_code == 201
    assert client.post("/api/contact", json={**VALID, "message": "x" * 5000}).status_code == 201


def test_newsletter_signup_awaits_confirmation(client):
    """Double opt-in: the address is recorded unconfirmed, with a token for the e-mailed link."""
    response = client.post("/api/newsletter", json={"email": " Reader@Example.in "})
    assert response.status_code == 202 and response.get_json()["success"] is True
    subscriber = NewsletterSubscriber.query.one()
    assert subscriber.email == "reader@example.in"
    assert subscriber.confirmed_at is None and subscriber.confirm_token


def test_newsletter_signup_twice_keeps_one_row_and_says_the_same(client):
    """Signing up twice (in any letter case) keeps one subscriber and answers the same both times, so nobody learns
    who is subscribed."""
    first = client.post("/api/newsletter", json={"email": "reader@example.in"})
    second = client.post("/api/newsletter", json={"email": "READER@example.in"})
    assert first.status_code == second.status_code == 202
    assert first.get_json() == second.get_json()
    assert count(NewsletterSubscriber) == 1


@pytest.mark.parametrize("body", [{}, {"email": ""}, {"email": "x"}, {"email": 5}, {"email": "a" * 250 + "@x.in"}])
def test_newsletter_bad_email_is_422(client, body):
    """A newsletter sign-up without a valid e-mail is 422 on email and stores nothing."""
    response = client.post("/api/newsletter", json=body)
    assert response.status_code == 422 and "email" in response.get_json()["errors"]
    assert count(NewsletterSubscriber) == 0
