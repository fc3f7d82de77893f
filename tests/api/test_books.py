"""The shopper's catalogue API: list, filters, sorting, paging, detail, shelves and suggestions."""
from datetime import date, datetime, timedelta, timezone

import pytest

from bookstore.models import Book
from bookstore.services import catalogue
from tests.factories import count

# Lists, shelves, suggestions and carts answer the card; one book's read adds what it is for.
CARD_FIELDS = {
    "_id", "title", "author", "category", "categorySlug", "price", "discountedPrice", "stock", "inStock",
    "imageUrl", "thumbnailUrl", "description", "isbn", "publisher", "publicationDate", "language", "pages",
    "format", "dimensions", "weight", "tags", "rating", "ratingCount", "copiesSold", "archived", "createdAt", "updatedAt",
    "medium", "editionYear", "editionNumber", "digital",
}
BOOK_FIELDS = CARD_FIELDS | {"exams", "subjects", "replaces", "newerEdition", "file"}
NOW = datetime.now(timezone.utc).replace(microsecond=0)


def _ago(minutes: int) -> datetime:
    return NOW - timedelta(minutes=minutes)


def _get(client, path: str, **params) -> dict:
    """GET a catalogue path that must succeed; returns the body after checking the envelope."""
    response = client.get(path, query_string=params)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["success"] is True
    return body


def _list(client, **params) -> dict:
    body = _get(client, "/api/books", **params)
    assert set(body) == {"success", "books", "totalBooks", "totalPages", "pagination"}
    assert body["pagination"]["total"] == body["totalBooks"]
    assert body["pagination"]["totalPages"] == body["totalPages"]
    return body


def _ids(body: dict) -> list[str]:
    return [book["_id"] for book in body["books"]]


def _id(book: Book) -> str:
    return str(book.id)


# ---------------------------------------------------------------- shape of a book

def test_book_fields_and_rupee_amounts(client, factories):
    """A book leaves the API in the camelCase shape of product §1.2, its paise shown as rupees."""
    book = factories.book(
        title="GATE Mechanical Engineering Guide", author="R. K. Rajput", category="gate",
        price_paise=49900, discounted_price_paise=44950, stock=5, isbn="9789309000041",
        tags=["gate", "mechanical"], description="Solved papers from 2000 to 2024.", publisher="Laxmi",
        language="English", format="Hardcover", rating=4.5, rating_count=120, copies_sold=340, pages=812,
        dimensions="24 x 18 x 4 cm", weight="1.2 kg", publication_date=date(2024, 6, 15),
        cover_key="covers/ab/abc.webp", thumbnail_key="covers/ab/abc-thumb.webp", created_at=_ago(5),
    )
    body = _list(client)
    assert body["totalBooks"] == 1 and body["totalPages"] == 1
    item = body["books"][0]
    assert set(item) == CARD_FIELDS
    assert item == {
        **{key: item[key] for key in ("createdAt", "updatedAt")},
        "_id": str(book.id), "title": "GATE Mechanical Engineering Guide", "author": "R. K. Rajput",
        "category": "GATE", "categorySlug": "gate", "price": 499, "discountedPrice": 449.5, "stock": 5,
        "inStock": True, "imageUrl": "/media/covers/ab/abc.webp", "thumbnailUrl": "/media/covers/ab/abc-thumb.webp",
        "description": "Solved papers from 2000 to 2024.", "isbn": "9789309000041", "publisher": "Laxmi",
        "publicationDate": "2024-06-15", "language": "English", "pages": 812, "format": "Hardcover",
        "dimensions": "24 x 18 x 4 cm", "weight": "1.2 kg", "tags": ["gate", "mechanical"], "rating": 4.5,
        "ratingCount": 120, "copiesSold": 340, "archived": False, "medium": "english", "editionYear": None,
        "editionNumber": None, "digital": False,
    }
    assert isinstance(item["price"], int)
    created = datetime.fromisoformat(item["createdAt"])
    assert created.tzinfo is not None and created == _ago(5)
    assert datetime.fromisoformat(item["updatedAt"]).tzinfo is not None


@pytest.mark.parametrize("price_paise, discounted, price, discounted_price", [
    (49900, None, 499, None),
    (49950, 45000, 499.5, 450),
    (10005, 9999, 100.05, 99.99),
    (100, 0, 1, 0),
])
def test_rupees_are_whole_numbers_when_whole_else_two_decimals(client, factories, price_paise, discounted, price,
                                                               discounted_price):
    """Prices are shown in rupees: an integer when the paise make whole rupees, otherwise a number with two decimals."""
    factories.book(price_paise=price_paise, discounted_price_paise=discounted)
    item = _list(client)["books"][0]
    assert item["price"] == price and type(item["price"]) is type(price)
    assert item["discountedPrice"] == discounted_price and type(item["discountedPrice"]) is type(discounted_price)


def test_out_of_stock_book_says_so_and_has_no_image(client, factories):
    """A book with no stock is listed with stock 0, inStock false and no image or thumbnail URL."""
    factories.book(stock=0)
    item = _list(client)["books"][0]
    assert item["stock"] == 0 and item["inStock"] is False
    assert item["imageUrl"] is None and item["thumbnailUrl"] is None


