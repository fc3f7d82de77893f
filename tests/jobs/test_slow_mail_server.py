"""A mail server that accepts connections and never answers costs the shop nothing: a real gunicorn
(with its embedded consumer) answers orders, registrations and password resets at once, and the
mails go out when the server comes back."""
import time

from tests.factories import Factories, order_payload
from tests.fakes.smtp_sink import SmtpSink
from tests.fakes.smtp_tarpit import SmtpTarpit
from tests.jobs.consumer import wait_until
from tests.server import Gunicorn, request

SHOPPER = {"firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "password": "secret-pass-1",
           "phone": "9876543210"}


def test_a_silent_mail_server_never_slows_a_request(app, database_url, tmp_path):
    """POST /api/orders, registration and forgot-password each answer in under a second while the mail
    server holds every connection; once it answers again, the three mails arrive, each once."""
    book = Factories().book(stock=5)
    with SmtpTarpit() as tarpit:
        port = tarpit.port
        server = Gunicorn(database_url, tmp_path, workers=2, threads=2)
        server.env.update(MAIL_SERVER="127.0.0.1", MAIL_PORT=str(port), MAIL_RETRY_SECONDS="1")
        server.start()
        try:
            calls = [("/api/orders", order_payload([(book, 1)]), 201), ("/api/auth/register", SHOPPER, 201),
                     ("/api/auth/forgot-password", {"email": SHOPPER["email"]}, 202)]
            for path, payload, expected in calls:
                started = time.monotonic()
                status, answer = request(server.port, "POST", path, payload, timeout=30)
                elapsed = time.monotonic() - started
                assert status == expected, answer
                assert elapsed < 1.0, f"{path} took {elapsed:.2f} s"
            wait_until(lambda: tarpit.connections >= 1, 20, "the consumer never tried the mail server")
        except BaseException:
            server.stop()
            raise
    try:
        with SmtpSink(port) as sink:
            wait_until(lambda: len(sink.messages) >= 3, 60, server.log()[-3000:])
            time.sleep(2)  # room for a duplicate to show up
            subjects = sorted(message["Subject"] for message in sink.messages)
    finally:
        server.stop()
    assert len(subjects) == 3, subjects
    assert any("reset" in subject.lower() for subject in subjects)
    assert not server.errors_logged(), server.log()[-3000:]
