"""Apps built once per test worker and configuration, and put back as built before every test.

Building an app costs about 60 ms; most tests use one of four configurations, so each worker keeps
one app per configuration. What a test can change in an app is undone before the next one takes it:
its settings, the extension caches filled while it ran (SDK clients, the built client's files, the
Google client's discovery document), and the process-wide bindings that the newest create_app()
takes over (the rate limiter's storage, the job queue, the log handler). Per-process caches of the
catalogue are emptied and the media folder removed, so no test sees what another one left.
"""
import os
import shutil
import socket
from dataclasses import dataclass, field

from flask import Flask

from bookstore import create_app, jobs
from bookstore.extensions import db, limiter
from bookstore.observability import logs
from bookstore.services import listing_anchors, listing_counts

AUTHLIB = "authlib.integrations.flask_client"
_reserved: set[int] = set()


@dataclass
class _Pooled:
    app: Flask
    config: dict = field(default_factory=dict)
    extensions: frozenset = frozenset()


class AppPool:
    """One app per configuration for this worker: `pool.app(**settings)` hands it out, reset."""

    def __init__(self, make_config, media_root: str):
        self._make_config = make_config
        self._media_root = media_root
        self._apps: dict[tuple, _Pooled] = {}

    def app(self, **extra) -> Flask:
        """The worker's app for these settings, as if it had just been built."""
        key = tuple(sorted(extra.items()))
        pooled = self._apps.get(key)
        if pooled is None:
            app = create_app(self._make_config(self._media_root, **extra))
            pooled = self._apps[key] = _Pooled(app, dict(app.config), frozenset(app.extensions))
        else:
            _reset(pooled)
        shutil.rmtree(self._media_root, ignore_errors=True)
        listing_anchors._remembered.clear()
        listing_counts._remembered.clear()
        return pooled.app

    def close(self) -> None:
        """Close every pooled app's database connections (end of the session)."""
        for pooled in self._apps.values():
            with pooled.app.app_context():
                db.session.remove()
                db.engine.dispose()
        self._apps.clear()


def _reset(pooled: _Pooled) -> None:
    app = pooled.app
    app.config.clear()
    app.config.update(pooled.config)
    for name in set(app.extensions) - pooled.extensions:
        del app.extensions[name]  # razorpay_clients, spa_built, s3_client: filled on first use
    if AUTHLIB in app.extensions:
        app.extensions[AUTHLIB]._clients.clear()  # the next sign-in fetches discovery and keys again
    # create_app() binds these process-wide objects to the newest app; give them back to this one.
    limiter.init_app(app)  # a fresh memory:// storage: no test inherits another's counts
    jobs.init_app(app)  # immediate mode on an empty memory queue
    logs.configure(app)


def reserved_port() -> int:
    """A free local port below Linux's ephemeral range (32768+), so no outgoing connection takes it
    while the fake that listens on it is down between two tests."""
    start = 20000 + os.getpid() * 7 % 10000
    for port in [*range(start, 30000), *range(20000, start)]:
        if port in _reserved:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _reserved.add(port)
        return port
    raise RuntimeError("no free port in 20000-29999")