# ---------------------------------------------------------------- paging

@pytest.fixture
def thirty_books(factories) -> list[str]:
    """30 books, newest first (the default order)."""
    books = [factories.book(title=f"Book {n:02d}", created_at=_ago(n)) for n in range(30)]
    return [_id(book) for book in books]


def test_pages_of_twelve_cover_the_list_once_in_order(client, thirty_books):
    """Default limit 12: pages 1-3 hold 12, 12 and 6 books, without overlap, in the requested order."""
    pages = [_list(client, page=page) for page in (1, 2, 3)]
    assert [len(body["books"]) for body in pages] == [12, 12, 6]
    for number, body in enumerate(pages, start=1):
        assert body["totalBooks"] == 30 and body["totalPages"] == 3
        assert body["pagination"] == {"page": number, "limit": 12, "total": 30, "totalPages": 3,
                                      "totalIsApproximate": False}
    assert [book_id for body in pages for book_id in _ids(body)] == thirty_books


def test_page_past_the_end_is_empty(client, thirty_books):
    """A page beyond the last one is an empty list with the true pagination, not an error."""
    body = _list(client, page=4)
    assert body["books"] == []
    assert body["pagination"] == {"page": 4, "limit": 12, "total": 30, "totalPages": 3, "totalIsApproximate": False}


def test_explicit_limit_and_oldest_order_page_correctly(client, thirty_books):
    """limit and sortBy=oldest page through every book once, oldest first, in pages of the given size."""
    oldest_first = list(reversed(thirty_books))
    pages = [_list(client, page=page, limit=7, sortBy="oldest") for page in range(1, 6)]
    assert [len(body["books"]) for body in pages] == [7, 7, 7, 7, 2]
    assert all(body["totalPages"] == 5 for body in pages)
    assert [book_id for body in pages for book_id in _ids(body)] == oldest_first


@pytest.mark.parametrize("limit, clamped", [("100", 100), ("101", 100), ("500", 100), ("99999999999999999999", 100)])
def test_limit_above_100_is_clamped(client, thirty_books, limit, clamped):
    """Asking for more than 100 books gets 100 per page, not an error."""
    body = _list(client, limit=limit)
    assert body["pagination"] == {"page": 1, "limit": clamped, "total": 30, "totalPages": 1,
                                  "totalIsApproximate": False}
    assert _ids(body) == thirty_books


def test_empty_catalogue_has_no_pages(client):
    """An empty catalogue answers page 1 with no books, total 0 and 0 pages."""
    body = _list(client)
    assert body["books"] == []
    assert body["pagination"] == {"page": 1, "limit": 12, "total": 0, "totalPages": 0, "totalIsApproximate": False}


# ---------------------------------------------------------------- filters

@pytest.mark.parametrize("param, slug, name", [
    ("gate", "gate", "GATE"),
    ("GATE", "gate", "GATE"),
    ("i.i.t", "iit", "I.I.T"),
    ("iit", "iit", "I.I.T"),
    ("b.com", "bcom", "B.COM"),
    ("bcom", "bcom", "B.COM"),
    ("i to xii school", "school", "I TO XII SCHOOL"),
    ("school", "school", "I TO XII SCHOOL"),
    ("other competitive books", "other-competitive", "OTHER COMPETITIVE BOOKS"),
])
def test_category_filter_takes_the_spec_link_name_or_the_slug(client, factories, param, slug, name):
    """The category filter accepts the link name or the slug and lists only that category's visible books."""
    books = {s: factories.book(category=s) for s in ("gate", "iit", "bcom", "school", "other-competitive")}
    factories.book(category=slug, archived=True)
    body = _list(client, category=param)
    assert _ids(body) == [_id(books[slug])]
    assert body["books"][0]["category"] == name and body["books"][0]["categorySlug"] == slug
    assert body["totalBooks"] == 1


@pytest.mark.parametrize("param", ["astrology", "gate2", "g.a.t.e", "%", "' OR 1=1 --"])
def test_unknown_category_is_an_empty_list(client, factories, param):
    """A stale or made-up category link shows no books rather than an error."""
    factories.book(category="gate")
    body = _list(client, category=param)
    assert body["books"] == [] and body["totalBooks"] == 0 and body["totalPages"] == 0


@pytest.fixture
def priced_books(factories) -> dict[str, Book]:
    """Sale prices: a ₹500, b ₹450 (list ₹800), c ₹300, d ₹700 (list ₹1,000), e ₹449.50."""
    return {
        "a": factories.book(title="A", price_paise=50000, created_at=_ago(1)),
        "b": factories.book(title="B", price_paise=80000, discounted_price_paise=45000, created_at=_ago(2)),
        "c": factories.book(title="C", price_paise=30000, created_at=_ago(3)),
        "d": factories.book(title="D", price_paise=100000, discounted_price_paise=70000, created_at=_ago(4)),
        "e": factories.book(title="E", price_paise=44950, created_at=_ago(5)),
    }


