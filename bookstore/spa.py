"""Serves the built React app, covers and robots.txt; /api/* never falls through to the app."""
from pathlib import Path

from flask import Flask, Response, current_app, request, send_from_directory

from bookstore.errors import NotFound

YEAR = 365 * 24 * 3600
BUILD_DIR = Path(__file__).parent / "static" / "dist"

_MISSING_BUILD = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Bookstore</title>
<p>The shop's client has not been built yet. Run <code>make build</code> (or <code>make run</code>).</p></html>"""


def _index_html() -> str:
    """The built index.html; read once per process, on every request while debugging."""
    cached = current_app.extensions.get("spa_index")
    if cached is None or current_app.debug:
        path = BUILD_DIR / "index.html"
        cached = path.read_text() if path.exists() else _MISSING_BUILD
        current_app.extensions["spa_index"] = cached
    return cached


def register_spa(app: Flask) -> None:
    """Routes for the client and files, and the cache rules that go with them."""

    @app.route("/media/<path:key>")
    def media(key):
        """Stored covers. Their keys change whenever the content does, so browsers keep them a year."""
        response = send_from_directory(app.config["MEDIA_ROOT"], key, max_age=YEAR)
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response

    @app.route("/robots.txt")
    def robots():
        body = "User-agent: *\nDisallow: /api/\nDisallow: /admin\nDisallow: /checkout\n"
        return Response(body, mimetype="text/plain", headers={"Cache-Control": "public, max-age=86400"})

    @app.route("/", defaults={"path": ""})
    @app.route("/<path:path>")
    def spa(path):
        """Client-side routes get index.html; unknown /api paths get the JSON 404."""
        if path == "api" or path.startswith("api/"):
            raise NotFound("No such API endpoint.")
        response = Response(_index_html(), mimetype="text/html")
        # Always revalidate the shell, so a deploy's new bundle names are seen at once.
        response.headers["Cache-Control"] = "no-cache"
        return response

    @app.after_request
    def _cache_headers(response):
        if request.path.startswith("/static/dist/") and response.status_code in (200, 304):
            # Bundles carry a content hash in their names: safe to cache for a year.
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response
