"""Settings, read from the environment when the app is created (never at import time).

Every setting the shop understands is listed in SETTINGS with its default and meaning; the
README's configuration table is generated from the same list so the two cannot drift.
"""
import json
import os
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask

# name -> (default, description). A default of None means "required in production".
SETTINGS: dict[str, tuple[str | None, str]] = {
    "BOOKSTORE_ENV": ("development", "development, production or testing"),
    "SECRET_KEY": (None, "Flask secret; generated and kept in the instance folder outside production"),
    "JWT_SECRET_KEY": (None, "signs access tokens (32+ bytes); generated outside production"),
    "DATABASE_URL": ("", "SQLAlchemy URL; empty means SQLite in the instance folder"),
    "MEDIA_ROOT": ("", "folder for uploaded and generated covers; empty means instance/media"),
    "S3_BUCKET": ("", "S3-compatible bucket for covers; empty keeps them in MEDIA_ROOT. Credentials come from "
                  "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or any boto3 credential source)"),
    "PRIVATE_ROOT": ("", "folder for private files (digital books, return photos) when S3_PRIVATE_BUCKET is empty; "
                     "empty means instance/private. Never served under /media"),
    "S3_PRIVATE_BUCKET": ("", "S3-compatible bucket for private files (no public policy; same endpoint, region and "
                          "credentials as S3_BUCKET); empty keeps them in PRIVATE_ROOT"),
    "S3_ENDPOINT_URL": ("", "endpoint of an S3-compatible service (MinIO, Cloudflare R2, ...); empty means AWS S3"),
    "S3_REGION": ("", "the bucket's region, e.g. ap-south-1"),
    "S3_PUBLIC_URL": ("", "URL covers are served from (a CDN or the bucket's public address), e.g. "
                      "https://cdn.example.in; empty means the bucket's own URL"),
    "RATELIMIT_ENABLED": ("true", "false turns every rate limit off (load tests)"),
    "RATELIMIT_STORAGE_URI": ("memory://", "redis://host:6379/0 to share limits between workers and dynos"),
    "PROXY_COUNT": ("0", "how many proxies in front of the app set X-Forwarded-For (1 on a PaaS router)"),
    "LOGIN_LIMIT_PER_IP": ("30 per minute", "login attempts per client IP"),
    "LOGIN_FAILURES_PER_EMAIL": ("10 per 15 minutes", "failed logins per e-mail address, from browsers without "
                                                      "that account's device cookie"),
    "LOGIN_FAILURES_PER_DEVICE": ("10 per 15 minutes", "failed logins from a browser with a device cookie of the "
                                                       "account (set by a successful login); only that browser is "
                                                       "locked out"),
    "FORM_LIMIT_PER_IP": ("5 per minute", "registrations, contact messages, newsletter sign-ups, verification resends "
                                          "and password-reset requests per IP"),
    "ORDER_LIMIT_PER_IP": ("30 per hour", "order attempts per client IP"),
    "ORDER_LIMIT_PER_CONTACT": ("10 per day", "orders placed per shipping e-mail and per phone number"),
    "LOOKUP_LIMIT_PER_IP": ("10 per minute", "guest order look-ups per client IP"),
    "WEBHOOK_TOKEN_FAILURES_PER_IP": ("10 per 10 minutes", "tracking-webhook requests with a missing or wrong token "
                                                        "per client IP"),
    "PAYMENT_LIMIT_PER_IP": ("10 per minute", "Razorpay order requests, and separately payment verifications, per "
                                              "client IP"),
    "MAX_QUANTITY_PER_LINE": ("10", "copies of one book in one order, until an admin sets maxQuantityPerLine; "
                                    "bulk buyers are sent to the contact form"),
    "OPEN_COD_ORDERS_PER_CONTACT": ("3", "cash-on-delivery orders not yet delivered or cancelled, per phone and per "
                                         "e-mail, until an admin sets openCodOrdersPerContact"),
    "UNPAID_COPIES_PER_BUYER": ("50", "copies unpaid orders (online awaiting payment, cash on delivery not yet "
                                      "confirmed) may hold per IP and per browser, until an admin sets "
                                      "unpaidCopiesPerBuyer"),
    "ACCOUNT_MAIL_LIMIT": ("3 per hour", "verification and password-reset e-mails per account or address"),
    "PUBLIC_URL": (None, "the shop's address for every absolute link (e-mails, canonical URLs, the sitemap, "
                         "Google's redirect URI), e.g. https://books.example.in; outside production empty means "
                         "the request's host, one of TRUSTED_HOSTS"),
    "TRUSTED_HOSTS": ("localhost,127.0.0.1", "host names (comma-separated; .example.in matches its subdomains) the "
                                            "shop answers besides PUBLIC_URL's; a request for another Host (or "
                                            "X-Forwarded-Host behind PROXY_COUNT proxies) gets 400"),
    "MAIL_SERVER": ("", "SMTP host; empty writes e-mails to the log instead"),
    "MAIL_PORT": ("25", "SMTP port"),
    "MAIL_USE_TLS": ("false", "STARTTLS after connecting"),
    "MAIL_USE_SSL": ("false", "connect with TLS from the start (port 465)"),
    "MAIL_USERNAME": ("", "SMTP login, if the server wants one"),
    "MAIL_PASSWORD": ("", "SMTP password"),
    "MAIL_DEFAULT_SENDER": ("Bookstore <no-reply@bookstore.local>", "sender of the shop's e-mails"),
    "MAIL_RETRY_SECONDS": ("60", "wait before the first retry of a mail that failed; doubles with every failure"),
    "MAIL_CLAIM_SECONDS": ("120", "how long a job consumer may take over one mail before another may send it"),
    "MAIL_KEEP_SENT_DAYS": ("3", "days a sent mail stays in the outbox (for support) before the hourly job deletes it"),
    "RAZORPAY_KEY_ID": ("", "Razorpay key id; online payment is offered only when it and the secret are set"),
    "RAZORPAY_KEY_SECRET": ("", "Razorpay key secret (signs Checkout results)"),
    "RAZORPAY_WEBHOOK_SECRET": ("", "secret of the Razorpay webhook; without it /api/payments/webhook refuses"),
    "RAZORPAY_BASE_URL": ("https://api.razorpay.com", "Razorpay's API address (a local fake in tests)"),
    "RAZORPAY_CHECKOUT_URL": ("https://checkout.razorpay.com/v1/checkout.js",
                              "Razorpay Checkout's script, loaded by the browser (a local test double in tests)"),
    "RAZORPAY_TIMEOUT_SECONDS": ("10", "how long a Razorpay call may take"),
    "RAZORPAY_ORDER_TIMEOUT_SECONDS": ("4", "how long creating a Razorpay order may take while the shopper waits "
                                            "(at most RAZORPAY_TIMEOUT_SECONDS)"),
    "RAZORPAY_BREAKER_TIMEOUTS": ("3", "Razorpay timeouts in a row after which each process stops calling it "
                                       "for RAZORPAY_BREAKER_SECONDS (payment answers 503 at once)"),
    "RAZORPAY_BREAKER_SECONDS": ("30", "how long Razorpay is left alone after those timeouts; then one call "
                                       "tries it again"),
    "SHIPROCKET_EMAIL": ("", "Shiprocket API user's e-mail; with the password, admins may book shipments through "
                             "Shiprocket"),
    "SHIPROCKET_PASSWORD": ("", "Shiprocket API user's password"),
    "SHIPROCKET_BASE_URL": ("https://apiv2.shiprocket.in", "Shiprocket's API address (a local fake in tests)"),
    "SHIPROCKET_PICKUP_LOCATION": ("Primary", "the pickup location's name in the Shiprocket panel"),
    "SHIPROCKET_WEBHOOK_TOKEN": ("", "the token Shiprocket sends as x-api-key to /api/shipments/tracking-webhook; "
                                     "without it the webhook refuses"),
    "SHIPROCKET_TRACKING_URL": ("https://shiprocket.co/tracking/{awb}", "tracking page of a Shiprocket shipment"),
    "SHIPROCKET_TIMEOUT_SECONDS": ("10", "how long each Shiprocket call may take (the booking job's calls)"),
    "SHIPROCKET_BOOKING_ATTEMPTS": ("5", "how many times the booking job tries Shiprocket before the parcel is "
                                         "booking_failed (30 s, 1, 2, 4 minutes apart)"),
    "PAYMENT_WINDOW_MINUTES": ("30", "unpaid online orders are cancelled and their stock released after this"),
    "LARGE_COD_HOLD_HOURS": ("24", "a cash-on-delivery order of more than largeCodCopies copies not confirmed by "
                                   "the shop (moved to processing) within this is cancelled and its stock released"),
    "RETURN_WINDOW_DAYS": ("7", "days after delivery a shopper may ask to return a damaged, defective, wrong or "
                                "missing book (the returns page states 7)"),
    "ORDER_LINK_DAYS": ("90", "days an order e-mail's link opens the order (and its bill) without signing in"),
    "DOWNLOAD_DAYS": ("30", "days after payment an e-book's or audiobook's downloads stay available"),
    "DOWNLOADS_PER_LINE": ("5", "downloads allowed per digital order line"),
    "DIGITAL_FILE_MAX_MB": ("500", "largest e-book or audiobook file an administrator may upload, in megabytes"),
    "WEB_THREADS": ("8", "threads of each gunicorn worker (gunicorn.conf.py): requests served at once per "
                         "process, each of which may wait on a slow client or partner"),
    "CLIENT_TIMEOUT_SECONDS": ("10", "gunicorn closes a connection whose client sends (or reads) nothing for this "
                                     "long in the middle of a request"),
    "FEED_MAX_BYTES": (str(50 * 1024 * 1024), "largest catalogue or price & stock feed (CSV, XLSX, ONIX) an "
                                               "administrator may upload or `flask import-books` reads, in bytes"),
    "JOBS_URL": ("", "the job queue: empty means a SQLite file in the instance folder (one machine); "
                     "redis://host:6379/1 for a fleet"),
    "JOBS_IN_WEB": ("true", "the web process also runs a job consumer (one dyno is a whole shop); false on a fleet "
                            "with `worker` processes"),
    "JOBS_WORKERS": ("2", "job threads per consumer"),
    "DATABASE_POOL_MODE": ("", "transaction behind PgBouncer in transaction mode (turns psycopg's prepared "
                               "statements off)"),
    "CUSTOMER_TOKEN_HOURS": ("168", "lifetime of a shopper's token"),
    "ADMIN_TOKEN_HOURS": ("8", "lifetime of an administrator's token"),
    "GOOGLE_CLIENT_ID": ("", "OAuth client id of Google sign-in; the Google button shows only when it and the secret are set"),
    "GOOGLE_CLIENT_SECRET": ("", "OAuth client secret of Google sign-in"),
    "GOOGLE_DISCOVERY_URL": ("https://accounts.google.com/.well-known/openid-configuration",
                             "OpenID Connect discovery document of the sign-in provider (a local fake in tests)"),
    "LOG_FORMAT": ("", "json (one object a line) or text; empty means json in production, text elsewhere"),
    "METRICS_TOKEN": ("", "bearer token a Prometheus scraper sends to GET /metrics; empty turns /metrics off (404)"),
    "SENTRY_DSN": ("", "Sentry project DSN; when set, unexpected errors are reported (without cookies, "
                       "Authorization headers or request bodies)"),
}

