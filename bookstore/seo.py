"""What crawlers and link previews read without running JavaScript: book page meta, sitemap, robots.txt."""
import html
import json
import math
from datetime import datetime, timezone
from urllib.parse import quote

from flask import Response, stream_with_context
from sqlalchemy import func, select

from bookstore import money
from bookstore.errors import NotFound
from bookstore.extensions import db
from bookstore.models import Book, Category
from bookstore.schemas.book import BookCardSchema, BookListReplySchema, BookSchema  # the API's own reply shapes
from bookstore.schemas.exam import ExamPageReplySchema
from bookstore.services import catalogue, exams
from bookstore.services.mail import shop_url
from bookstore.services.storage import media_url

SITE_NAME = "Bookstore"
DESCRIPTION_LENGTH = 160
# The sitemap protocol allows 50,000 addresses per file; books are split by id range.
BOOKS_PER_SITEMAP = 50000
# Screens worth finding; carts, checkout and accounts are not.
STATIC_SCREENS = ("/", "/books", "/categories", "/bestsellers", "/new-releases", "/about", "/contact",
                  "/shipping", "/return-policy", "/faq", "/privacy", "/terms", "/cookies")


def _script_json(value) -> str:
    """JSON that is safe inside <script>: no '</script>', no HTML comment openers, no line separators."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


script_json = _script_json  # for the other pages' data blocks (spa.py)


def _shorten(text: str, limit: int = DESCRIPTION_LENGTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _structured_data(book: Book, url: str, image: str | None) -> dict:
    """schema.org Book with an Offer in rupees (what search engines show as a rich result)."""
    data = {
        "@context": "https://schema.org",
        "@type": "Book",
        "name": book.title,
        "author": {"@type": "Person", "name": book.author},
        "url": url,
        "inLanguage": book.language or None,
        "isbn": book.isbn or None,
        "numberOfPages": book.pages or None,
        "publisher": {"@type": "Organization", "name": book.publisher} if book.publisher else None,
        "datePublished": book.publication_date.isoformat() if book.publication_date else None,
        "bookFormat": f"https://schema.org/{book.format.replace('-', '')}" if book.format in
        ("Paperback", "Hardcover", "E-Book", "Audiobook") else None,
        "genre": book.category.name,
        "description": _shorten(book.description or "", 500) or None,
        "image": image,
        "offers": {
            "@type": "Offer",
            "price": money.decimal_text(book.sale_price_paise),
            "priceCurrency": "INR",
            "availability": "https://schema.org/InStock" if book.stock > 0 else "https://schema.org/OutOfStock",
            "url": url,
        },
    }
    if book.rating_count:
        data["aggregateRating"] = {"@type": "AggregateRating", "ratingValue": round(book.rating, 1),
                                   "ratingCount": book.rating_count}
    return {key: value for key, value in data.items() if value is not None}


def book_head(book: Book) -> tuple[str, str, str]:
    """(title, description, extra head tags) for a book's page, every value escaped."""
    url = shop_url(f"/book/{book.id}")
    cover = media_url(book.cover_key)
    image = shop_url(cover) if cover else None
    title = f"{book.title} by {book.author} — {SITE_NAME}"
    description = _shorten(book.description or f"{book.title} by {book.author}. {book.category.name} books at {SITE_NAME}.")
    esc = lambda value: html.escape(str(value), quote=True)  # noqa: E731 - a local shorthand
    tags = [
        f'<link rel="canonical" href="{esc(url)}">',
        '<meta property="og:type" content="book">',
        f'<meta property="og:site_name" content="{SITE_NAME}">',
        f'<meta property="og:title" content="{esc(book.title)}">',
        f'<meta property="og:description" content="{esc(description)}">',
        f'<meta property="og:url" content="{esc(url)}">',
        '<meta property="og:locale" content="en_IN">',
        f'<meta name="twitter:card" content="{"summary_large_image" if image else "summary"}">',
    ]
    if book.isbn:
        tags.append(f'<meta property="book:isbn" content="{esc(book.isbn)}">')
    if image:
        tags += [f'<meta property="og:image" content="{esc(image)}">',
                 f'<meta property="og:image:alt" content="{esc("Cover of " + book.title)}">',
                 # The cover is the page's largest paint: fetch it with the HTML, not after the app starts.
                 f'<link rel="preload" as="image" href="{esc(cover)}" fetchpriority="high">']
    tags.append('<script type="application/ld+json">'
                f"{_script_json(_structured_data(book, url, image))}</script>")
    tags.append(f'<script type="application/json" id="initial-book">{_script_json(BookSchema().dump(book))}</script>')
    return title, description, "\n    ".join(tags)


def with_head(shell: str, title: str, description: str, extra: str = "") -> str:
    """index.html with its title and description replaced and extra tags added to <head>."""
    start, end = shell.find("<title>"), shell.find("</title>")
    if start != -1 and end != -1:
        shell = shell[:start] + f"<title>{html.escape(title, quote=False)}</title>" + shell[end + len("</title>"):]
    marker = '<meta name="description" content="'
    start = shell.find(marker)
    if start != -1:
        end = shell.find('">', start)
        shell = shell[:start] + f'{marker}{html.escape(description, quote=True)}">' + shell[end + 2:]
    return add_to_head(shell, [extra] if extra else [])


def add_to_head(shell: str, tags: list[str]) -> str:
    """The page with tags added at the end of its <head>."""
    return shell.replace("</head>", "  " + "\n    ".join(tags) + "\n  </head>", 1) if tags else shell


