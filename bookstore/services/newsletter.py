"""Newsletter sign-ups with double opt-in: an address counts once its owner confirms it. Newsletter mails carry
a signed one-click unsubscribe link (RFC 8058) that works without signing in."""
import base64
import hashlib
import hmac
import re
import secrets
from datetime import timedelta, timezone

from flask import current_app
from itsdangerous import BadData, URLSafeSerializer
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from bookstore.errors import BadRequest, NotFound
from bookstore.extensions import db
from bookstore.models import NewsletterSubscriber, utcnow
from bookstore.services import mail
from bookstore.services.paging import Page, paginate


# A confirmation link is resent only after this long: until then signing up again sends nothing new.
CONFIRMATION_VALID = timedelta(days=7)


def subscribe(email: str) -> NewsletterSubscriber:
    """Record a sign-up and e-mail the confirmation link; signing up again answers the same and leaks nothing.

    No second mail while the last link is valid (a week), nor beyond the address's hourly share of confirmation
    mails (mail.may_confirm): sign-ups cannot flood a stranger's mailbox."""
    subscriber = db.session.scalar(select(NewsletterSubscriber).where(NewsletterSubscriber.email == email))
    if subscriber is None:
        subscriber = NewsletterSubscriber(email=email)
        db.session.add(subscriber)
    if (subscriber.confirmed_at is not None and subscriber.unsubscribed_at is None) or _confirmation_valid(subscriber):
        db.session.commit()
        return subscriber
    try:
        db.session.flush()
    except IntegrityError:
        # Two sign-ups of one address at once: the unique index keeps one, which is what was asked.
        db.session.rollback()
        subscriber = db.session.scalar(select(NewsletterSubscriber).where(NewsletterSubscriber.email == email))
        if subscriber is None:
            raise
        return subscriber
    if mail.may_confirm(email):
        seed = secrets.token_urlsafe(24)
        subscriber.confirm_token = _digest(confirm_token_of(seed))
        subscriber.confirmation_sent_at = utcnow()
        link = mail.shop_url(f"/newsletter/confirm?token={mail.token_placeholder('newsletter', seed)}")
        mail.queue(email, "Confirm your Bookstore newsletter subscription",
                   "Please confirm that you want our newsletter of new and best-selling study books:\n\n"
                   f"{link}\n\nIf you did not ask for it, ignore this e-mail and nothing will be sent to you.",
                   kind=mail.CONFIRMATION)
    db.session.commit()
    return subscriber


# The confirmation link's token is derived from a seed with the app's secret when the mail is sent: the outbox
# keeps the seed, the subscriber row the token's SHA-256, so neither opens the link without the secret.
_HASHED = re.compile(r"[0-9a-f]{64}")


def confirm_token_of(seed: str) -> str:
    """The confirmation link's token for a seed the outbox keeps."""
    digest = hmac.new(current_app.config["SECRET_KEY"].encode(), f"newsletter-confirm:{seed}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _confirmation_valid(subscriber: NewsletterSubscriber) -> bool:
    sent = subscriber.confirmation_sent_at
    if subscriber.confirm_token is None or sent is None:
        return False
    sent = sent if sent.tzinfo else sent.replace(tzinfo=timezone.utc)
    return utcnow() - sent < CONFIRMATION_VALID


def confirm(token: str) -> NewsletterSubscriber:
    """Confirm the address behind an e-mailed token (single use). :raise NotFound: for unknown tokens."""
    stored = [_digest(token)]
    if not _HASHED.fullmatch(token):
        stored.append(token)  # a link mailed before tokens were hashed; a stored hash itself opens nothing
    subscriber = db.session.scalar(select(NewsletterSubscriber)
                                   .where(NewsletterSubscriber.confirm_token.in_(stored)))
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


UNSUBSCRIBE_PATH = "/newsletter/unsubscribe"
BAD_LINK = "This unsubscribe link is not valid. Please use the link in our latest newsletter."


def _signer() -> URLSafeSerializer:
    # Signed, not stored: a link keeps working for as long as the subscriber may still receive newsletters.
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="newsletter-unsubscribe")


def unsubscribe_url(subscriber: NewsletterSubscriber) -> str:
    """The subscriber's one-click link: GET shows a confirmation screen, POST unsubscribes (RFC 8058). The outbox
    keeps the subscriber's id in its place; the token is signed when the mail is sent."""
    return mail.shop_url(f"{UNSUBSCRIBE_PATH}?token={mail.token_placeholder('unsubscribe', str(subscriber.id))}")


def unsubscribe_token(subscriber_id: str) -> str:
    """The signed token of a subscriber's unsubscribe link (at send time)."""
    return _signer().dumps(int(subscriber_id))


def unsubscribe(token: str) -> None:
    """Stop the newsletter for the link's subscriber; again, or for a subscriber since removed, is no error.
    :raise BadRequest: a token this shop did not sign."""
    try:
        subscriber_id = _signer().loads(token or "")
    except BadData:
        raise BadRequest(BAD_LINK) from None
    if not isinstance(subscriber_id, int):
        raise BadRequest(BAD_LINK)
    subscriber = db.session.get(NewsletterSubscriber, subscriber_id)
    if subscriber is not None and subscriber.unsubscribed_at is None:
        subscriber.unsubscribed_at = utcnow()
    db.session.commit()


def send_issue(subject: str, text: str) -> int:
    """Queue a newsletter to every confirmed subscriber, each with their own unsubscribe link; returns how many."""
    subscribers = db.session.scalars(_confirmed().order_by(NewsletterSubscriber.id)).all()
    for subscriber in subscribers:
        link = unsubscribe_url(subscriber)
        mail.queue(subscriber.email, subject,
                   f"{text}\n\n--\nYou receive this because you subscribed to the Bookstore newsletter. "
                   f"Unsubscribe with one click: {link}", unsubscribe_url=link)
    db.session.commit()
    return len(subscribers)