_TRUE = {"1", "true", "yes", "on"}


def _env(name: str, overrides: dict) -> str | None:
    if name in overrides:
        return overrides[name]
    value = os.environ.get(name)
    return value if value not in (None, "") else SETTINGS[name][0]


def _database_url(raw: str, instance_path: str) -> str:
    if not raw:
        return "sqlite:///" + os.path.join(instance_path, "bookstore.db")
    # PaaS providers hand out postgres:// URLs; SQLAlchemy wants the driver named.
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix):]
    return raw


def _engine_options(database_url: str, pool_mode: str) -> dict:
    if database_url.startswith("sqlite"):
        return {}
    options = {"pool_pre_ping": True}
    if pool_mode == "transaction":
        # PgBouncer in transaction mode hands each transaction to any server connection, where a
        # statement psycopg prepared on another one does not exist: never prepare.
        options["connect_args"] = {"prepare_threshold": None}
    elif pool_mode:
        raise RuntimeError(f"DATABASE_POOL_MODE must be empty or 'transaction'; got {pool_mode!r}")
    return options


def _instance_secrets(instance_path: str) -> dict:
    """Secrets generated once per installation, so development never runs on a known key."""
    path = Path(instance_path) / "secrets.json"
    if path.exists():
        return json.loads(path.read_text())
    values = {"SECRET_KEY": secrets.token_hex(32), "JWT_SECRET_KEY": secrets.token_hex(32)}
    path.write_text(json.dumps(values))
    path.chmod(0o600)
    return values


