"""Makes the demo catalogue: deterministic, plausible study books over the 18 shelves, with covers.

Book n is a pure function of n, so the same N always gives the same catalogue and the work splits
freely: worker processes make rows, draw covers and store the files, while this process only
inserts, because the search-index triggers make inserting the one part that cannot run in parallel.
"""
import random
import string
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from functools import lru_cache
from itertools import accumulate

from flask import Flask, current_app
from sqlalchemy import func, insert, select, text, update

from bookstore.demo import cover_art, data, exam_tags
from bookstore.demo import kits as demo_kits
from bookstore.extensions import db
from bookstore.models import DIGITAL_FORMATS, Book, Category, Exam, ExamSubject, book_exams, book_subjects, medium_from_text
from bookstore.services import digital, stock, storage

SEED = 20261101
# Dates are computed from a fixed day, not today, so the same N gives byte-identical books.
REFERENCE_DATE = date(2026, 11, 1)
PUBLISHING_YEARS = 8
BATCH_SIZE = 2000
MAX_CHUNK = 500
WORKERS = 2
# Chunks queued ahead of the inserts, so workers never wait for the database.
CHUNKS_IN_FLIGHT = 3 * WORKERS
# ISBN-13 bodies 978-81-xxxxxxx and 978-93-xxxxxxx; book n gets body (n * STEP + OFFSET) mod
# SPACE, a bijection because STEP is coprime with SPACE, so ISBNs never repeat yet look random.
ISBN_SPACE = 2 * 10**7
ISBN_STEP = 7_654_321
ISBN_OFFSET = 1_234_567
# Famous study-book authors a random combination could otherwise reproduce.
# Every 50th book is a newer edition of the book one deck of shelves (40 books) before it.
NEWER_EDITION_EVERY = 50
SHELF_DECK = 40
REAL_AUTHORS = {"H. C. Verma", "R. D. Sharma", "R. S. Agarwal", "S. L. Arora", "O. P. Tandon", "M. S. Chauhan",
                "K. C. Sinha", "R. K. Bansal", "Ramesh Singh", "Arun Sharma", "Rakesh Yadav", "D. C. Pandey"}


@dataclass(frozen=True)
class Shelf:
    """The category row a book goes on; its word lists are data.SHELVES[slug]."""

    id: int
    slug: str
    name: str
    color: str

    @property
    def words(self) -> dict:
        """The shelf's subjects, title patterns and book proportions."""
        return data.SHELVES[self.slug]


def seed(count: int, *, with_covers: bool = True, progress: Callable[[int], object] | None = None) -> int:
    """Add `count` generated books (with cover files unless told not to) and return how many were made."""
    indexes = _free_indexes(count)
    made = 0
    tag_ids = _tag_ids()
    with ProcessPoolExecutor(WORKERS, initializer=_start_worker, initargs=(_shelves(), dict(current_app.config))) as pool:
        for batch in _batches(_made_in_order(pool, indexes, with_covers), BATCH_SIZE):
            _insert(batch, tag_ids)
            made += len(batch)
            if progress:
                progress(len(batch))
    demo_kits.seed_kits()
    _give_digital_files()
    stock.open_ledgers()  # each new book's ledger opens with its stock, in one INSERT ... SELECT
    db.session.commit()
    _settle_after_bulk_load()
    return made


def _give_digital_files() -> None:
    """Each demo e-book a one-page PDF and each audiobook a few seconds of silent MP3 in private storage, so a
    digital purchase works end to end (a digital book without its file can't be bought: product §7.11)."""
    while True:
        books = db.session.scalars(select(Book).where(Book.format.in_(DIGITAL_FORMATS), Book.file_key.is_(None))
                                   .order_by(Book.id).limit(500)).all()
        if not books:
            return
        for book in books:
            digital.store_demo_file(book)
        db.session.commit()


def _settle_after_bulk_load() -> None:
    """PostgreSQL: compact the category rows that the count triggers rewrote once per book (100,000
    versions of 18 rows) and the word counts rewritten once per INSERT, and give the planner
    statistics for the new books. Autovacuum would get there in a minute or so; until then lists
    read a bloated table and sort instead of using their indexes (a deep page took 9 ms instead of
    3). SQLite needs neither: its plans do not depend on statistics here, and deleted space is reused."""
    if db.engine.dialect.name != "postgresql":
        return
    db.session.commit()
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("VACUUM FULL categories"))
        connection.execute(text("VACUUM FULL ANALYZE search_word_counts"))
        connection.execute(text("VACUUM ANALYZE books"))


