"""Headers every response carries: the security policy of HTML pages, HSTS in production, and cache rules."""
from urllib.parse import urlsplit

from flask import Flask, request

YEAR = 365 * 24 * 3600
# Swagger UI's files (copied by the build from swagger-ui-dist) keep their names across versions.
_UNHASHED = "/static/dist/swagger-ui/"


def content_security_policy(checkout_url: str) -> str:
    """Scripts only from the shop and Razorpay Checkout's origin; no plugins, no <base>, no framing.

    The pages carry data in <script type="application/json"> and ld+json blocks: those are not run, so
    CSP leaves them alone and no inline script needs allowing.
    """
    parts = urlsplit(checkout_url or "")
    checkout_origin = f" {parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""
    return (f"script-src 'self'{checkout_origin}; object-src 'none'; base-uri 'self'; "
            "frame-ancestors 'none'")


def register_http_headers(app: Flask) -> None:
    """One after_request hook for every response's security headers and the cache policy of each kind of file."""
    policy = content_security_policy(app.config["RAZORPAY_CHECKOUT_URL"])
    production = app.config["BOOKSTORE_ENV"] == "production"

    @app.after_request
    def _headers(response):
        path = request.path
        if path.startswith(_UNHASHED):
            response.headers["Cache-Control"] = "no-cache"  # a new version keeps the names: revalidate
            response.headers.pop("Expires", None)
        elif path.startswith("/static/dist/") and response.status_code in (200, 304):
            # Bundles carry a content hash in their names: safe to cache for a year.
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        if path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        if response.mimetype == "text/html":
            response.headers.setdefault("Content-Security-Policy", policy)
        if production:
            # Browsers only heed it over HTTPS, which is all production serves (behind the platform's router).
            response.headers.setdefault("Strict-Transport-Security", f"max-age={YEAR}")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response