def _public_url(raw: str) -> str:
    """PUBLIC_URL without its trailing slash; refuses anything but an http(s) address with a host."""
    value = raw.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise RuntimeError(f"PUBLIC_URL must be an http(s) address such as https://books.example.in; got {raw!r}")
    return value


def _trusted_hosts(raw: str | list, public_url: str) -> list[str]:
    """The host names requests may name: TRUSTED_HOSTS (comma-separated) and PUBLIC_URL's host."""
    hosts = list(raw) if isinstance(raw, list) else [host.strip() for host in raw.split(",")]
    if public_url:
        hosts.append(urlsplit(public_url).hostname)
    return list(dict.fromkeys(host.lower() for host in hosts if host))


def _log_format(raw: str, production: bool) -> str:
    value = (raw or ("json" if production else "text")).lower()
    if value not in ("json", "text"):
        raise RuntimeError(f"LOG_FORMAT must be json, text or empty; got {raw!r}")
    return value


def load_config(app: Flask, overrides: dict | None = None) -> None:
    """Fill app.config from the environment (and test overrides); refuse unsafe production."""
    overrides = dict(overrides or {})
    os.makedirs(app.instance_path, exist_ok=True)
    env = _env("BOOKSTORE_ENV", overrides)
    production = env == "production"

    secrets_needed = {}
    for name in ("SECRET_KEY", "JWT_SECRET_KEY"):
        secrets_needed[name] = _env(name, overrides)
    missing = [name for name, value in secrets_needed.items() if not value]
    public_url = _public_url(_env("PUBLIC_URL", overrides) or "")
    if production and (missing or not public_url):
        # Production builds every absolute link from PUBLIC_URL, never from a request's Host.
        needed = missing + ([] if public_url else ["PUBLIC_URL"])
        raise RuntimeError(f"Production needs these settings: {', '.join(needed)}")
    if missing:
        generated = _instance_secrets(app.instance_path)
        for name in missing:
            secrets_needed[name] = generated[name]

    media_root = _env("MEDIA_ROOT", overrides) or os.path.join(app.instance_path, "media")
    database_url = _database_url(_env("DATABASE_URL", overrides), app.instance_path)

    app.config.update(
        BOOKSTORE_ENV=env,
        TESTING=env == "testing",
        SECRET_KEY=secrets_needed["SECRET_KEY"],
        JWT_SECRET_KEY=secrets_needed["JWT_SECRET_KEY"],
        JWT_ACCESS_TOKEN_EXPIRES=timedelta(hours=int(_env("CUSTOMER_TOKEN_HOURS", overrides))),
        ADMIN_TOKEN_EXPIRES=timedelta(hours=int(_env("ADMIN_TOKEN_HOURS", overrides))),
        JWT_TOKEN_LOCATION=["headers"],
        SQLALCHEMY_DATABASE_URI=database_url,
        SQLALCHEMY_ENGINE_OPTIONS=_engine_options(database_url, _env("DATABASE_POOL_MODE", overrides)),
        MEDIA_ROOT=media_root,
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,
        S3_BUCKET=_env("S3_BUCKET", overrides),
        PRIVATE_ROOT=_env("PRIVATE_ROOT", overrides) or os.path.join(os.path.dirname(media_root.rstrip(os.sep)), "private"),
        S3_PRIVATE_BUCKET=_env("S3_PRIVATE_BUCKET", overrides),
        S3_ENDPOINT_URL=_env("S3_ENDPOINT_URL", overrides),
        S3_REGION=_env("S3_REGION", overrides),
        S3_PUBLIC_URL=_env("S3_PUBLIC_URL", overrides),
        RATELIMIT_ENABLED=str(_env("RATELIMIT_ENABLED", overrides)).lower() in _TRUE,
        RATELIMIT_STORAGE_URI=_env("RATELIMIT_STORAGE_URI", overrides),
        RATELIMIT_HEADERS_ENABLED=True,
        PROXY_COUNT=int(_env("PROXY_COUNT", overrides)),
        LOGIN_LIMIT_PER_IP=_env("LOGIN_LIMIT_PER_IP", overrides),
        LOGIN_FAILURES_PER_EMAIL=_env("LOGIN_FAILURES_PER_EMAIL", overrides),
        LOGIN_FAILURES_PER_DEVICE=_env("LOGIN_FAILURES_PER_DEVICE", overrides),
        FORM_LIMIT_PER_IP=_env("FORM_LIMIT_PER_IP", overrides),
        ACCOUNT_MAIL_LIMIT=_env("ACCOUNT_MAIL_LIMIT", overrides),
        ORDER_LIMIT_PER_IP=_env("ORDER_LIMIT_PER_IP", overrides),
        ORDER_LIMIT_PER_CONTACT=_env("ORDER_LIMIT_PER_CONTACT", overrides),
        LOOKUP_LIMIT_PER_IP=_env("LOOKUP_LIMIT_PER_IP", overrides),
        WEBHOOK_TOKEN_FAILURES_PER_IP=_env("WEBHOOK_TOKEN_FAILURES_PER_IP", overrides),
        PAYMENT_LIMIT_PER_IP=_env("PAYMENT_LIMIT_PER_IP", overrides),
        MAX_QUANTITY_PER_LINE=int(_env("MAX_QUANTITY_PER_LINE", overrides)),
        OPEN_COD_ORDERS_PER_CONTACT=int(_env("OPEN_COD_ORDERS_PER_CONTACT", overrides)),
        UNPAID_COPIES_PER_BUYER=int(_env("UNPAID_COPIES_PER_BUYER", overrides)),
        PUBLIC_URL=public_url,
        # Flask refuses (400) a request whose Host, or X-Forwarded-Host behind ProxyFix, is not one of these.
        TRUSTED_HOSTS=_trusted_hosts(_env("TRUSTED_HOSTS", overrides), public_url),
        MAIL_SERVER=_env("MAIL_SERVER", overrides),
        MAIL_PORT=int(_env("MAIL_PORT", overrides)),
        MAIL_USE_TLS=str(_env("MAIL_USE_TLS", overrides)).lower() in _TRUE,
        MAIL_USE_SSL=str(_env("MAIL_USE_SSL", overrides)).lower() in _TRUE,
        MAIL_USERNAME=_env("MAIL_USERNAME", overrides),
        MAIL_PASSWORD=_env("MAIL_PASSWORD", overrides),
        MAIL_DEFAULT_SENDER=_env("MAIL_DEFAULT_SENDER", overrides),
        MAIL_RETRY_SECONDS=int(_env("MAIL_RETRY_SECONDS", overrides)),
        MAIL_CLAIM_SECONDS=int(_env("MAIL_CLAIM_SECONDS", overrides)),
        MAIL_KEEP_SENT_DAYS=int(_env("MAIL_KEEP_SENT_DAYS", overrides)),
        RAZORPAY_KEY_ID=_env("RAZORPAY_KEY_ID", overrides),
        RAZORPAY_KEY_SECRET=_env("RAZORPAY_KEY_SECRET", overrides),
        RAZORPAY_WEBHOOK_SECRET=_env("RAZORPAY_WEBHOOK_SECRET", overrides),
        RAZORPAY_BASE_URL=_env("RAZORPAY_BASE_URL", overrides),
        RAZORPAY_CHECKOUT_URL=_env("RAZORPAY_CHECKOUT_URL", overrides),
        RAZORPAY_TIMEOUT_SECONDS=float(_env("RAZORPAY_TIMEOUT_SECONDS", overrides)),
        RAZORPAY_ORDER_TIMEOUT_SECONDS=float(_env("RAZORPAY_ORDER_TIMEOUT_SECONDS", overrides)),
        RAZORPAY_BREAKER_TIMEOUTS=max(1, int(_env("RAZORPAY_BREAKER_TIMEOUTS", overrides))),
        RAZORPAY_BREAKER_SECONDS=float(_env("RAZORPAY_BREAKER_SECONDS", overrides)),
        SHIPROCKET_EMAIL=_env("SHIPROCKET_EMAIL", overrides),
        SHIPROCKET_PASSWORD=_env("SHIPROCKET_PASSWORD", overrides),
        SHIPROCKET_BASE_URL=_env("SHIPROCKET_BASE_URL", overrides),
        SHIPROCKET_PICKUP_LOCATION=_env("SHIPROCKET_PICKUP_LOCATION", overrides),
        SHIPROCKET_WEBHOOK_TOKEN=_env("SHIPROCKET_WEBHOOK_TOKEN", overrides),
        SHIPROCKET_TRACKING_URL=_env("SHIPROCKET_TRACKING_URL", overrides),
        SHIPROCKET_TIMEOUT_SECONDS=float(_env("SHIPROCKET_TIMEOUT_SECONDS", overrides)),
        SHIPROCKET_BOOKING_ATTEMPTS=max(1, int(_env("SHIPROCKET_BOOKING_ATTEMPTS", overrides))),
        PAYMENT_WINDOW_MINUTES=int(_env("PAYMENT_WINDOW_MINUTES", overrides)),
        LARGE_COD_HOLD_HOURS=int(_env("LARGE_COD_HOLD_HOURS", overrides)),
        ORDER_LINK_DAYS=int(_env("ORDER_LINK_DAYS", overrides)),
        DOWNLOAD_DAYS=int(_env("DOWNLOAD_DAYS", overrides)),
        DOWNLOADS_PER_LINE=int(_env("DOWNLOADS_PER_LINE", overrides)),
        DIGITAL_FILE_MAX_BYTES=int(float(_env("DIGITAL_FILE_MAX_MB", overrides)) * 1024 * 1024),
        FEED_MAX_BYTES=int(_env("FEED_MAX_BYTES", overrides)),
        RETURN_WINDOW_DAYS=int(_env("RETURN_WINDOW_DAYS", overrides)),
        JOBS_URL=_env("JOBS_URL", overrides),
        JOBS_IN_WEB=str(_env("JOBS_IN_WEB", overrides)).lower() in _TRUE,
        JOBS_WORKERS=int(_env("JOBS_WORKERS", overrides)),
        DATABASE_POOL_MODE=_env("DATABASE_POOL_MODE", overrides),
        GOOGLE_CLIENT_ID=_env("GOOGLE_CLIENT_ID", overrides),
        GOOGLE_CLIENT_SECRET=_env("GOOGLE_CLIENT_SECRET", overrides),
        GOOGLE_DISCOVERY_URL=_env("GOOGLE_DISCOVERY_URL", overrides),
        LOG_FORMAT=_log_format(_env("LOG_FORMAT", overrides), production),
        METRICS_TOKEN=_env("METRICS_TOKEN", overrides),
        SENTRY_DSN=_env("SENTRY_DSN", overrides),
        # The signed session cookie only carries Google sign-in's state and nonce; Lax lets it come
        # back on the provider's top-level redirect, and it never travels over plain HTTP in production.
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SECURE=production,
        # flask-smorest: the OpenAPI document and its docs page.
        API_TITLE="Bookstore API",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        # /api/docs is bookstore/api_docs.py: Swagger UI served by the shop itself, admins only in production.
        COMPRESS_MIMETYPES=["application/json", "text/html", "text/css", "application/javascript", "text/javascript", "image/svg+xml"],
    )
    # Remaining overrides (tests) win over everything read above.
    app.config.update({k: v for k, v in overrides.items() if k not in SETTINGS})