@pytest.mark.parametrize("params, expected", [
    ({"minPrice": "400", "maxPrice": "600"}, "abe"),
    ({"minPrice": "450"}, "abd"),
    ({"minPrice": "449.5"}, "abde"),
    ({"maxPrice": "449.99"}, "ce"),
    ({"maxPrice": "450"}, "bce"),
    ({"minPrice": "700", "maxPrice": "799"}, "d"),
    ({"minPrice": "800"}, ""),
    ({"minPrice": "0", "maxPrice": "1000000"}, "abcde"),
    ({"minPrice": "450", "maxPrice": "450"}, "b"),
])
def test_price_filter_uses_the_price_the_shopper_pays(client, priced_books, params, expected):
    """minPrice/maxPrice are rupees, inclusive, and compare the discounted price when there is one."""
    body = _list(client, **params)
    assert _ids(body) == [_id(priced_books[key]) for key in expected]
    assert body["totalBooks"] == len(expected)


def test_rating_is_a_minimum(client, factories):
    """rating= keeps books rated at or above the value; 0 keeps every book."""
    low = factories.book(rating=3.9, created_at=_ago(1))
    four = factories.book(rating=4.0, created_at=_ago(2))
    high = factories.book(rating=4.5, created_at=_ago(3))
    assert _ids(_list(client, rating="4")) == [_id(four), _id(high)]
    assert _ids(_list(client, rating="4.5")) == [_id(high)]
    assert _ids(_list(client, rating="0")) == [_id(low), _id(four), _id(high)]
    assert _list(client, rating="5")["books"] == []


def test_format_filter(client, factories):
    """format= keeps only books of that exact format; an unknown format lists nothing."""
    paperback = factories.book(format="Paperback")
    ebook = factories.book(format="E-Book")
    factories.book(format="Hardcover")
    assert _ids(_list(client, format="E-Book")) == [_id(ebook)]
    assert _ids(_list(client, format="Paperback")) == [_id(paperback)]
    assert _list(client, format="Audiobook")["books"] == []


@pytest.mark.parametrize("language", ["Hindi", "hindi", "HINDI", " hindi "])
def test_language_filter_is_case_insensitive(client, factories, language):
    """language= matches the book's language whatever the letter case of the parameter."""
    hindi = factories.book(language="Hindi")
    factories.book(language="English")
    body = _list(client, language=language)
    assert _ids(body) == [_id(hindi)]
    assert body["books"][0]["language"] == "Hindi"


def test_filters_combine(client, factories):
    """Category, price, rating, format and language all apply together."""
    match = factories.book(category="iit", price_paise=60000, discounted_price_paise=40000, rating=4.2,
                           format="Paperback", language="Hindi")
    factories.book(category="gate", price_paise=40000, rating=4.2, format="Paperback", language="Hindi")
    factories.book(category="iit", price_paise=90000, rating=4.2, format="Paperback", language="Hindi")
    factories.book(category="iit", price_paise=40000, rating=3.0, format="Paperback", language="Hindi")
    factories.book(category="iit", price_paise=40000, rating=4.2, format="Hardcover", language="Hindi")
    factories.book(category="iit", price_paise=40000, rating=4.2, format="Paperback", language="English")
    body = _list(client, category="i.i.t", maxPrice="500", rating="4", format="Paperback", language="hindi")
    assert _ids(body) == [_id(match)]
    assert body["totalBooks"] == 1


# ---------------------------------------------------------------- sorting

@pytest.fixture
def sortable(factories) -> dict[int, Book]:
    """Four books whose seven orders all differ."""
    return {
        1: factories.book(title="Chemistry", price_paise=30000, created_at=_ago(40), copies_sold=70, rating=3.0),
        2: factories.book(title="Algebra", price_paise=90000, discounted_price_paise=20000, created_at=_ago(30),
                          copies_sold=10, rating=4.8),
        3: factories.book(title="Biology", price_paise=50000, created_at=_ago(20), copies_sold=99, rating=2.0),
        4: factories.book(title="Dynamics", price_paise=45000, created_at=_ago(10), copies_sold=50, rating=4.0),
    }


@pytest.mark.parametrize("sort_by, expected", [
    (None, [4, 3, 2, 1]),
    ("newest", [4, 3, 2, 1]),
    ("oldest", [1, 2, 3, 4]),
    ("price-low", [2, 1, 4, 3]),
    ("price-high", [3, 4, 1, 2]),
    ("title", [2, 3, 1, 4]),
    ("bestselling", [3, 1, 4, 2]),
    ("rating", [2, 4, 1, 3]),
])
def test_sort_orders(client, sortable, sort_by, expected):
    """Each sortBy option orders the whole list; prices sort by what the shopper pays."""
    params = {"sortBy": sort_by} if sort_by else {}
    assert _ids(_list(client, **params)) == [_id(sortable[n]) for n in expected]


