"""Jobs through a real queue and real consumer processes, on the embedded SQLite queue and on Redis.

Requests only enqueue: nothing is sent until a consumer runs. Two consumers on one queue send each
mail once. A consumer killed in the middle of sending loses nothing: the outbox sweep finds the mail
once its claim runs out, and it goes out once.
"""
import time

from sqlalchemy import func, select

from bookstore import jobs
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import OutboxMail
from tests.conftest import empty_database
from tests.factories import Factories, placed
from tests.fakes.smtp_sink import SmtpSink
from tests.fakes.smtp_tarpit import SmtpTarpit
from tests.jobs.consumer import Consumer, wait_until, worker_env

SHOPPER = {"firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "password": "secret-pass-1",
           "phone": "9876543210"}


def _unsent() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(OutboxMail).where(OutboxMail.sent_at.is_(None)))


def test_requests_only_enqueue_and_two_consumers_send_each_mail_once(make_app, database_url, jobs_url,
                                                                      smtp_sink, tmp_path):
    """Orders and a registration queue four mails and send none; two consumers on the same queue
    then send all four, each exactly once, at the first attempt."""
    settings = {"JOBS_URL": jobs_url, "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": str(smtp_sink.port)}
    app = make_app(**settings)
    with app.app_context():
        empty_database()
        book = Factories().book(stock=10)
        client = app.test_client()
        numbers = [placed(client, [(book, 1)])["orderNumber"] for _ in range(3)]
        assert client.post("/api/auth/register", json=SHOPPER).status_code == 201
        assert smtp_sink.messages == [] and _unsent() == 4
        assert jobs.queue_depth() == 4

        env = worker_env(database_url, jobs_url, str(tmp_path / "media"), MAIL_SERVER="127.0.0.1",
                         MAIL_PORT=smtp_sink.port)
        with Consumer(env, tmp_path / "a.log") as first, Consumer(env, tmp_path / "b.log") as second:
            wait_until(lambda: len(smtp_sink.messages) >= 4, 30, f"{first.log()[-2000:]}{second.log()[-2000:]}")
            time.sleep(1.5)  # room for a duplicate to show up
        subjects = sorted(message["Subject"] for message in smtp_sink.messages)
        assert len(subjects) == 4
        assert all(any(number in subject for subject in subjects) for number in numbers)
        db.session.expire_all()
        assert [(m.sent_at is not None, m.attempts) for m in OutboxMail.query.all()] == [(True, 1)] * 4
        assert jobs.queue_depth() == 0
        db.session.remove()


def test_a_consumer_killed_mid_send_loses_nothing(make_app, database_url, jobs_url, tmp_path):
    """The consumer is killed while it waits on a mail server: the mail stays claimed, unsent. Once the
    claim runs out, the outbox sweep (as the schedule runs it) hands it to a new consumer, and the
    mail goes out exactly once when the server answers again."""
    with SmtpTarpit() as tarpit:
        port = tarpit.port
        app = make_app(JOBS_URL=jobs_url, MAIL_SERVER="127.0.0.1", MAIL_PORT=str(port), MAIL_CLAIM_SECONDS="2")
        with app.app_context():
            empty_database()
            book = Factories().book(stock=3)
            number = placed(app.test_client(), [(book, 1)])["orderNumber"]
            env = worker_env(database_url, jobs_url, str(tmp_path / "media"), MAIL_SERVER="127.0.0.1",
                             MAIL_PORT=port, MAIL_CLAIM_SECONDS=2)
            consumer = Consumer(env, tmp_path / "killed.log").start()
            wait_until(lambda: tarpit.connections >= 1, 30, consumer.log()[-2000:])
            consumer.kill()  # in the middle of the SMTP conversation
            db.session.expire_all()
            mail = OutboxMail.query.one()
            assert mail.sent_at is None and mail.claimed_until is not None and mail.attempts == 1
    with SmtpSink(port) as sink, app.app_context():
        time.sleep(2.5)  # the dead consumer's claim runs out
        with Consumer(env, tmp_path / "after.log") as after:
            jobs.huey.enqueue(tasks.sweep_outbox.s())  # what the minute's schedule does
            wait_until(lambda: len(sink.messages) >= 1, 30, after.log()[-2000:])
            time.sleep(1.5)
        assert len(sink.messages) == 1 and number in sink.messages[0]["Subject"]
        db.session.expire_all()
        mail = OutboxMail.query.one()
        assert mail.sent_at is not None and mail.attempts == 2
        db.session.remove()
