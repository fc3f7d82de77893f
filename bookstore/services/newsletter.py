"""Newsletter sign-ups with double opt-in: an address counts once its owner confirms it."""
import secrets

from sqlalchemy import select

from bookstore.errors import NotFound
from bookstore.extensions import db
from bookstore.models import NewsletterSubscriber, utcnow
from bookstore.services import mail
from bookstore.services.paging import Page, paginate


def subscribe(email: str) -> NewsletterSubscriber:
    """Record a sign-up and e-mail the confirmation link; signing up again resends it and leaks nothing."""
    subscriber = db.session.scalar(select(NewsletterSubscriber).where(NewsletterSubscriber.email == email))
    if subscriber is None:
        subscriber = NewsletterSubscriber(email=email)
        db.session.add(subscriber)
    if subscriber.confirmed_at is not None and subscriber.unsubscribed_at is None:
        db.session.commit()
        return subscriber
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
    link = mail.shop_url(f"/newsletter/confirm?token={subscriber.confirm_token}")
    mail.send(email, "Confirm your Bookstore newsletter subscription",
              "Please confirm that you want our newsletter of new and best-selling study books:\n\n"
              f"{link}\n\nIf you did not ask for it, ignore this e-mail and nothing will be sent to you.")
    return subscriber


def confirm(token: str) -> NewsletterSubscriber:
    """Confirm the address behind an e-mailed token (single use). :raise NotFound: for unknown tokens."""
    subscriber = db.session.scalar(select(NewsletterSubscriber).where(NewsletterSubscriber.confirm_token == token))
    if subscriber is None:
        raise NotFound("This confirmation link is not valid or has been used already.")
    subscriber.confirmed_at = utcnow()
    subscriber.unsubscribed_at = None
    subscriber.confirm_token = None
    db.session.commit()
    return subscriber


def _confirmed():
    return select(NewsletterSubscriber).where(NewsletterSubscriber.confirmed_at.is_not(None),
                                              NewsletterSubscriber.unsubscribed_at.is_(None))


def confirmed(page: int, limit: int) -> Page:
    """Confirmed, still-subscribed addresses, newest first."""
    return paginate(_confirmed(), page, limit, NewsletterSubscriber.confirmed_at.desc(), NewsletterSubscriber.id.desc())


EXPORT_BATCH = 500


def all_confirmed():
    """Every confirmed address, oldest first, read in batches (for the CSV export).

    A generator: nothing is read until the streamed response asks for rows, so every read happens inside the
    context the stream holds (a result opened in the view would belong to a session closed once the view returns).
    """
    after = 0
    while True:
        batch = db.session.scalars(_confirmed().where(NewsletterSubscriber.id > after)
                                   .order_by(NewsletterSubscriber.id).limit(EXPORT_BATCH)).all()
        yield from batch
        if len(batch) < EXPORT_BATCH:
            return
        after = batch[-1].id
        db.session.expunge_all()  # keep memory flat on large exports
