"""Contact messages from the site's form."""
from bookstore.extensions import db
from bookstore.models import ContactMessage


def receive_message(*, name: str, email: str, phone: str | None, subject: str, message: str) -> ContactMessage:
    """Store a message as given (any text, shown as text everywhere); it starts as 'new'."""
    contact = ContactMessage(name=name, email=email, phone=phone, subject=subject, message=message, status="new")
    db.session.add(contact)
    db.session.commit()
    return contact
