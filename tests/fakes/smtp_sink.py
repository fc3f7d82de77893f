"""A real SMTP server on loopback that keeps what it receives, for tests that read e-mails."""
import email
import email.policy
import socket

from aiosmtpd.controller import Controller


class _Collector:
    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 Message accepted for delivery"


class SmtpSink:
    """Start with `with SmtpSink() as sink:`; `sink.port`, `sink.messages`, `sink.body(i)`.
    `SmtpSink(port)` takes over a given port (a mail server coming back where a dead one was)."""

    def __init__(self, port: int | None = None):
        if port is None:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
        self.port = port
        self._collector = _Collector()
        self._controller = Controller(self._collector, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self):
        return self._collector.messages

    def body(self, index: int = -1) -> str:
        """The plain-text part of a message (every mail also has an HTML part)."""
        return self.messages[index].get_body(("plain",)).get_content()

    def __enter__(self):
        self._controller.start()
        return self

    def __exit__(self, *exc):
        self._controller.stop()
