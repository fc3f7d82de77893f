"""The pooled fixture apps (tests/app_pool.py): one app per configuration, handed out as if new."""
from pathlib import Path

from bookstore import jobs
from bookstore.extensions import limiter
from bookstore.services import listing_anchors


def test_a_pooled_app_is_reused_and_put_back_as_built(app_pool, make_app):
    """The same settings give the same app back, with what the last test changed undone: its settings, the
    extension caches it filled, the rate limiter's counts, the job queue another app took over, the
    catalogue caches and the media folder."""
    first = app_pool.app(PUBLIC_URL="https://pool.example.in")
    built_with = first.config["ACCOUNT_MAIL_LIMIT"]
    first.config["ACCOUNT_MAIL_LIMIT"] = "1 per hour"
    first.extensions["razorpay_clients"] = {"stale": object()}
    old_storage = limiter.storage
    media = Path(first.config["MEDIA_ROOT"])
    (media / "covers").mkdir(parents=True)
    (media / "covers" / "left-over.webp").write_bytes(b"old")
    listing_anchors._remembered[("left", "over")] = object()
    make_app(JOBS_URL="sqlite:///" + str(media.parent / "other-jobs.sqlite3"))  # takes the job queue over

    again = app_pool.app(PUBLIC_URL="https://pool.example.in")

    assert again is first
    assert again.config["ACCOUNT_MAIL_LIMIT"] == built_with
    assert "razorpay_clients" not in again.extensions
    assert limiter.storage is not old_storage
    assert jobs.huey._immediate is True and jobs.queue.job_app() is again
    assert not media.exists() and listing_anchors._remembered == {}
    assert app_pool.app(PUBLIC_URL="https://other.example.in") is not first
