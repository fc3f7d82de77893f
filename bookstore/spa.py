"""Serves the built React app, covers, robots.txt and the sitemaps; /api/* never falls through to the app."""
import json
import mimetypes
from pathlib import Path

from flask import Flask, Response, abort, current_app, request, send_from_directory

from bookstore import seo
from bookstore.errors import NotFound
from bookstore.http_headers import YEAR
from bookstore.schemas.shop import ShopReplySchema
from bookstore.services import delivery

BUILD_DIR = Path(__file__).parent / "static" / "dist"

_MISSING_BUILD = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Bookstore</title>
<p>The shop's client has not been built yet. Run <code>make build</code> (or <code>make run</code>).</p></html>"""


def _built(name: str, parse, missing):
    """A file the client build wrote, parsed; read once per process, on every request while debugging."""
    cache = current_app.extensions.setdefault("spa_built", {})
    if name not in cache or current_app.debug:
        path = BUILD_DIR / name
        cache[name] = parse(path.read_text()) if path.exists() else missing
    return cache[name]


def _index_html() -> str:
    """The built index.html."""
    return _built("index.html", str, _MISSING_BUILD)


def _route_manifest() -> dict[str, list[str]]:
    """dist/routes.json (written by the build): each screen's lazy scripts, by route file name."""
    return _built("routes.json", json.loads, {})


# Addresses whose screen's file is not named after their first segment (client/src/app/router.jsx).
_ROUTE_FILES = {"order": "orders", "order/success": "order-success", "auth/callback": "auth-callback",
                "newsletter/confirm": "newsletter-confirm", "newsletter/unsubscribe": "newsletter-confirm",
                "alerts/confirm": "alert-links", "alerts/cancel": "alert-links"}


def _route_file(path: str) -> str:
    """The route file (client/src/app/routes/<name>.jsx) that draws an address; not-found otherwise."""
    if path == "admin-login" or path == "admin" or path.startswith("admin/"):
        return "admin/admin-chunk"
    manifest = _route_manifest()
    for name in (_ROUTE_FILES.get(path), path, path.split("/", 1)[0]):
        if name in manifest and name != "admin/admin-chunk":
            return name
    return "not-found"


def _with_route_preloads(html: str, path: str) -> str:
    """The shell with modulepreload links for the address's screen: fetched with the entry, not after it."""
    return seo.add_to_head(html, [f'<link rel="modulepreload" href="{url}">'
                                  for url in _route_manifest().get(_route_file(path), [])])


def _with_shop_data(html: str) -> str:
    """The page with GET /api/shop's reply embedded, so the client knows the shop's fees and lists at
    its first paint without a round trip (client/src/lib/shop.js)."""
    data = ShopReplySchema().dump(delivery.rules())
    return seo.add_to_head(html, [f'<script type="application/json" id="shop-data">{seo.script_json(data)}</script>'])


def _shell_response(html: str, status: int = 200) -> Response:
    response = Response(_with_shop_data(html), status=status, mimetype="text/html")
    # Always revalidate the shell, so a deploy's new bundle names are seen at once; the ETag lets an
    # unchanged page answer 304 with no body (Flask-Compress suffixes it per encoding and checks it again).
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


# The build writes a .br (quality 11) and a .gz (level 9) beside each bundle: better than compressing
# on every request, and it also serves gzip-only clients, which streamed responses otherwise skip.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))


def _accepts(encoding: str) -> bool:
    return any(part.split(";")[0].strip() == encoding and not part.replace(" ", "").endswith(";q=0")
               for part in request.headers.get("Accept-Encoding", "").split(","))


def register_spa(app: Flask) -> None:
    """Routes for the client and files; their cache and security headers are set by bookstore/http_headers.py."""

    @app.route("/static/dist/<path:name>")
    def bundle(name):
        """A hashed bundle, in the smallest precompressed encoding the browser accepts."""
        for encoding, suffix in PRECOMPRESSED:
            if _accepts(encoding) and (BUILD_DIR / f"{name}{suffix}").is_file() and ".." not in name:
                response = send_from_directory(BUILD_DIR, f"{name}{suffix}", max_age=YEAR)
                response.headers["Content-Encoding"] = encoding
                response.mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
                break
        else:
            if not (BUILD_DIR / name).is_file():
                abort(404)
            response = send_from_directory(BUILD_DIR, name, max_age=YEAR)
        response.headers["Vary"] = "Accept-Encoding"
        return response

    @app.route("/media/<path:key>")
    def media(key):
        """Stored covers. Their keys change whenever the content does, so browsers keep them a year."""
        response = send_from_directory(app.config["MEDIA_ROOT"], key, max_age=YEAR)
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response

    @app.route("/robots.txt")
    def robots():
        return Response(seo.robots_txt(), mimetype="text/plain", headers={"Cache-Control": "public, max-age=86400"})

    @app.route("/sitemap.xml")
    def sitemap():
        return Response(seo.sitemap_index(), mimetype="application/xml", headers={"Cache-Control": "public, max-age=3600"})

    @app.route("/sitemap-pages.xml")
    def sitemap_pages():
        return Response(seo.pages_sitemap(), mimetype="application/xml", headers={"Cache-Control": "public, max-age=3600"})

    @app.route("/sitemap-books-<int:number>.xml")
    def sitemap_books(number):
        response = seo.books_sitemap(number)
        if response is None:
            return Response("Not found\n", status=404, mimetype="text/plain")
        return response

    @app.route("/book/<book_id>")
    def book_page(book_id):
        """A book's screen with its title, description, cover and schema.org data in the HTML (no JS needed)."""
        html, status = seo.book_page(_index_html(), book_id)
        return _shell_response(_with_route_preloads(html, "book"), status)

    @app.route("/", defaults={"path": ""})
    @app.route("/<path:path>")
    def spa(path):
        """Client-side routes get index.html; unknown /api paths get the JSON 404."""
        if path == "api" or path.startswith("api/"):
            raise NotFound("No such API endpoint.")
        if path == "":
            return _shell_response(seo.home_page(_index_html()))
        path = path.strip("/")
        shell = _index_html()
        if path == "books" and not request.args:
            shell = seo.books_page(shell)
        elif path.startswith("exam/") and path.count("/") == 1:
            shell = seo.exam_page(shell, path.split("/", 1)[1])
        return _shell_response(_with_route_preloads(shell, path))