def isbn13(index: int) -> str:
    """The demo ISBN-13 of the book with this serial number (digits only, valid check digit)."""
    body = (index * ISBN_STEP + ISBN_OFFSET) % ISBN_SPACE
    core = ("97881" if body < ISBN_SPACE // 2 else "97893") + f"{body % (ISBN_SPACE // 2):07d}"
    return core + isbn_check_digit(core)


def isbn_check_digit(first12: str) -> str:
    """The ISBN-13 check digit of the first twelve digits (weights 1 and 3)."""
    total = sum(int(digit) * (3 if position % 2 else 1) for position, digit in enumerate(first12))
    return str((10 - total % 10) % 10)


def _shelves() -> list[Shelf]:
    """The category rows in their repeating order: busier shelves appear more often in every 40 books."""
    rows = {c.slug: c for c in db.session.scalars(select(Category))}
    missing = sorted(set(data.SHELVES) - set(rows))
    if missing:
        raise RuntimeError(f"Categories missing (run `flask db upgrade`): {', '.join(missing)}")
    deck = [slug for slug, weight in data.SHELF_WEIGHTS.items() for _ in range(weight)]
    random.Random(SEED).shuffle(deck)
    return [Shelf(rows[slug].id, slug, rows[slug].name, rows[slug].color) for slug in deck]


def _free_indexes(count: int) -> list[int]:
    """Serial numbers of the books to make: after the books already there, skipping taken ISBNs."""
    index = db.session.scalar(select(func.count(Book.id)))
    taken = set(db.session.scalars(select(Book.isbn).where(Book.isbn.is_not(None))))
    indexes = []
    while len(indexes) < count:
        if isbn13(index) not in taken:
            indexes.append(index)
        index += 1
    return indexes


def _book(index: int, isbn: str, shelf: Shelf) -> tuple[dict, cover_art.CoverSpec]:
    """One book's row and cover; everything comes from a generator seeded by its serial number.

    Besides the books table's columns the row carries `exam_tags` (exam and subject slugs) and, for a
    newer edition, `replaces_isbn`; _insert turns them into rows of their own.
    """
    if index % NEWER_EDITION_EVERY == NEWER_EDITION_EVERY - 1 and index >= SHELF_DECK:
        return _newer_edition(index, isbn, shelf)
    rng = random.Random((SEED << 32) + index)
    published = REFERENCE_DATE - timedelta(days=1 + int(rng.random() ** 1.6 * (PUBLISHING_YEARS * 365 - 2)))
    language = _language(rng, shelf.words["hindi"])
    author = _author(rng)
    title, fills = _title(rng, shelf.slug, published, language, author)
    book_format = _weighted(rng, data.FORMATS)
    pages = None if book_format == "Audiobook" else _pages(rng, shelf.words["pages"])
    price = _price(rng, pages or 300, book_format)
    created = _created_at(rng, published)
    dimensions, weight = _physical(rng, shelf.words["trim"], pages, book_format)
    # Log-normal sales: most books sell a few dozen copies, a handful sell thousands.
    copies_sold = int(rng.lognormvariate(3.2, 1.35))
    cover = cover_art.CoverSpec(title, author, shelf.name, shelf.color, rng.getrandbits(32))
    # Its own generator (a text seed hashes the same in every process), so adding these values
    # changed none of the values drawn above.
    extra = random.Random(f"{SEED}-exams-{index}")
    return {
        "title": _shelf_title(index, shelf.slug, title, fills, language),
        "author": author,
        "category_id": shelf.id,
        "price_paise": price * 100,
        "discounted_price_paise": _discount(rng, price),
        "stock": 0 if rng.random() < 0.08 else 1 + int(59 * rng.random() ** 1.3),
        "description": _description(rng, shelf.words, title, fills, language),
        "isbn": isbn,
        "publisher": _publisher(rng, shelf),
        "publication_date": published,
        "language": language,
        "pages": pages,
        "format": book_format,
        "dimensions": dimensions,
        "weight": weight,
        "tags": _tags(shelf.words, title, fills, language),
        "rating": round(min(5.0, max(3.0, rng.gauss(4.15, 0.4))), 1),
        "rating_count": 1 + int(copies_sold * rng.uniform(0.04, 0.15)) + rng.randint(0, 6),
        "copies_sold": copies_sold,
        "cover_key": None,
        "thumbnail_key": None,
        "archived": False,
        "created_at": created,
        "updated_at": created,
        "medium": medium_from_text(language) or "english",
        "edition_year": _edition_year(published),
        "edition_number": _edition_number(extra, title, shelf.words["kind"]),
        "exam_tags": exam_tags.tags(extra, shelf.slug, title, fills),
    }, cover


def _shelf_title(index: int, slug: str, title: str, fills: dict, language: str) -> str:
    """The title on the shelf: Hindi-medium books carry it in Devanagari, bilingual ones in both
    scripts (the English title still gives the description, tags, exams and cover, whose font has
    no Devanagari)."""
    if language == "English":
        return title
    hindi = _hindi_title(random.Random(f"{SEED}-hindi-{index}"), slug, fills, title)
    if hindi is None:
        return title
    return hindi if language == "Hindi" else f"{hindi} / {title}"


def _hindi_title(rng: random.Random, slug: str, fills: dict, english: str) -> str | None:
    """A Hindi title from the subject the English title names and the shelf's frame (data.HINDI_FRAMES);
    None when that subject has no Hindi name in data.HINDI_SUBJECTS."""
    kind = data.SHELVES[slug]["kind"]
    if "period" in fills:
        return f"{data.HINDI_PERIODS[fills['period']]} भारत का इतिहास"
    # A title that names no subject ("SBI PO 2026 Guide") is a guide to its exam.
    named = fills.get("subject") if fills.get("subject", "") in english else None
    subject = data.HINDI_SUBJECTS.get(named) if named else None
    if named and subject is None:
        return None
    exams = (fills["exam"],) if "exam" in fills else data.HINDI_SHELF_EXAMS.get(slug)
    values = {"s": subject, "year": fills["year"], "exam": rng.choice(exams) if exams else None,
              "course": data.HINDI_COURSES.get(slug, ""), "n": None}
    if kind == "school" and "cls" in fills and subject:
        frames = data.HINDI_FRAMES["school"]
        values["n"] = data.ROMAN_CLASSES.index(fills["cls"]) + 1
    elif values["exam"]:
        frames = data.HINDI_FRAMES["exam" if subject else "guide"]
    elif subject:
        frames = data.HINDI_FRAMES["academic" if values["course"] else "general"]
    else:
        return None
    return " ".join(rng.choice(frames).format(**values).split())


def _edition_year(published: date) -> int:
    """Books out after June are sold as next year's edition ("2027 edition"), as exam guides are."""
    return published.year + (1 if published.month > 6 else 0)


def _edition_number(rng: random.Random, title: str, kind: str) -> int | None:
    """The edition the title names ("(5th Edition)"), else a plausible one for guides, none for others."""
    for edition in data.EDITIONS:
        if f"({edition} Edition)" in title and edition[0].isdigit():
            return int(edition.rstrip("ndrsth"))
    return 1 + int(rng.random() ** 2 * 8) if kind != "academic" else None


def _newer_edition(index: int, isbn: str, shelf: Shelf) -> tuple[dict, cover_art.CoverSpec]:
    """The next edition of book index - 40 (same shelf): a year later, the title's years moved on,
    a little dearer, replacing the older one."""
    older, older_cover = _book(index - SHELF_DECK, isbn13(index - SHELF_DECK), shelf)
    rng = random.Random(f"{SEED}-edition-{index}")
    published = min(older["publication_date"] + timedelta(days=rng.randint(300, 400)),
                    REFERENCE_DATE - timedelta(days=1))
    year = max(_edition_year(published), older["edition_year"] + 1)
    title = older["title"].replace(str(older["edition_year"]), str(year))
    created = _created_at(rng, published)
    price = min(1999, older["price_paise"] // 100 + 100)
    return {
        **older,
        "title": title,
        "isbn": isbn,
        "price_paise": price * 100,
        "discounted_price_paise": None,
        "publication_date": published,
        "created_at": created,
        "updated_at": created,
        "copies_sold": older["copies_sold"] // 3,
        "rating_count": max(1, older["rating_count"] // 3),
        "edition_year": year,
        "edition_number": (older["edition_number"] or 1) + 1,
        "replaces_isbn": older["isbn"],
    }, cover_art.CoverSpec(older_cover.title.replace(str(older["edition_year"]), str(year)), older["author"],
                           shelf.name, shelf.color, older_cover.design ^ 1)


def _weighted(rng: random.Random, choices) -> str:
    values, weights = zip(*choices)
    return rng.choices(values, weights)[0]


def _language(rng: random.Random, hindi_share: float) -> str:
    roll = rng.random()
    # Most Hindi-medium study books are Hindi only; about a third are bilingual.
    if roll < hindi_share * 0.7:
        return "Hindi"
    return "English & Hindi" if roll < hindi_share else "English"


def _title(rng: random.Random, slug: str, published: date, language: str, author: str) -> tuple[str, dict]:
    """A title from one of the shelf's patterns, with the values it was filled from."""
    words = data.SHELVES[slug]
    choices, cumulative = _patterns(slug)
    group, pattern = rng.choices(choices, cum_weights=cumulative)[0]
    fills = {name: rng.choice(options) for name, options in group["fills"].items()}
    fills.update(_year_fills(rng, published))
    fills.setdefault("uni", rng.choice(data.UNIVERSITIES))
    fills.setdefault("board", rng.choice(data.BOARDS))
    title = _embellish(rng, pattern.format(**fills), words["kind"], fills, language)
    # Guides are often sold under their author's name ("Sharma's Objective Physics").
    if words["kind"] != "academic" and not title.startswith(("A ", "An ", "The ")) and rng.random() < 0.08:
        title = f"{author.split(' & ')[0].split()[-1]}'s {title}"
    return title, fills


# How many values each shared placeholder takes (see _year_fills), to size each pattern's variety.
_YEAR_VARIETY = {"year": 9, "session": 9, "years": 54, "span": 6, "sets": 7,
                 "uni": len(data.UNIVERSITIES), "board": len(data.BOARDS)}


@lru_cache(maxsize=None)
def _patterns(slug: str) -> tuple[list, list]:
    """A shelf's (group, pattern) pairs with cumulative weights that grow with how many titles each can make.

    Picking patterns uniformly would repeat the narrow ones ("BITSAT {year} Guide") hundreds of
    times in a large catalogue; weighting by the square root of their variety keeps every style
    on the shelf while spreading titles out.
    """
    choices, weights = [], []
    for group in data.SHELVES[slug]["groups"]:
        for pattern in group["patterns"]:
            variety = 1
            for _text, name, _spec, _conversion in string.Formatter().parse(pattern):
                if name:
                    variety *= len(group["fills"][name]) if name in group["fills"] else _YEAR_VARIETY[name]
            choices.append((group, pattern))
            weights.append(variety ** 0.5)
    return choices, list(accumulate(weights))


def _embellish(rng: random.Random, title: str, kind: str, fills: dict, language: str) -> str:
    """Subtitle, medium and edition: how real shelves tell apart books on the same subject."""
    edition_chance = 0.5
    if len(title) < 64 and not any(word in title for word in data.NO_SUBTITLE) and rng.random() < 0.6:
        title += ": " + rng.choice(data.SUBTITLES[kind]).format(**fills)
        edition_chance = 0.15
    if language != "English" and rng.random() < 0.6:
        return title + (" (Hindi Medium)" if language == "Hindi" else " (Bilingual)")
    if not title.endswith(")") and "Edition" not in title and rng.random() < edition_chance:
        return title + f" ({rng.choice(data.EDITIONS)} Edition)"
    return title


def _year_fills(rng: random.Random, published: date) -> dict:
    """Exam years that agree with the publication date: books out after June target next year's exam."""
    year = published.year + (1 if published.month > 6 else 0)
    span = rng.choice((5, 6, 8, 10, 12, 15))
    last = year - 1
    return {"year": year, "session": f"{year - 1}-{year % 100:02d}", "years": f"{last - span + 1}-{last}",
            "span": span, "sets": rng.choice((5, 10, 12, 15, 20, 25, 30)),
            "first_year": last - span + 1, "last_year": last}


def _author(rng: random.Random) -> str:
    name = _person(rng)
    while name in REAL_AUTHORS:
        name = _person(rng)
    if rng.random() < 0.12:
        return f"{name} & {_person(rng)}"
    if rng.random() < 0.12:
        return f"{rng.choice(data.TITLES_OF_ADDRESS)} {name}"
    return name


def _person(rng: random.Random) -> str:
    """An invented name, often with initials in the way Indian textbook covers print them."""
    last = rng.choice(data.LAST_NAMES)
    style = rng.random()
    if style < 0.3:
        return f"{_initial(rng)} {_initial(rng)} {last}"
    if style < 0.45:
        return f"{_initial(rng)} {last}"
    if style < 0.6:
        return f"{rng.choice(data.FIRST_NAMES)} {_initial(rng)} {last}"
    return f"{rng.choice(data.FIRST_NAMES)} {last}"


def _initial(rng: random.Random) -> str:
    return rng.choice(data.FIRST_NAMES)[0] + "."


def _publisher(rng: random.Random, shelf: Shelf) -> str:
    # Each shelf is dominated by a handful of houses, as in a real shop, with the odd outsider.
    if rng.random() < 0.1:
        return rng.choice(data.PUBLISHERS)
    first = sorted(data.SHELVES).index(shelf.slug) * 5
    return data.PUBLISHERS[(first + rng.randrange(7)) % len(data.PUBLISHERS)]


def _pages(rng: random.Random, bounds: tuple[int, int]) -> int:
    # Books are printed in signatures of 8 pages.
    return max(8, round(rng.randint(*bounds) / 8) * 8)


def _price(rng: random.Random, pages: int, book_format: str) -> int:
    """A list price in whole rupees, ₹99 to ₹1,999, ending the way shop prices do (99, 49, 00)."""
    factor = {"Hardcover": 1.45, "E-Book": 0.6, "Audiobook": 0.8}.get(book_format, 1.0)
    hundreds = max(1, min(20, round((60 + pages * rng.uniform(0.55, 1.25)) * factor / 100)))
    ending = _weighted(rng, ((-1, 55), (-51, 25), (0, 20)))
    return min(1999, max(99, hundreds * 100 + ending))


def _discount(rng: random.Random, price: int) -> int | None:
    """About 30% of books are on offer, 5% to 40% off in whole rupees."""
    if rng.random() >= 0.3:
        return None
    percent = rng.choice((5, 10, 12, 15, 20, 25, 30, 35, 40))
    return min(price - 1, price * (100 - percent) // 100) * 100


def _created_at(rng: random.Random, published: date) -> datetime:
    """When the shop listed the book: within two months of publication, before the reference day."""
    listed = min(published + timedelta(days=rng.randint(0, 60)), REFERENCE_DATE - timedelta(days=1))
    start = datetime.combine(listed, time(), tzinfo=timezone.utc)
    return start + timedelta(seconds=rng.randrange(86400))


def _physical(rng: random.Random, trim: str, pages: int | None, book_format: str) -> tuple[str, str]:
    """Dimensions and weight of a printed book (empty for e-books and audiobooks)."""
    if book_format not in ("Paperback", "Hardcover"):
        return "", ""
    hardcover = book_format == "Hardcover"
    height, width = rng.choice(data.TRIM_SIZES[trim])
    thickness = round(pages * rng.uniform(0.0045, 0.0055) + (0.4 if hardcover else 0.1), 1)
    # Leaves of 60 to 80 gsm paper plus a soft or hard cover, rounded as a shop would print it.
    grams = height * width / 10000 * pages / 2 * rng.uniform(60, 80) + (160 if hardcover else 20)
    return f"{height:g} x {width:g} x {thickness:g} cm", f"{round(grams / 5) * 5}g"


def _tags(words: dict, title: str, fills: dict, language: str) -> list[str]:
    tags = list(words["tags"][:2])
    for value in (fills.get("subject"), fills.get("exam")):
        if value and value in title:
            tags.append(value.lower())
    tags += [tag for marker, tag in data.KIND_TAGS if marker in title]
    if language != "English":
        tags.append("hindi medium" if language == "Hindi" else "bilingual")
    return list(dict.fromkeys(tags))[:6]


def _description(rng: random.Random, words: dict, title: str, fills: dict, language: str) -> str:
    """Two to four sentences: who it is for, one or two features, sometimes a closing line."""
    subject = fills["subject"] if fills["subject"] in title else words["topic"]
    values = {**fills, "subject": subject, "audience": rng.choice(words["audiences"]), "language": language,
              "n": rng.choice((40, 50, 60, 75, 100)), "many": rng.choice((200, 300, 500, 800, 1200))}
    features = data.FEATURES + data.EXAM_FEATURES if words["kind"] == "exam" else data.FEATURES
    sentences = [rng.choice(data.INTROS)] + rng.sample(features, rng.randint(1, 2))
    if rng.random() < 0.6:
        sentences.append(rng.choice(data.OUTROS))
    text = " ".join(sentence.format(**values) for sentence in sentences)
    return text[0].upper() + text[1:]


def _made_in_order(pool: ProcessPoolExecutor, indexes: list[int], with_covers: bool) -> Iterator[dict]:
    """The books' rows in serial order, made by the workers a few chunks ahead of the caller."""
    # At least four chunks a worker, so a small catalogue still keeps both workers busy to the end.
    size = max(1, min(MAX_CHUNK, -(-len(indexes) // (4 * WORKERS))))
    chunks = [indexes[i:i + size] for i in range(0, len(indexes), size)]
    in_flight: deque[Future] = deque()
    for chunk in chunks:
        in_flight.append(pool.submit(_make_books, chunk, with_covers))
        if len(in_flight) >= CHUNKS_IN_FLIGHT:
            yield from in_flight.popleft().result()
    while in_flight:
        yield from in_flight.popleft().result()


def _batches(rows: Iterator[dict], size: int) -> Iterator[list[dict]]:
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


# Rows per INSERT statement: PostgreSQL's statement triggers (the words' counts, migration 0009) then
# run once per 400 books rather than once per book, and 400 rows' values stay far below the drivers'
# limits on parameters.
ROWS_PER_STATEMENT = 400


def _tag_ids() -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """Exam ids by slug and subject ids by (exam slug, subject slug), from the migration's reference data."""
    exams = dict(db.session.execute(select(Exam.slug, Exam.id)).all())
    subjects = {(exam, subject): subject_id for exam, subject, subject_id in db.session.execute(
        select(Exam.slug, ExamSubject.slug, ExamSubject.id).join(ExamSubject.exam))}
    return exams, subjects


def _insert(batch: list[dict], tag_ids: tuple[dict, dict]) -> None:
    """Multi-row INSERTs and one commit per batch; the search index follows by database trigger.
    Then the batch's exams and subjects, and the editions its newer editions replace (found by ISBN)."""
    exam_ids, subject_ids = tag_ids
    tags = {row["isbn"]: row.pop("exam_tags", []) for row in batch}
    replaced = {row["isbn"]: row.pop("replaces_isbn") for row in batch if "replaces_isbn" in row}
    try:
        for start in range(0, len(batch), ROWS_PER_STATEMENT):
            db.session.execute(insert(Book.__table__).values(batch[start:start + ROWS_PER_STATEMENT]))
        ids = dict(db.session.execute(select(Book.isbn, Book.id).where(
            Book.isbn.in_(list(tags) + list(replaced.values())))).all())
        exam_rows = [{"exam_id": exam_ids[exam], "book_id": ids[isbn]}
                     for isbn, book_tags in tags.items() for exam, _ in book_tags if exam in exam_ids]
        subject_rows = [{"subject_id": subject_ids[(exam, subject)], "book_id": ids[isbn]}
                        for isbn, book_tags in tags.items() for exam, subjects in book_tags for subject in subjects
                        if (exam, subject) in subject_ids]
        # A subject shared by two exams of one book (JEE Main and Advanced physics) is two subjects.
        for table, rows in ((book_exams, exam_rows), (book_subjects, subject_rows)):
            unique = list({tuple(row.values()): row for row in rows}.values())
            for start in range(0, len(unique), ROWS_PER_STATEMENT * 4):
                db.session.execute(insert(table).values(unique[start:start + ROWS_PER_STATEMENT * 4]))
        for newer, older in replaced.items():
            if older in ids:
                db.session.execute(update(Book).where(Book.id == ids[newer]).values(replaces_id=ids[older]))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise


# Set once in each worker process by _start_worker.
_worker_shelves: list[Shelf] = []


def _start_worker(shelves: list[Shelf], config: dict) -> None:
    """Give a worker the shelves and an app context with the shop's settings.

    storage.put reads where files go from the app's config; a worker gets the whole config, so it
    stores files exactly as the shop would, whichever storage settings that involves.
    """
    _worker_shelves[:] = shelves
    app = Flask(__name__)
    app.config.update(config)
    app.app_context().push()


def _make_books(indexes: list[int], with_covers: bool) -> list[dict]:
    """Worker task: the rows of these books, with their covers drawn and stored as files."""
    rows = []
    for index in indexes:
        row, cover_spec = _book(index, isbn13(index), _worker_shelves[index % len(_worker_shelves)])
        if with_covers:
            cover = cover_art.draw(cover_spec)
            storage.put(cover.key, cover.data)
            storage.put(cover.thumbnail_key, cover.thumbnail_data)
            row["cover_key"], row["thumbnail_key"] = cover.key, cover.thumbnail_key
        rows.append(row)
    return rows
