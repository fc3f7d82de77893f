"""The single-page app shell, hashed bundles and stored files, with their cache rules."""
import re

import pytest

from bookstore.services import storage
from bookstore.spa import BUILD_DIR


@pytest.mark.parametrize("path", ["/", "/books?search=physics", "/category/b.a.", "/admin/books",
                                  "/no/such/screen"])
def test_client_routes_get_the_shell_without_caching(client, path):
    """Client-side routes all answer index.html, revalidated on every visit."""
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "no-cache"
    assert '<div id="root">' in response.get_data(as_text=True)


def test_an_unchanged_shell_is_revalidated_with_a_304(client):
    """The shell carries an ETag (per encoding); asking again with it answers 304 without a body."""
    for encoding in ("br", "gzip", ""):
        first = client.get("/books", headers={"Accept-Encoding": encoding})
        etag = first.headers["ETag"]
        assert first.status_code == 200 and (encoding in etag if encoding else ":" not in etag)
        again = client.get("/books", headers={"Accept-Encoding": encoding, "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b""
        assert again.headers["Cache-Control"] == "no-cache"


def test_the_stylesheet_never_blocks_the_first_paint(client):
    """The shell's own rules are inlined; the full stylesheet is only preloaded (the entry links it), and
    linked the ordinary way for browsers without JavaScript."""
    html = client.get("/").get_data(as_text=True)
    head = html.split("</head>")[0]
    outside_noscript = re.sub(r"<noscript>.*?</noscript>", "", head, flags=re.S)
    assert 'rel="stylesheet"' not in outside_noscript
    sheet = re.search(r'<link rel="preload" as="style" href="(/static/dist/main-[A-Z0-9]+\.css)" data-app-styles>', head)
    assert sheet and f'<noscript><link rel="stylesheet" href="{sheet.group(1)}"></noscript>' in head
    inline = re.search(r"<style>(.*?)</style>", head, flags=re.S).group(1)
    # The header's rules are there, a screen's are not (they come with the full sheet).
    assert ".header__brand{" in inline and ".book-card" not in inline
    assert len(inline) < len(client.get(sheet.group(1), headers={"Accept-Encoding": ""}).data) / 4


def test_bundles_are_hashed_and_cached_for_a_year(client):
    """Every script and stylesheet index.html names exists and is cached immutably."""
    html = client.get("/").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/static/dist/[^"]+)"', html)
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        assert re.search(r"-[A-Z0-9]{8}\.(js|css)$", asset), asset
        response = client.get(asset)
        assert response.status_code == 200, asset
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_missing_static_file_is_404_not_the_shell(client):
    """A missing built file is 404, not the client's shell."""
    assert client.get("/static/dist/missing-ABCDEFGH.js").status_code == 404


def test_built_shell_exists():
    """The client is built: its index.html exists."""
    assert (BUILD_DIR / "index.html").exists(), "run `make build`"


def test_stored_covers_are_served_with_long_caching(app, client):
    """Stored covers are served with a year's immutable caching; missing files and paths out of the media folder are
    404."""
    storage.put("covers/ab/abcdef.jpg", b"\xff\xd8\xff fake jpeg bytes")
    response = client.get("/media/covers/ab/abcdef.jpg")
    assert response.status_code == 200 and response.data.startswith(b"\xff\xd8")
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get("/media/covers/ab/missing.jpg").status_code == 404
    assert client.get("/media/../secrets.json").status_code == 404


def test_robots_txt_is_a_real_file(client):
    """robots.txt is served as plain text that keeps crawlers out of the API."""
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert "Disallow: /api/" in response.get_data(as_text=True)


def test_responses_are_compressed_when_asked(client):
    """Answers are gzip-compressed when the client accepts it."""
    response = client.get("/api/categories", headers={"Accept-Encoding": "gzip"})
    assert response.headers.get("Content-Encoding") == "gzip"


def test_bundles_go_out_precompressed_in_the_best_accepted_encoding(client):
    """Brotli when accepted, else gzip (also for gzip-only clients), else the plain file; caches vary on it."""
    import gzip
    html = client.get("/").get_data(as_text=True)
    script = re.search(r'src="(/static/dist/main-[^"]+\.js)"', html).group(1)
    plain = client.get(script, headers={"Accept-Encoding": ""})
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert plain.mimetype == "text/javascript"
    gzipped = client.get(script, headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip" and gzipped.mimetype == "text/javascript"
    assert gzip.decompress(gzipped.data) == plain.data
    brotli = client.get(script, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert brotli.headers["Content-Encoding"] == "br" and len(brotli.data) < len(gzipped.data)
    assert client.get(script, headers={"Accept-Encoding": "br;q=0, gzip"}).headers["Content-Encoding"] == "gzip"
    for response in (plain, gzipped, brotli):
        assert response.headers["Vary"] == "Accept-Encoding"
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def _route_manifest() -> dict:
    import json
    return json.loads((BUILD_DIR / "routes.json").read_text())


@pytest.mark.parametrize("path, route", [("/books", "books"), ("/book/1", "book"), ("/category/gate", "category"),
                                         ("/order/success", "order-success"), ("/order", "orders"),
                                         ("/cart", "cart"), ("/alerts", "alerts"), ("/alerts/confirm", "alert-links"),
                                         ("/admin/books", "admin/admin-chunk"),
                                         ("/no/such/screen", "not-found")])
def test_each_address_preloads_the_scripts_of_its_screen(client, factories, path, route):
    """The screen's lazy chunk is fetched with the entry, not after it has run (build's routes.json)."""
    factories.book(title="Preloaded")
    scripts = _route_manifest()[route]
    assert scripts and all(url.startswith("/static/dist/") for url in scripts)
    html = client.get(path).get_data(as_text=True)
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert set(scripts) <= set(preloaded)
    for url in scripts:
        assert client.get(url).status_code == 200


def test_the_home_page_preloads_no_lazy_screen(client):
    """Home is in the entry itself; other screens' chunks stay off its first visit."""
    lazy = {url for scripts in _route_manifest().values() for url in scripts}
    html = client.get("/").get_data(as_text=True)
    assert not lazy & set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
