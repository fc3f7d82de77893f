"""The mail outbox: a mail server that is down never loses or blocks an order; `flask send-mail` retries."""
from bookstore.extensions import db
from bookstore.models import Order, OutboxMail, utcnow
from tests.conftest import empty_database
from tests.factories import placed


def test_order_survives_a_dead_mail_server_and_the_mail_is_sent_later(make_app, smtp_sink):
    """An order placed while the mail server is down is kept; its e-mail waits in the outbox, is not retried before
    its back-off is over, and is sent once due with the server answering."""
    app = make_app(MAIL_SERVER="127.0.0.1", MAIL_PORT="1")  # nothing listens on port 1
    with app.app_context():
        empty_database()
        from tests.factories import Factories
        book = Factories().book(price_paise=49900, stock=3)
        order = placed(app.test_client(), [(book, 1)])
        assert Order.query.count() == 1 and order["status"] == "pending"
        queued = OutboxMail.query.one()
        assert queued.sent_at is None and queued.attempts == 1 and queued.last_error
        assert order["orderNumber"] in queued.subject

        # Not due yet: the back-off keeps `send-mail` from hammering a dead server.
        app.config["MAIL_PORT"] = smtp_sink.port
        assert "Sent 0" in app.test_cli_runner().invoke(args=["send-mail"]).output
        queued.next_attempt_at = utcnow()
        db.session.commit()
        result = app.test_cli_runner().invoke(args=["send-mail"])
        assert "Sent 1" in result.output, result.output
        assert OutboxMail.query.one().sent_at is not None
        assert len(smtp_sink.messages) == 1 and order["orderNumber"] in smtp_sink.messages[0]["Subject"]
        db.session.remove()