def book_page(shell: str, book_id: str) -> tuple[str, int]:
    """The shell for /book/{id} with the book's meta, or a 404 shell crawlers will not index."""
    try:
        book = catalogue.get_book(book_id)
    except NotFound:
        return with_head(shell, f"Book not found — {SITE_NAME}", "This book is not in the shop.",
                         '<meta name="robots" content="noindex">'), 404
    return with_head(shell, *book_head(book)), 200


FEATURED_ON_HOME = 8
COVER_PRELOADS = 2  # covers in a grid's first row on a phone: the page's largest paint


def _cover_preloads(dumped: list[dict]) -> list[str]:
    """Preloads of the first covers of a book grid: the page's largest paint on a phone."""
    tags = []
    for book in dumped[:COVER_PRELOADS]:
        thumb, cover = book["thumbnailUrl"], book["imageUrl"]
        if thumb and cover:
            # The same srcset and sizes as the <img>, so the browser preloads the file it will use.
            tags.append(f'<link rel="preload" as="image" imagesrcset="{html.escape(thumb)} 150w, {html.escape(cover)} 300w" '
                        'imagesizes="(min-width: 48rem) 12rem, 45vw" fetchpriority="high">')
    return tags


def home_page(shell: str) -> str:
    """The home shell with its featured books embedded and their first covers preloaded."""
    dumped = BookCardSchema(many=True).dump(catalogue.featured(limit=FEATURED_ON_HOME))
    tags = _cover_preloads(dumped)
    tags.append(f'<script type="application/json" id="initial-featured">{_script_json(dumped)}</script>')
    return add_to_head(shell, tags)


# The API address the client asks for first on a bare /books (features/catalogue/api.js, booksPath).
BOOKS_PAGE_SIZE = 12
FIRST_BOOKS_PATH = f"books?page=1&limit={BOOKS_PAGE_SIZE}"


def books_page(shell: str) -> str:
    """A bare /books with its first page of books embedded, tagged with the API address it answers,
    and its first covers preloaded. (Filtered addresses fetch: the client owns reading them.)"""
    reply = BookListReplySchema().dump(catalogue.list_books(page=1, limit=BOOKS_PAGE_SIZE))
    tags = _cover_preloads(reply["books"])
    tags.append('<script type="application/json" id="initial-books">'
                f'{_script_json({"path": FIRST_BOOKS_PATH, "reply": reply})}</script>')
    return add_to_head(shell, tags)


def exam_page(shell: str, slug: str) -> str:
    """/exam/{slug} with GET /api/exams/{slug}'s reply embedded and its first best sellers' covers preloaded,
    so the screen and its largest paint do not wait for the app to ask. An unknown exam gets the plain
    shell: the client asks and shows its "Exam not found"."""
    try:
        page = exams.exam_page(slug)
    except NotFound:
        return shell
    reply = ExamPageReplySchema().dump({"exam": page.exam, "bestsellers": page.bestsellers})
    tags = _cover_preloads(reply["bestSellers"])
    tags.append('<script type="application/json" id="initial-exam">'
                f'{_script_json(reply)}</script>')
    return add_to_head(shell, tags)


def robots_txt() -> str:
    return ("User-agent: *\nDisallow: /api/\nDisallow: /admin\nDisallow: /checkout\nDisallow: /cart\n"
            "Disallow: /orders\nDisallow: /order\nDisallow: /profile\nDisallow: /wishlist\n"
            f"\nSitemap: {shop_url('/sitemap.xml')}\n")


def _book_sitemap_count() -> int:
    highest = db.session.scalar(select(func.max(Book.id))) or 0
    return max(1, math.ceil(highest / BOOKS_PER_SITEMAP))


def sitemap_index() -> str:
    """The index of the shop's sitemaps: the screens, then the books in id ranges of 50,000."""
    names = ["/sitemap-pages.xml"] + [f"/sitemap-books-{n}.xml" for n in range(1, _book_sitemap_count() + 1)]
    entries = "".join(f"<sitemap><loc>{html.escape(shop_url(name))}</loc></sitemap>" for name in names)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</sitemapindex>\n')


def pages_sitemap() -> str:
    """The screens and the 18 category pages."""
    categories = db.session.scalars(select(Category.name).order_by(Category.position)).all()
    paths = list(STATIC_SCREENS) + [f"/category/{quote(name.lower(), safe='.')}" for name in categories]
    urls = "".join(f"<url><loc>{html.escape(shop_url(path))}</loc></url>" for path in paths)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>\n')


def books_sitemap(number: int) -> Response | None:
    """Visible books with ids in the number-th range, streamed: 50,000 rows never sit in memory."""
    if number < 1 or number > _book_sitemap_count():
        return None
    low, high = (number - 1) * BOOKS_PER_SITEMAP, number * BOOKS_PER_SITEMAP
    base = html.escape(shop_url("/book/"))
    statement = (select(Book.id, Book.updated_at)
                 .where(Book.archived.is_(False), Book.id > low, Book.id <= high).order_by(Book.id)
                 .execution_options(yield_per=2000))

    def generate():
        yield '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        batch = []
        for book_id, updated in db.session.execute(statement):
            day = (updated or datetime.now(timezone.utc)).strftime("%Y-%m-%d")
            batch.append(f"<url><loc>{base}{book_id}</loc><lastmod>{day}</lastmod></url>")
            if len(batch) >= 2000:
                yield "".join(batch)
                batch.clear()
        yield "".join(batch) + "</urlset>\n"

    return Response(stream_with_context(generate()), mimetype="application/xml",
                    headers={"Cache-Control": "public, max-age=3600"})
