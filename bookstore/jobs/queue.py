"""The job queue: one Huey instance, pointed at the storage JOBS_URL names when the app is created.

Jobs are enqueued only after the transaction that asked for them commits (`after_commit`), so a
consumer never looks for a row that is not there yet, and a rolled-back change enqueues nothing.
Every job is backed by a row in the database (an outbox mail, an order waiting for its refund),
and a periodic sweep finds that row again if the enqueue or the job itself was lost.
"""
import functools
import logging
import os
from urllib.parse import urlsplit

from flask import Flask, current_app, has_app_context
from huey import Huey
from huey.exceptions import RetryTask
from huey.storage import MemoryStorage, RedisStorage, SqliteStorage
from sqlalchemy import event
from sqlalchemy.orm import Session

from bookstore.extensions import db
from bookstore.observability import metrics
from bookstore.observability.context import bound_request_id, current_request_id

log = logging.getLogger(__name__)
QUEUE_NAME = "bookstore"
_PENDING = "jobs_after_commit"

# Tasks are registered on this instance at import; init_app gives it the storage of the app's settings.
huey = Huey(QUEUE_NAME, results=False, storage_class=MemoryStorage, utc=True)
_app: Flask | None = None


def storage_for(url: str, instance_path: str):
    """(storage, immediate) for a JOBS_URL: empty is a SQLite file in the instance folder."""
    if url in ("", None):
        return SqliteStorage(QUEUE_NAME, filename=os.path.join(instance_path, "jobs.sqlite3")), False
    scheme = urlsplit(url).scheme
    if scheme == "immediate":
        # Jobs run inside the call that enqueues them (tests of the app through Flask's test client).
        return MemoryStorage(QUEUE_NAME), True
    if scheme == "sqlite":
        return SqliteStorage(QUEUE_NAME, filename=url[len("sqlite:///"):]), False
    if scheme in ("redis", "rediss", "unix"):
        return RedisStorage(QUEUE_NAME, url=url), False
    raise RuntimeError(f"JOBS_URL must be empty, sqlite:///path, redis://host:port/db or immediate://; got {url!r}")


def init_app(app: Flask) -> None:
    """Point the queue at JOBS_URL's storage; jobs run in this app's context."""
    global _app
    storage, immediate = storage_for(app.config["JOBS_URL"], app.instance_path)
    huey.storage = storage
    huey._immediate = immediate
    _app = app


def job_app() -> Flask:
    """The app jobs run in: the caller's when a job runs inline, else the one this process created."""
    if has_app_context():
        return current_app._get_current_object()
    if _app is None:
        raise RuntimeError("No app: create_app() binds the job queue.")
    return _app


def in_app(name: str):
    """Run a job function in an app context of its own, with the request id of whoever enqueued it,
    counted by outcome. A fresh app context means a fresh database session, even when the job runs
    inline (immediate mode) inside the request that enqueued it."""
    def decorate(function):
        @functools.wraps(function)
        def run(*args, request_id=None, **kwargs):
            with job_app().app_context(), bound_request_id(request_id):
                try:
                    result = function(*args, **kwargs)
                except RetryTask:
                    db.session.rollback()
                    metrics.job_finished(name, "retry")
                    raise
                except Exception:
                    db.session.rollback()
                    metrics.job_finished(name, "error")
                    log.exception("Job %s failed", name)
                    raise
                metrics.job_finished(name, "ok")
                return result
        return run
    return decorate


def task(**options):
    """A job: `@task(retries=3, retry_delay=60)` over a function of plain arguments (ids, not objects)."""
    def decorate(function):
        return huey.task(name=function.__name__, **options)(in_app(function.__name__)(function))
    return decorate


def periodic(schedule, **options):
    """A scheduled job. Every consumer runs the schedule, so two may run a sweep at the same moment:
    the jobs are idempotent (their rows are claimed by conditional UPDATEs), which is safer than a
    lock that a killed consumer would leave behind."""
    def decorate(function):
        return huey.periodic_task(schedule, name=function.__name__, **options)(in_app(function.__name__)(function))
    return decorate


def after_commit(job, *args) -> None:
    """Enqueue `job(*args)` once the current transaction commits; dropped if it rolls back."""
    signature = job.s(*args, request_id=current_request_id())
    db.session().info.setdefault(_PENDING, []).append(signature)


@event.listens_for(Session, "after_commit")
def _enqueue_committed(session: Session) -> None:
    for signature in session.info.pop(_PENDING, ()):
        try:
            huey.enqueue(signature)
        except Exception:
            # The change is committed; its row is found again by the job's periodic sweep.
            log.exception("Could not enqueue %s; the sweep will pick it up", signature.name)


@event.listens_for(Session, "after_rollback")
def _drop_rolled_back(session: Session) -> None:
    session.info.pop(_PENDING, None)


def queue_depth() -> int:
    """Jobs waiting for a consumer (for /metrics)."""
    return huey.pending_count()


def ping() -> None:
    """Touch the queue's storage. :raise Exception: when it cannot be reached (readiness check)."""
    huey.pending_count()