def test_sort_order_holds_across_pages(client, sortable):
    """A sorted listing keeps its order from one page to the next, with no book repeated or skipped."""
    first = _list(client, sortBy="price-low", limit=3, page=1)
    second = _list(client, sortBy="price-low", limit=3, page=2)
    assert _ids(first) + _ids(second) == [_id(sortable[n]) for n in (2, 1, 4, 3)]
    assert first["totalPages"] == second["totalPages"] == 2


# ---------------------------------------------------------------- search with filters and sorting

@pytest.fixture
def physics_books(factories) -> dict[str, Book]:
    return {
        "gate": factories.book(title="Physics for GATE", category="gate", price_paise=50000, created_at=_ago(1)),
        "jee": factories.book(title="Physics for JEE", category="iit", price_paise=40000, created_at=_ago(2)),
        "advanced": factories.book(title="Physics Advanced", category="gate", price_paise=90000, created_at=_ago(3)),
        "chemistry": factories.book(title="Chemistry for GATE", category="gate", price_paise=30000, created_at=_ago(4)),
    }


def test_search_with_category_and_price(client, physics_books):
    """A search combines with the category and price filters: only books matching all of them are listed."""
    body = _list(client, search="physics", category="gate", maxPrice="600")
    assert _ids(body) == [_id(physics_books["gate"])]
    assert body["totalBooks"] == 1


def test_search_with_sort(client, physics_books):
    """Search results follow the requested sort (price, title) instead of relevance."""
    body = _list(client, search="physics", sortBy="price-low")
    assert _ids(body) == [_id(physics_books[k]) for k in ("jee", "gate", "advanced")]
    body = _list(client, search="phys", sortBy="title")
    assert [book["title"] for book in body["books"]] == ["Physics Advanced", "Physics for GATE", "Physics for JEE"]


def test_search_results_are_paged(client, physics_books):
    """Search results are paged like the listing, with a total that counts every match."""
    first = _list(client, search="physics", limit=2, sortBy="price-high")
    second = _list(client, search="physics", limit=2, sortBy="price-high", page=2)
    assert first["totalBooks"] == second["totalBooks"] == 3
    assert first["totalPages"] == 2
    assert _ids(first) + _ids(second) == [_id(physics_books[k]) for k in ("advanced", "gate", "jee")]


def test_search_matches_category_name(client, physics_books):
    """'gate' finds the GATE shelf's books as well as titles that say GATE."""
    body = _list(client, search="gate", sortBy="oldest")
    assert _ids(body) == [_id(physics_books[k]) for k in ("chemistry", "advanced", "gate")]


def test_empty_search_lists_everything(client, physics_books):
    """An empty search= is no filter: every visible book is listed."""
    assert _list(client, search="")["totalBooks"] == 4


# ---------------------------------------------------------------- bad input

BAD_QUERIES = [
    ("/api/books", {"page": "0"}, "page", "page"),
    ("/api/books", {"page": "-1"}, "page", "page"),
    ("/api/books", {"page": "abc"}, "page", "page"),
    ("/api/books", {"page": "1.5"}, "page", "page"),
    ("/api/books", {"limit": "0"}, "limit", "limit"),
    ("/api/books", {"limit": "-5"}, "limit", "limit"),
    ("/api/books", {"limit": "ten"}, "limit", "limit"),
    ("/api/books", {"minPrice": "-1"}, "minPrice", "min price"),
    ("/api/books", {"minPrice": "abc"}, "minPrice", "min price"),
    ("/api/books", {"minPrice": "1.234"}, "minPrice", "min price"),
    ("/api/books", {"minPrice": "NaN"}, "minPrice", "min price"),
    ("/api/books", {"minPrice": "-Infinity"}, "minPrice", "min price"),
    ("/api/books", {"maxPrice": "Infinity"}, "maxPrice", "max price"),
    ("/api/books", {"maxPrice": "nan"}, "maxPrice", "max price"),
    ("/api/books", {"maxPrice": "1000000.01"}, "maxPrice", "max price"),
    ("/api/books", {"maxPrice": ""}, "maxPrice", "max price"),
    ("/api/books", {"rating": "6"}, "rating", "rating"),
    ("/api/books", {"rating": "-0.5"}, "rating", "rating"),
    ("/api/books", {"rating": "abc"}, "rating", "rating"),
    ("/api/books", {"rating": "NaN"}, "rating", "rating"),
    ("/api/books", {"sortBy": "cheapest"}, "sortBy", "sort"),
    ("/api/books", {"sortBy": "Price-Low"}, "sortBy", "sort"),
    ("/api/books", {"format": "Scroll"}, "format", "format"),
    ("/api/books", {"search": "x" * 201}, "search", "search"),
    ("/api/books", {"category": "c" * 61}, "category", "category"),
    ("/api/books", {"language": "l" * 41}, "language", "language"),
    ("/api/books/featured", {"limit": "0"}, "limit", "limit"),
    ("/api/books/featured", {"limit": "49"}, "limit", "limit"),
    ("/api/books/bestsellers", {"limit": "abc"}, "limit", "limit"),
    ("/api/books/bestsellers", {"limit": "-1"}, "limit", "limit"),
    ("/api/books/new-releases", {"limit": "1000"}, "limit", "limit"),
    ("/api/books/new-releases", {"category": "c" * 61}, "category", "category"),
    ("/api/books/suggest", {"q": "q" * 101}, "q", "search"),
]


