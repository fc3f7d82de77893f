"""Contact messages from the site's form, and the administrators' inbox."""
from sqlalchemy import select

from bookstore.errors import NotFound
from bookstore.extensions import db
from bookstore.models import ContactMessage, User
from bookstore.services import audit
from bookstore.services.paging import Page, paginate
from bookstore.services.rows import by_id


def receive_message(*, name: str, email: str, phone: str | None, subject: str, message: str) -> ContactMessage:
    """Store a message as given (any text, shown as text everywhere); it starts as 'new'."""
    contact = ContactMessage(name=name, email=email, phone=phone, subject=subject, message=message, status="new")
    db.session.add(contact)
    db.session.commit()
    return contact


def list_messages(page: int, limit: int, status: str | None = None) -> Page:
    """The inbox for administrators, newest first, optionally of one status."""
    statement = select(ContactMessage)
    if status:
        statement = statement.where(ContactMessage.status == status)
    return paginate(statement, page, limit, ContactMessage.created_at.desc(), ContactMessage.id.desc())


def change_status(message_id: str, status: str, actor: User) -> ContactMessage:
    """Mark a message new, in progress or resolved (any to any, product §10.4), with an audit entry. :raise NotFound:"""
    message = by_id(ContactMessage, message_id)
    if message is None:
        raise NotFound("Contact message not found.")
    if message.status != status:
        audit.record(actor, "contact.status", "contact", message.id, {"status": message.status}, {"status": status})
        message.status = status
        db.session.commit()
    return message
