"""The contact inbox (product §10.4): paged messages with pagination.totalContacts, status changes
between new, in-progress and resolved (anything else 422), each one in the audit log."""
from datetime import datetime, timedelta, timezone

import pytest

from bookstore.extensions import db
from bookstore.models import AuditEntry, ContactMessage


@pytest.fixture
def admin(auth):
    return auth.admin()


def test_messages_are_listed_newest_first_and_filtered(client, admin, factories):
    """Administrators see contact messages newest first, paged (10 by default) and filtered by status; an unknown
    status is 422 naming the allowed ones."""
    now = datetime.now(timezone.utc)
    for n in range(12):
        factories.contact(name=f"Person {n}", created_at=now - timedelta(minutes=n),
                          status="resolved" if n % 3 == 0 else "new")
    body = client.get("/api/contact?page=2&limit=5", headers=admin).get_json()
    assert body["success"] is True
    assert [c["name"] for c in body["contacts"]] == [f"Person {n}" for n in range(5, 10)]
    assert body["pagination"] == {"page": 2, "limit": 5, "total": 12, "totalContacts": 12, "totalPages": 3}
    assert set(body["contacts"][0]) == {"_id", "name", "email", "phone", "subject", "message", "status",
                                        "createdAt", "updatedAt"}
    resolved = client.get("/api/contact?status=resolved", headers=admin).get_json()
    assert resolved["pagination"]["totalContacts"] == 4 and len(resolved["contacts"]) == 4
    assert client.get("/api/contact", headers=admin).get_json()["pagination"]["limit"] == 10
    bad = client.get("/api/contact?status=spam", headers=admin)
    assert bad.status_code == 422 and bad.get_json()["message"] == "Status must be one of: new, in-progress, resolved."


def test_a_status_change_is_saved_and_audited(client, admin, factories):
    """Each status change of a contact message is saved and audited with the status before and after."""
    message = factories.contact()
    for status in ("in-progress", "resolved", "new"):
        response = client.put(f"/api/contact/{message.id}/status", json={"status": status}, headers=admin)
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["contact"]["status"] == status
    db.session.expire_all()
    assert db.session.get(ContactMessage, message.id).status == "new"
    entries = db.session.scalars(db.select(AuditEntry).order_by(AuditEntry.id)).all()
    assert [(e.action, e.entity_id, e.before, e.after) for e in entries] == [
        ("contact.status", str(message.id), {"status": "new"}, {"status": "in-progress"}),
        ("contact.status", str(message.id), {"status": "in-progress"}, {"status": "resolved"}),
        ("contact.status", str(message.id), {"status": "resolved"}, {"status": "new"}),
    ]


@pytest.mark.parametrize("body", [{"status": "done"}, {"status": ""}, {}, {"status": 3}])
def test_an_unknown_status_is_refused_and_changes_nothing(client, admin, factories, body):
    """A missing or unknown status is 422 and leaves the message's status and the audit log unchanged."""
    message = factories.contact(status="in-progress")
    response = client.put(f"/api/contact/{message.id}/status", json=body, headers=admin)
    assert response.status_code == 422 and response.get_json()["success"] is False
    assert "status" in response.get_json()["errors"]
    db.session.expire_all()
    assert db.session.get(ContactMessage, message.id).status == "in-progress"
    assert db.session.scalar(db.select(db.func.count()).select_from(AuditEntry)) == 0


def test_an_unknown_message_is_404(client, admin):
    """Changing the status of a message that does not exist is 404 with "Contact message not found." as message."""
    response = client.put("/api/contact/424242/status", json={"status": "resolved"}, headers=admin)
    assert response.status_code == 404 and response.get_json()["message"] == "Contact message not found."


def test_sending_a_message_stays_public(client):
    """Anyone may send a contact message without signing in; the answer shows only its id, status and date."""
    response = client.post("/api/contact", json={"name": "Ravi", "email": "ravi@example.in", "subject": "order",
                                                 "message": "Where is my parcel, please?"})
    assert response.status_code == 201 and set(response.get_json()["contact"]) == {"_id", "status", "createdAt"}