@pytest.mark.parametrize("path, params, field, words", BAD_QUERIES,
                         ids=[f"{p.rsplit('/', 1)[-1]}-{f}={v[:12]}" for p, q, f, _ in BAD_QUERIES for v in q.values()])
def test_bad_query_is_422_with_the_parameter_named(client, factories, path, params, field, words):
    """Invalid parameters get 422, a message naming the parameter, errors keyed by it, and no writes."""
    factories.book()
    before = count(Book)
    response = client.get(path, query_string=params)
    assert response.status_code == 422
    body = response.get_json()
    assert set(body) == {"success", "message", "errors"}
    assert body["success"] is False
    assert words in body["message"].lower()
    assert list(body["errors"]) == [field]
    assert body["errors"][field] and all(isinstance(m, str) and m for m in body["errors"][field])
    assert count(Book) == before


def test_minimum_price_above_maximum_is_422(client, factories):
    """minPrice above maxPrice is refused with a 422 naming minPrice and saying why, not an empty page."""
    factories.book(price_paise=50000)
    response = client.get("/api/books", query_string={"minPrice": "600", "maxPrice": "400"})
    assert response.status_code == 422
    body = response.get_json()
    assert body["success"] is False
    assert "minimum price" in body["message"].lower() and "maximum" in body["message"].lower()
    assert list(body["errors"]) == ["minPrice"]
    assert count(Book) == 1


def test_several_bad_parameters_are_all_reported(client):
    """Several bad listing parameters give one 422 naming every bad parameter at once."""
    response = client.get("/api/books", query_string={"page": "0", "sortBy": "cheapest", "minPrice": "x"})
    assert response.status_code == 422
    body = response.get_json()
    assert body["success"] is False and body["message"]
    assert set(body["errors"]) == {"page", "sortBy", "minPrice"}


@pytest.mark.parametrize("path, params", [
    ("/api/books", {"category": "gate\x00"}),
    ("/api/books", {"language": "hi\x00ndi"}),
    ("/api/books", {"format": "Paper\x00back"}),
    ("/api/books", {"search": "phys\x00ics"}),
    ("/api/books/featured", {"category": "\x00"}),
    ("/api/books/suggest", {"q": "phys\x00"}),
])
def test_nul_characters_in_parameters_are_not_a_server_error(client, factories, path, params):
    """Never a 500 for bad input: a NUL byte in a parameter is refused (422) or finds nothing."""
    factories.book(title="Physics", category="gate", language="Hindi")
    before = count(Book)
    response = client.get(path, query_string=params)
    assert response.status_code in (200, 422), response.get_json()
    body = response.get_json()
    if response.status_code == 200:
        assert body["success"] is True
    else:
        assert body["success"] is False and list(body["errors"]) == list(params)
    assert count(Book) == before


# ---------------------------------------------------------------- one book

def test_book_detail(client, factories):
    """GET /api/books/<id> answers the book with exactly the documented fields, prices in rupees and the category's
    name and slug."""
    book = factories.book(title="Quantitative Aptitude", author="R. S. Aggarwal", category="banking",
                          price_paise=62500, discounted_price_paise=55000)
    body = _get(client, f"/api/books/{book.id}")
    assert set(body) == {"success", "book"}
    assert set(body["book"]) == BOOK_FIELDS
    assert body["book"]["_id"] == str(book.id)
    assert body["book"]["title"] == "Quantitative Aptitude"
    assert body["book"]["category"] == "BANKING" and body["book"]["categorySlug"] == "banking"
    assert body["book"]["price"] == 625 and body["book"]["discountedPrice"] == 550


def _devanagari(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "०१२३४५६७८९"))


@pytest.mark.parametrize("book_id", [
    "abc", "-1", "1.5", "0x10", "1e3", "+1", "0", " 1", "99999999999999999999", "2147483648",
    "²", "DEVANAGARI",
])
def test_unknown_and_malformed_ids_are_404(client, factories, book_id):
    """Unknown, malformed or absurdly large ids answer 404 in the envelope, never 500 or another book."""
    book = factories.book()
    if book_id == "DEVANAGARI":
        book_id = _devanagari(book.id)  # the real id in Devanagari digits is still not an id
    before = count(Book)
    response = client.get("/api/books/" + book_id)
    assert response.status_code == 404
    assert response.get_json() == {"success": False, "message": "Book not found."}
    assert count(Book) == before


def test_next_id_is_404(client, factories):
    """An id that names no book is 404 "Book not found." in the error envelope."""
    book = factories.book()
    response = client.get(f"/api/books/{book.id + 1}")
    assert response.status_code == 404
    assert response.get_json() == {"success": False, "message": "Book not found."}


def test_archived_book_detail_is_404(client, factories):
    """An archived book is not shown to shoppers: its detail is 404 like a missing book."""
    book = factories.book(archived=True)
    response = client.get(f"/api/books/{book.id}")
    assert response.status_code == 404
    assert response.get_json() == {"success": False, "message": "Book not found."}


