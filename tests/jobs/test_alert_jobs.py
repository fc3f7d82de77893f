""""Notify me" alerts through a real queue and two real consumers: a restock only enqueues, and the alert job,
asked for twice, e-mails each waiting shopper exactly once."""
import time

from sqlalchemy import select

from bookstore import jobs
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import BookAlert
from tests.conftest import empty_database
from tests.factories import Factories
from tests.jobs.consumer import Consumer, wait_until, worker_env

SHOPPERS = ("asha@example.in", "ravi@example.in")


def _login(client, email: str) -> dict:
    reply = client.post("/api/auth/login", json={"email": email, "password": "secret-pass-1"})
    assert reply.status_code == 200, reply.get_json()
    return {"Authorization": f"Bearer {reply.get_json()['token']}"}


def test_restock_mails_each_alert_once_with_two_consumers(make_app, database_url, jobs_url, smtp_sink, tmp_path):
    """Two verified shoppers wait for a book; the admin's restock enqueues the alert job (sent nothing yet); the
    job enqueued once more and two consumers on the queue still send one mail per shopper, each alert marked sent."""
    app = make_app(JOBS_URL=jobs_url, MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp_sink.port))
    with app.app_context():
        empty_database()
        factories = Factories()
        book = factories.book(title="Geography of India", stock=0, cover_key="covers/ab/abc.webp")
        client = app.test_client()
        factories.user(email="admin@example.in", password="secret-pass-1", role="admin", email_verified=True)
        for email in SHOPPERS:
            factories.user(email=email, password="secret-pass-1", email_verified=True)
            asked = client.post(f"/api/books/{book.id}/alerts", json={"kind": "back-in-stock"},
                                headers=_login(client, email))
            assert asked.status_code == 201, asked.get_json()
        restocked = client.put(f"/api/books/{book.id}", json={"stock": 6}, headers=_login(client, "admin@example.in"))
        assert restocked.status_code == 200, restocked.get_json()
        assert smtp_sink.messages == [] and jobs.queue_depth() == 1
        jobs.huey.enqueue(tasks.send_book_alerts.s(book.id))  # a duplicate job, as a retry or a sweep could make

        env = worker_env(database_url, jobs_url, str(tmp_path / "media"), MAIL_SERVER="127.0.0.1",
                         MAIL_PORT=smtp_sink.port)
        with Consumer(env, tmp_path / "a.log") as first, Consumer(env, tmp_path / "b.log") as second:
            wait_until(lambda: len(smtp_sink.messages) >= 2, 30, f"{first.log()[-2000:]}{second.log()[-2000:]}")
            time.sleep(1.5)  # room for a duplicate to show up
        assert sorted(m["To"] for m in smtp_sink.messages) == list(SHOPPERS)
        assert {m["Subject"] for m in smtp_sink.messages} == {"Back in stock: Geography of India"}
        db.session.expire_all()
        assert all(alert.sent_at is not None for alert in db.session.scalars(select(BookAlert)))
        db.session.remove()
