"""A local stand-in for Sentry's ingestion endpoint that keeps the envelopes the real sentry-sdk sends.

Point SENTRY_DSN at `fake.dsn`; `fake.raw` holds each envelope's bytes as sent (decompressed) and
`fake.events()` the error events in them.
"""
import gzip
import json
import threading

import brotli

from tests.fakes.http_fake import HttpFake


def parse_envelope(body: bytes) -> list[tuple[dict, bytes]]:
    """(item header, payload) for each item: a header line, then items of a header line and a payload."""
    _envelope_header, _, rest = body.partition(b"\n")
    items = []
    while rest.strip():
        item_line, _, rest = rest.partition(b"\n")
        if not item_line.strip():
            continue
        header = json.loads(item_line)
        length = header.get("length")
        if length is None:
            payload, _, rest = rest.partition(b"\n")
        else:
            payload, rest = rest[:length], rest[length + 1:]
        items.append((header, payload))
    return items


class FakeSentry(HttpFake):
    """Answers every envelope with 200 and keeps it."""

    name = "fake-sentry"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.raw: list[bytes] = []
        self.headers: list[dict] = []
        self._lock = threading.Lock()

    @property
    def dsn(self) -> str:
        return f"http://public-key@127.0.0.1:{self.port}/1"

    def respond(self, method, target, raw, headers):
        encoding = headers.get("Content-Encoding", "")
        body = gzip.decompress(raw) if encoding == "gzip" else brotli.decompress(raw) if encoding == "br" else raw
        with self._lock:
            self.raw.append(body)
            self.headers.append(dict(headers.items()))
        return 200, {"Content-Type": "application/json"}, "{}"

    def events(self) -> list[dict]:
        """The error events received so far."""
        with self._lock:
            envelopes = list(self.raw)
        return [json.loads(payload) for body in envelopes for header, payload in parse_envelope(body)
                if header.get("type") == "event"]