# ---------------------------------------------------------------- several books at once (a cart)

def test_books_by_ids_answers_the_visible_ones_in_the_order_asked(client, factories):
    """A cart re-reads its books in one call; unknown and archived ones are simply not in the reply."""
    first, second = factories.book(title="First", stock=3), factories.book(title="Second", price_paise=19900)
    archived = factories.book(title="Gone", archived=True)
    body = _get(client, "/api/books/by-ids", ids=f"{second.id},999999,{archived.id},{first.id},{second.id}")
    assert set(body) == {"success", "books"}
    assert _ids(body) == [_id(second), _id(first)]
    assert set(body["books"][0]) == CARD_FIELDS
    assert body["books"][0]["price"] == 199 and body["books"][1]["stock"] == 3


@pytest.mark.parametrize("ids", ["", "1,,2", "1,abc", "-1", "1.5", "१", ",".join(["1"] * 51)])
def test_books_by_ids_refuses_what_is_not_a_list_of_ids(client, factories, ids):
    """by-ids refuses anything but 1 to 50 comma-separated ids with 422 on ids."""
    factories.book()
    response = client.get("/api/books/by-ids", query_string={"ids": ids})
    assert response.status_code == 422
    body = response.get_json()
    assert body["success"] is False
    assert body["errors"]["ids"] == ["Give 1 to 50 book ids separated by commas."]


def test_books_by_ids_needs_ids(client):
    """by-ids without ids is 422 with "Book ids are required." on ids."""
    response = client.get("/api/books/by-ids")
    assert response.status_code == 422
    assert response.get_json()["errors"]["ids"] == ["Book ids are required."]


def test_books_by_ids_with_huge_ids_finds_nothing_rather_than_failing(client, factories):
    """An id too large for the database finds no book instead of causing an error."""
    factories.book()
    assert _get(client, "/api/books/by-ids", ids="99999999999999999999999")["books"] == []


# ---------------------------------------------------------------- archived books stay hidden

def test_archived_books_are_hidden_from_every_shopper_list(client, factories):
    """Archived books are kept for order history but never listed, shelved or suggested."""
    live = factories.book(title="Physics Live", rating=3.0, copies_sold=1, publication_date=date(2020, 1, 1))
    factories.book(title="Physics Archived", rating=5.0, copies_sold=999, publication_date=date(2025, 1, 1),
                   archived=True)
    assert _ids(_list(client)) == [_id(live)]
    assert _list(client)["totalBooks"] == 1
    assert _ids(_list(client, search="physics")) == [_id(live)]
    for shelf in ("featured", "bestsellers", "new-releases"):
        assert _ids(_get(client, f"/api/books/{shelf}")) == [_id(live)], shelf
    suggestions = _get(client, "/api/books/suggest", q="physics")["suggestions"]
    assert [s["book"]["_id"] for s in suggestions] == [_id(live)]


# ---------------------------------------------------------------- shelves

def test_featured_are_best_rated_in_stock_books(client, factories):
    """Featured: eight by default, best rated first, never a book that cannot be bought today."""
    books = [factories.book(rating=round(3.0 + n * 0.2, 1), stock=5) for n in range(10)]
    factories.book(rating=5.0, stock=0)
    body = _get(client, "/api/books/featured")
    assert set(body) == {"success", "books"}
    assert _ids(body) == [_id(book) for book in reversed(books)][:8]
    assert all(book["inStock"] for book in body["books"])


def test_featured_limit_and_category(client, factories):
    """Featured books are in-stock books by rating, best first, limited by limit= and filtered by category name or
    slug."""
    iit = [factories.book(category="iit", rating=4.0 + n / 10) for n in range(3)]
    gate = factories.book(category="gate", rating=5.0)
    factories.book(category="iit", rating=4.9, stock=0)
    assert _ids(_get(client, "/api/books/featured", limit=2)) == [_id(gate), _id(iit[2])]
    assert _ids(_get(client, "/api/books/featured", category="i.i.t")) == [_id(b) for b in reversed(iit)]
    assert _ids(_get(client, "/api/books/featured", category="iit", limit=1)) == [_id(iit[2])]


def test_bestsellers_by_copies_sold(client, factories):
    """Bestsellers are the 8 books with the most copies sold, most first, with copiesSold shown."""
    books = [factories.book(copies_sold=copies) for copies in (5, 500, 50, 5000, 0, 1, 2, 3, 4)]
    body = _get(client, "/api/books/bestsellers")
    assert set(body) == {"success", "books"}
    expected = sorted(books, key=lambda b: b.copies_sold, reverse=True)[:8]
    assert _ids(body) == [_id(b) for b in expected]
    assert [book["copiesSold"] for book in body["books"]] == [5000, 500, 50, 5, 4, 3, 2, 1]


