"""What crawlers and link previews see without JavaScript: /book/{id} meta, sitemaps and robots.txt."""
import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

from bookstore import seo

SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
NASTY_TITLE = 'The "Quoted" </script><script>alert(1)</script> & <b>Bold</b> Guide'


def _meta(page: str, attribute: str, name: str) -> list[str]:
    """Unescaped contents of every <meta {attribute}="{name}" content="...">."""
    found = re.findall(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)">', page)
    return [html.unescape(value) for value in found]


def _scripts(page: str, kind: str) -> list[str]:
    """The page's own data blocks of a kind (every page also carries the shop's constants, #shop-data)."""
    return re.findall(rf'<script type="{re.escape(kind)}"(?![^>]*id="shop-data")[^>]*>(.*?)</script>', page, flags=re.S)


def test_book_page_carries_the_books_meta_escaped(client, factories):
    """Title, description, Open Graph and JSON-LD hold the book's text, and no tag can be injected by it."""
    book = factories.book(title=NASTY_TITLE, author="A. <i>Author</i>", description='Says "hello" <img src=x onerror=alert(2)>',
                          price_paise=35050, stock=3, cover_key="covers/ab/abc.jpg")
    response = client.get(f"/book/{book.id}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    page = response.get_data(as_text=True)

    # Nothing from the book arrives as markup: only the shell's own tags exist.
    assert "<script>alert(1)" not in page and "<b>Bold" not in page and "<img src=x" not in page
    assert "<i>Author" not in page
    title = html.unescape(re.search(r"<title>(.*?)</title>", page, flags=re.S).group(1))
    assert title == f"{NASTY_TITLE} by A. <i>Author</i> — Bookstore"
    assert _meta(page, "name", "description") == ['Says "hello" <img src=x onerror=alert(2)>']
    assert _meta(page, "property", "og:title") == [NASTY_TITLE]
    assert _meta(page, "property", "og:type") == ["book"]
    assert _meta(page, "property", "og:url") == [f"http://localhost/book/{book.id}"]
    assert _meta(page, "property", "og:image") == ["http://localhost/media/covers/ab/abc.jpg"]
    assert f'<link rel="canonical" href="http://localhost/book/{book.id}">' in page

    (ld_text,) = _scripts(page, "application/ld+json")
    assert "<" not in ld_text and ">" not in ld_text
    data = json.loads(ld_text)
    assert data["@type"] == "Book" and data["name"] == NASTY_TITLE
    assert data["author"] == {"@type": "Person", "name": "A. <i>Author</i>"}
    assert data["offers"]["price"] == "350.50" and data["offers"]["priceCurrency"] == "INR"
    assert data["offers"]["availability"] == "https://schema.org/InStock"
    assert data["isbn"] == book.isbn

    (initial,) = _scripts(page, "application/json")
    embedded = json.loads(initial)
    assert embedded["_id"] == str(book.id) and embedded["title"] == NASTY_TITLE and embedded["price"] == 350.5
    # The client's shell is still there.
    assert '<div id="root">' in page and '<script type="module"' in page


def test_sold_out_book_is_offered_out_of_stock(client, factories):
    """A sold-out book's page offers it as OutOfStock in its structured data."""
    book = factories.book(stock=0)
    data = json.loads(_scripts(client.get(f"/book/{book.id}").get_data(as_text=True), "application/ld+json")[0])
    assert data["offers"]["availability"] == "https://schema.org/OutOfStock"


@pytest.mark.parametrize("book_id", ["999999", "abc", "1e9", "99999999999999999999999", "%00"])
def test_unknown_book_pages_are_404_and_not_indexed(client, book_id):
    """Unknown or malformed ids answer 404 with the shell (it shows 'Book not found') and noindex."""
    response = client.get(f"/book/{book_id}")
    assert response.status_code == 404
    page = response.get_data(as_text=True)
    assert '<meta name="robots" content="noindex">' in page and '<div id="root">' in page


def test_archived_book_page_is_404(client, factories):
    """An archived book's page is 404."""
    book = factories.book(archived=True)
    assert client.get(f"/book/{book.id}").status_code == 404


def test_public_url_setting_makes_the_absolute_links(make_app, factories):
    """Behind a proxy the configured address, not the request's host, goes into links."""
    app = make_app(PUBLIC_URL="https://books.example.in/")
    with app.app_context():
        from tests.conftest import empty_database
        empty_database()
        book = factories.book()
        client = app.test_client()
        page = client.get(f"/book/{book.id}").get_data(as_text=True)
        assert f'<link rel="canonical" href="https://books.example.in/book/{book.id}">' in page
        assert "Sitemap: https://books.example.in/sitemap.xml" in client.get("/robots.txt").get_data(as_text=True)


def test_robots_txt_points_to_the_sitemap_and_keeps_private_screens_out(client):
    """robots.txt names the sitemap and disallows the API and every private screen."""
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert "Sitemap: http://localhost/sitemap.xml" in text
    for private in ("/api/", "/admin", "/checkout", "/cart", "/orders", "/wishlist", "/profile"):
        assert f"Disallow: {private}\n" in text


def _locations(client, path: str) -> list[str]:
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.mimetype == "application/xml"
    root = ET.fromstring(response.get_data())
    return [loc.text for loc in root.iterfind(".//s:loc", SITEMAP_NS)]


def test_sitemap_lists_every_visible_book_and_screen(client, factories):
    """The index names the screens' sitemap and the books' sitemap; archived books are left out."""
    visible = [factories.book() for _ in range(3)]
    archived = factories.book(archived=True)
    assert _locations(client, "/sitemap.xml") == ["http://localhost/sitemap-pages.xml",
                                                  "http://localhost/sitemap-books-1.xml"]
    books = _locations(client, "/sitemap-books-1.xml")
    assert books == [f"http://localhost/book/{book.id}" for book in visible]
    assert f"http://localhost/book/{archived.id}" not in books
    pages = _locations(client, "/sitemap-pages.xml")
    assert "http://localhost/" in pages and "http://localhost/faq" in pages
    assert "http://localhost/category/b.com" in pages and "http://localhost/category/i%20to%20xii%20school" in pages
    assert len([page for page in pages if "/category/" in page]) == 18
    assert not any("/cart" in page or "/checkout" in page for page in pages)


def test_books_are_split_into_sitemaps_of_at_most_the_protocol_limit(client, factories, monkeypatch):
    """Each book sitemap holds one id range; ranges beyond the last book are 404."""
    monkeypatch.setattr(seo, "BOOKS_PER_SITEMAP", 2)
    books = [factories.book() for _ in range(5)]
    index = _locations(client, "/sitemap.xml")
    parts = [loc for loc in index if "sitemap-books-" in loc]
    assert len(parts) == -(-max(book.id for book in books) // 2)
    listed = [loc for part in parts for loc in _locations(client, part.removeprefix("http://localhost"))]
    assert listed == [f"http://localhost/book/{book.id}" for book in books]
    assert client.get(f"/sitemap-books-{len(parts) + 1}.xml").status_code == 404
    assert client.get("/sitemap-books-0.xml").status_code == 404


def test_home_page_embeds_the_featured_books_and_preloads_their_first_covers(client, factories):
    """The home page paints its featured books without waiting for an API call; book text stays inert."""
    first = factories.book(title="</script><script>alert(3)</script>", rating=4.9, stock=5, cover_key="covers/aa/a.jpg",
                           thumbnail_key="covers/aa/a-thumb.jpg")
    factories.book(title="Second", rating=4.5, stock=5)
    factories.book(title="Sold out", rating=5.0, stock=0)
    response = client.get("/")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    page = response.get_data(as_text=True)
    assert "<script>alert(3)" not in page
    (embedded,) = _scripts(page, "application/json")
    featured = json.loads(embedded)
    assert [book["title"] for book in featured] == [first.title, "Second"]  # in stock only, best rated first
    assert ('<link rel="preload" as="image" imagesrcset="/media/covers/aa/a-thumb.jpg 150w, /media/covers/aa/a.jpg 300w" '
            'imagesizes="(min-width: 48rem) 12rem, 45vw" fetchpriority="high">') in page


def test_bare_books_page_embeds_the_first_page_under_the_api_address_it_answers(client, factories):
    """/books paints its first page without an API call: the reply is exactly the API's for that address."""
    first = factories.book(title="</script><script>alert(4)</script>", cover_key="covers/bb/b.jpg",
                           thumbnail_key="covers/bb/b-thumb.jpg")
    for n in range(13):
        factories.book(title=f"Shelf book {n}")
    page = client.get("/books").get_data(as_text=True)
    assert "<script>alert(4)" not in page
    (embedded,) = _scripts(page, "application/json")
    data = json.loads(embedded)
    assert data["path"] == "books?page=1&limit=12"
    assert data["reply"] == client.get("/api/" + data["path"]).get_json()
    assert data["reply"]["totalBooks"] == 14 and len(data["reply"]["books"]) == 12
    assert first.title in [book["title"] for book in data["reply"]["books"]]
    assert 'imagesrcset="/media/covers/bb/b-thumb.jpg 150w, /media/covers/bb/b.jpg 300w"' in page


@pytest.mark.parametrize("path", ["/books?search=physics", "/books?page=2", "/category/gate", "/about"])
def test_other_addresses_embed_no_book_list(client, factories, path):
    """Filtered and other screens fetch: the client alone reads their addresses."""
    factories.book(title="Physics")
    assert 'id="initial-books"' not in client.get(path).get_data(as_text=True)


def test_exam_page_embeds_its_reply_and_preloads_its_first_best_sellers_covers(app, client, factories):
    """/exam/{slug} paints its best sellers without an API call: the embedded reply is exactly the API's; an unknown
    exam gets the plain shell (the client shows "Exam not found")."""
    from bookstore.extensions import db
    from bookstore.models import Exam
    jee = db.session.scalar(db.select(Exam).where(Exam.slug == "jee-main"))
    factories.book(title="</script><script>alert(5)</script>", exams=[jee], copies_sold=90,
                   cover_key="covers/cc/c.jpg", thumbnail_key="covers/cc/c-thumb.jpg")
    factories.book(title="Second seller", exams=[jee], copies_sold=10)
    response = client.get("/exam/jee-main")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    page = response.get_data(as_text=True)
    assert "<script>alert(5)" not in page
    (embedded,) = _scripts(page, "application/json")
    data = json.loads(embedded)
    assert data == client.get("/api/exams/jee-main").get_json()
    assert [book["title"] for book in data["bestSellers"]] == ["</script><script>alert(5)</script>", "Second seller"]
    assert ('<link rel="preload" as="image" imagesrcset="/media/covers/cc/c-thumb.jpg 150w, /media/covers/cc/c.jpg 300w" '
            'imagesizes="(min-width: 48rem) 12rem, 45vw" fetchpriority="high">') in page
    missing = client.get("/exam/no-such-exam")
    assert missing.status_code == 200 and _scripts(missing.get_data(as_text=True), "application/json") == []
