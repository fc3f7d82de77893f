"""Newsletter sign-ups with double opt-in: an address counts once its owner confirms it."""
import secrets

from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import NewsletterSubscriber


def subscribe(email: str) -> NewsletterSubscriber:
    """Record a sign-up awaiting confirmation; signing up again is not an error and leaks nothing."""
    subscriber = db.session.scalar(select(NewsletterSubscriber).where(NewsletterSubscriber.email == email))
    if subscriber is None:
        subscriber = NewsletterSubscriber(email=email)
        db.session.add(subscriber)
    if subscriber.confirmed_at is None or subscriber.unsubscribed_at is not None:
        subscriber.confirm_token = secrets.token_urlsafe(32)
    try:
        db.session.commit()
    except Exception:
        # Two sign-ups of one address at once: the unique index keeps one, which is what was asked.
        db.session.rollback()
        subscriber = db.session.scalar(select(NewsletterSubscriber).where(NewsletterSubscriber.email == email))
        if subscriber is None:
            raise
    return subscriber