def test_bestsellers_limit_and_category(client, factories):
    """Bestsellers honour limit= and category=; an unknown category lists none."""
    top_gate = factories.book(category="gate", copies_sold=900)
    second_gate = factories.book(category="gate", copies_sold=800)
    factories.book(category="gate", copies_sold=10)
    factories.book(category="bba", copies_sold=5000)
    assert _ids(_get(client, "/api/books/bestsellers", category="gate", limit=2)) == [_id(top_gate), _id(second_gate)]
    assert _get(client, "/api/books/bestsellers", category="no-such-shelf")["books"] == []


def test_new_releases_by_publication_date(client, factories):
    """New releases are the 8 books with the latest publication dates, newest first."""
    dates = [date(2020 + n % 6, 1 + n, 1) for n in range(9)]
    books = [factories.book(publication_date=day, created_at=_ago(n)) for n, day in enumerate(dates)]
    body = _get(client, "/api/books/new-releases")
    assert set(body) == {"success", "books"}
    expected = sorted(books, key=lambda b: b.publication_date, reverse=True)[:8]
    assert _ids(body) == [_id(b) for b in expected]
    published = [book["publicationDate"] for book in body["books"]]
    assert published == sorted(published, reverse=True)


def test_new_releases_limit_and_category(client, factories):
    """New releases honour limit= and category=."""
    newest = factories.book(category="net", publication_date=date(2025, 3, 1))
    factories.book(category="net", publication_date=date(2021, 3, 1))
    factories.book(category="gre", publication_date=date(2026, 1, 1))
    assert _ids(_get(client, "/api/books/new-releases", category="net", limit=1)) == [_id(newest)]
    assert len(_get(client, "/api/books/new-releases", limit=2)["books"]) == 2


# ---------------------------------------------------------------- suggestions

def _suggest(client, q: str) -> list[dict]:
    body = _get(client, "/api/books/suggest", q=q)
    assert set(body) == {"success", "suggestions"}
    for suggestion in body["suggestions"]:
        assert suggestion["matchedOn"] in ("title", "author", "category", "description")
        assert set(suggestion["book"]) == CARD_FIELDS
    return body["suggestions"]


def _word_starts_with(text: str, prefix: str) -> bool:
    return any(word.startswith(prefix) for word in text.lower().replace(".", " ").replace(",", " ").split())


def test_suggestions_follow_the_quotas(client, factories):
    """Up to 3 by title, 2 by author, 2 by category, 2 by description, one per book, 8 at most."""
    by_title = [factories.book(title=f"English Grammar {n}", category="gate") for n in range(4)]
    by_author = [factories.book(title=f"Plain {n}", author=name, category="gate")
                 for n, name in enumerate(("R. Engel", "K. Engineer", "M. Engstrom"))]
    by_category = [factories.book(title=f"Shelf {n}", category="engineering-computer") for n in range(3)]
    by_description = [factories.book(title=f"Notes {n}", category="gate",
                                     description=f"Notes {n}, written in plain English for first-year students.")
                      for n in range(3)]
    suggestions = _suggest(client, "eng")
    parts = [s["matchedOn"] for s in suggestions]
    assert parts == ["title"] * 3 + ["author"] * 2 + ["category"] * 2 + ["description"]
    ids = [s["book"]["_id"] for s in suggestions]
    assert len(ids) == len(set(ids)) == 8
    groups = {"title": by_title, "author": by_author, "category": by_category, "description": by_description}
    for suggestion in suggestions:
        assert suggestion["book"]["_id"] in {_id(b) for b in groups[suggestion["matchedOn"]]}
    description = suggestions[-1]
    assert "English" in description["preview"]
    assert len(description["preview"].strip("…")) <= 50
    assert all(s["preview"] is None for s in suggestions[:-1])


def test_a_book_is_suggested_once_under_its_best_part(client, factories):
    """A book matching in title, author and description is suggested once, under its title."""
    book = factories.book(title="Physics Galaxy", author="Physics Wallah", description="Physics, physics.")
    suggestions = _suggest(client, "physics")
    assert [(s["book"]["_id"], s["matchedOn"]) for s in suggestions] == [(_id(book), "title")]


def test_suggestion_shape(client, factories):
    """A suggestion names the part that matched and carries the book's id and prices in rupees."""
    book = factories.book(title="Objective Physics", price_paise=45000, discounted_price_paise=39900)
    suggestions = _suggest(client, "obj")
    assert len(suggestions) == 1
    assert suggestions[0]["matchedOn"] == "title"
    assert suggestions[0]["book"]["_id"] == _id(book)
    assert suggestions[0]["book"]["price"] == 450 and suggestions[0]["book"]["discountedPrice"] == 399


@pytest.mark.parametrize("q", ["", "p", " p ", "P", "  "])
def test_fewer_than_two_characters_suggest_nothing(client, factories, q):
    """Fewer than two characters of query suggest nothing."""
    factories.book(title="Physics")
    factories.book(title="P")
    assert _suggest(client, q) == []


