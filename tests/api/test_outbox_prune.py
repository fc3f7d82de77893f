"""The hourly prune of the mail outbox (issue 25, 16): mail sent, or given up after every try, goes after
MAIL_KEEP_SENT_DAYS; no mail younger than an hour ever goes, since the per-address confirmation cap counts them."""
from datetime import timedelta

from sqlalchemy import update

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import OutboxMail, utcnow
from bookstore.services import mail


def _row(ago: timedelta, **values) -> int:
    """An outbox row created (and last tried) `ago` before now."""
    row = OutboxMail(to_address="x@example.in", subject="Mail", body="Text.", **values)
    db.session.add(row)
    db.session.flush()
    then = utcnow() - ago
    db.session.execute(update(OutboxMail).where(OutboxMail.id == row.id).values(created_at=then, next_attempt_at=then))
    db.session.commit()
    return row.id


def _ids() -> set[int]:
    db.session.expire_all()
    return set(db.session.scalars(db.select(OutboxMail.id)))


def test_mail_that_gave_up_is_pruned_after_the_retention(mail_app):
    """A mail out of attempts and older than MAIL_KEEP_SENT_DAYS goes; a recent failure and an old mail still
    being retried stay."""
    days = timedelta(days=mail_app.config["MAIL_KEEP_SENT_DAYS"], hours=1)
    failed_old = _row(days, attempts=mail.MAX_ATTEMPTS, last_error="550 mailbox unavailable")
    failed_recent = _row(timedelta(hours=2), attempts=mail.MAX_ATTEMPTS, last_error="550 mailbox unavailable")
    retrying = _row(days, attempts=3, last_error="timed out")
    assert tasks.prune_expired.call_local() >= 1
    assert failed_old not in _ids() and {failed_recent, retrying} <= _ids()


def test_pruning_keeps_the_last_hour_of_confirmation_mails(mail_app):
    """Even with a retention of 0 days, sent or failed mail younger than an hour stays, so an address that had
    its three confirmation mails this hour still gets no fourth; older mail goes."""
    mail_app.config["MAIL_KEEP_SENT_DAYS"] = 0
    address = "stranger@example.in"
    young = [_row(timedelta(minutes=minutes)) for minutes in (5, 30, 55)]
    db.session.execute(update(OutboxMail).where(OutboxMail.id.in_(young[:2])).values(
        to_address=address, kind=mail.CONFIRMATION, sent_at=utcnow()))
    db.session.execute(update(OutboxMail).where(OutboxMail.id == young[2]).values(
        to_address=address, kind=mail.CONFIRMATION, attempts=mail.MAX_ATTEMPTS))
    old = _row(timedelta(minutes=65))
    db.session.execute(update(OutboxMail).where(OutboxMail.id == old).values(sent_at=utcnow() - timedelta(minutes=64)))
    db.session.commit()
    tasks.prune_expired.call_local()
    assert _ids() == set(young)
    assert mail.may_confirm(address) is False
    db.session.rollback()