@pytest.mark.parametrize("book_fields", [
    {"publisher": "Arihant Publications"},
    {"tags": ["arihant"]},
    {"isbn": "9789309000041"},
])
def test_suggestions_only_claim_the_part_that_matched(client, factories, book_fields):
    """matchedOn says where the words were found: a publisher, tag or ISBN hit is not a category match."""
    factories.book(title="Target Book", **book_fields)
    q = "arihant" if "isbn" not in book_fields else "978930900"
    for suggestion in _suggest(client, q):
        part = suggestion["matchedOn"]
        assert _word_starts_with(str(suggestion["book"][part]), q), (part, suggestion["book"][part])


def test_category_suggestion_names_a_matching_category(client, factories):
    """A query matching a category name suggests that category's books, marked as matched on category."""
    book = factories.book(title="Plain Title", category="banking")
    factories.book(title="Other Title", category="gate")
    suggestions = _suggest(client, "bank")
    assert [(s["book"]["_id"], s["matchedOn"]) for s in suggestions] == [(_id(book), "category")]
    assert suggestions[0]["book"]["category"] == "BANKING"


def test_a_suggestion_is_labelled_by_the_first_part_that_matched(client, factories):
    """A book another part's quota took is labelled by where the words really are: a GATE title beyond
    the title quota, found through the GATE shelf, is a title match (issue 15), and a book found by its
    description whose author matches is an author match."""
    titled = [factories.book(title=f"GATE Physics {n}", category="gate", copies_sold=10 - n) for n in range(4)]
    factories.book(title="Plain", author="Gateway Authors", category="iit", copies_sold=5)
    suggestions = [(s["book"]["title"], s["matchedOn"]) for s in _suggest(client, "gate")]
    assert suggestions == [(b.title, "title") for b in titled[:3]] + [("Plain", "author"), (titled[3].title, "title")]
    for suggestion in _suggest(client, "gate"):
        part = suggestion["matchedOn"]
        assert part == "category" or _word_starts_with(str(suggestion["book"][part]), "gate")


def _suggested(client, q: str, part: str) -> list[str]:
    return [s["book"]["title"] for s in _suggest(client, q) if s["matchedOn"] == part]


def test_suggestions_are_each_parts_best_sellers(client, factories):
    """Among many matches of a part, the best sellers come first; books that sell more but do not
    match are left out."""
    for n in range(14):
        factories.book(title=f"Physics Part {n}", copies_sold=(n * 7) % 15)
    for n in range(3):
        factories.book(title=f"Chemistry {n}", copies_sold=100 + n)
    assert _suggested(client, "phys", "title") == ["Physics Part 2", "Physics Part 4", "Physics Part 6"]


def test_a_prefix_rare_among_the_best_sellers_is_still_found(client, factories, monkeypatch):
    """PostgreSQL walks the best sellers first and asks the part's word index only when they hold too
    few matches: a match beyond the walk is still suggested, after the ones the walk found."""
    monkeypatch.setattr(catalogue, "SUGGESTION_BEST_SELLERS", 3)  # Chemistry 0, Physics Prime, Chemistry 1
    factories.book(title="Physics Prime", copies_sold=99)
    for n in range(4):
        factories.book(title=f"Chemistry {n}", copies_sold=100 - 2 * n)
    factories.book(title="Physics Second", copies_sold=50)
    factories.book(title="Physics Third", copies_sold=40)
    factories.book(title="Plain", author="Physics Wallah", copies_sold=1)
    assert _suggested(client, "phys", "title") == ["Physics Prime", "Physics Second", "Physics Third"]
    assert _suggested(client, "phys", "author") == ["Plain"]


def test_every_word_of_a_suggestion_is_in_the_same_part(client, factories):
    """Every word of the query must match within one part of a book (title, author, ...), not spread over several."""
    factories.book(title="Organic Chemistry", copies_sold=1)
    factories.book(title="Organic Farming", description="Soil chemistry for growers.", copies_sold=50)
    factories.book(title="Plain", author="Organic Chem Society", copies_sold=10)
    suggestions = [(s["book"]["title"], s["matchedOn"]) for s in _suggest(client, "organic chem")]
    assert suggestions == [("Organic Chemistry", "title"), ("Plain", "author")]


@pytest.mark.parametrize("sort_by", ["newest", "oldest", "price-low", "price-high", "title", "bestselling", "rating"])
def test_pages_read_from_either_end_agree_with_one_long_page(client, factories, sort_by):
    """Pages past the middle are read backwards from the end; together they are exactly the full list."""
    for n in range(23):
        factories.book(title=f"Book {n % 5}", price_paise=10000 + (n % 4) * 100, copies_sold=n % 3,
                       rating=3.0 + (n % 2))
    full = client.get("/api/books", query_string={"sortBy": sort_by, "limit": 100}).get_json()["books"]
    paged = []
    for page in range(1, 5):
        body = client.get("/api/books", query_string={"sortBy": sort_by, "limit": 7, "page": page}).get_json()
        assert body["totalBooks"] == 23 and body["totalPages"] == 4
        paged += body["books"]
    assert [b["_id"] for b in paged] == [b["_id"] for b in full]
    beyond = client.get("/api/books", query_string={"sortBy": sort_by, "limit": 7, "page": 5}).get_json()
    assert beyond["books"] == []
