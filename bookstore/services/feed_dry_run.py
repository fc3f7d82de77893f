"""The dry run of a catalogue or price & stock feed: every row checked as the book form would and classified
against the catalogue (created, updated with the fields that differ, unchanged, refused). Nothing is written.

Rows are read one at a time and looked up in batches of BATCH_ROWS by ISBN, so a 100,000-row file costs
200 look-ups and never sits in memory; what is kept is the ISBNs seen (to refuse a repeated one).
"""
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import islice
from urllib.parse import urlsplit

from marshmallow import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from bookstore import money
from bookstore.errors import PayloadTooLarge, ValidationFailed
from bookstore.extensions import db
from bookstore.feeds import FeedRefused
from bookstore.feeds import values
from bookstore.feeds.columns import LABELS, STOCK_KEYS
from bookstore.feeds.readers import open_feed
from bookstore.models import Book, Category
from bookstore.models.exam import Exam
from bookstore.schemas.book import BookInputSchema, BookUpdateSchema
from bookstore.services import search_synonyms
from bookstore.services.search import tokens

KINDS = ("catalogue", "stock")
BATCH_ROWS = 500
_SCHEMA_LABELS = {**LABELS, "imageUrl": LABELS["coverUrl"], "examIds": LABELS["exams"],
                  "replacesId": LABELS["replacesIsbn"], "_schema": "Row"}
# The schema's field -> the Book attribute it sets, for telling what an update changes.
_COMPARED = {"title": "title", "author": "author", "description": "description", "price_paise": "price_paise",
             "discounted_price_paise": "discounted_price_paise", "stock": "stock", "publisher": "publisher",
             "publication_date": "publication_date", "language": "language", "pages": "pages", "format": "format",
             "dimensions": "dimensions", "weight": "weight", "tags": "tags", "medium": "medium",
             "edition_year": "edition_year", "edition_number": "edition_number"}
_LABEL_OF = {"price_paise": "price", "discounted_price_paise": "discountedPrice", "publication_date": "publicationDate",
             "edition_year": "editionYear", "edition_number": "editionNumber"}


@dataclass
class ReportLine:
    """One line of the report: a row's outcome, or one of its fields and what is wrong with it or changes."""

    row: int
    isbn: str
    outcome: str  # created, updated, unchanged, refused, or ignored (a column the shop does not read)
    field: str
    message: str


@dataclass
class Counts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    refused: int = 0

    @property
    def rows(self) -> int:
        return self.created + self.updated + self.unchanged + self.refused


@dataclass
class _Row:
    number: int
    cells: dict
    isbn: str = ""
    errors: list[tuple[str, str]] = field(default_factory=list)
    payload: dict = field(default_factory=dict)


class _Lookups:
    """The catalogue's categories and exams (by name, short name, slug or a search synonym of one), read once."""

    def __init__(self, session: Session):
        self.categories = {}
        for category in session.scalars(select(Category)):
            self.categories[category.name.lower()] = category
            self.categories[category.slug.lower()] = category
        self.exams: dict[str, int] = {}
        self.exam_names: dict[int, str] = {}
        for exam in session.scalars(select(Exam)):
            self.exam_names[exam.id] = exam.short_name
            for name in (exam.name, exam.short_name, exam.slug):
                self.exams.setdefault(" ".join(tokens(name)), exam.id)
        for group in search_synonyms.groups():
            named = {self.exams[phrase] for phrase in group if phrase in self.exams}
            if len(named) == 1:  # a group naming two exams would make its other phrases ambiguous
                for phrase in group:
                    self.exams.setdefault(phrase, next(iter(named)))

    def exam_id(self, name: str) -> int | None:
        return self.exams.get(" ".join(tokens(name)))


class DryRun:
    """A feed opened for a dry run: iterate `lines()` once; `counts` is complete when it ends.

    :raise FeedRefused: (when built, or while iterating) a file that cannot be read as a feed.
    """

    def __init__(self, stream, kind: str = "catalogue"):
        if kind not in KINDS:
            raise ValueError(f"unknown feed kind {kind!r}")
        self.kind = kind
        self.feed = open_feed(stream)
        self.file_type = self.feed.file_type
        self.counts = Counts()
        self._seen: dict[str, int] = {}
        self._new_schema = BookInputSchema()
        self._update_schema = BookUpdateSchema()

    def lines(self) -> Iterator[ReportLine]:
        """The report, row by row (ignored columns first)."""
        for name in self.feed.unknown_columns:
            yield ReportLine(1, "", "ignored", name, "The shop reads no such column; it is ignored.")
        if self.kind == "stock":
            for key in self.feed.columns:
                if key not in STOCK_KEYS:
                    yield ReportLine(1, "", "ignored", LABELS[key], "A price & stock feed reads only ISBN, price, "
                                                                    "discounted price and stock; it is ignored.")
        with Session(db.engine) as session:
            self._lookups = _Lookups(session)
            rows = iter(self.feed.rows)
            while batch := list(islice(rows, BATCH_ROWS)):
                yield from self._batch(session, [_Row(number, cells) for number, cells in batch])
                session.expunge_all()

    # ------------------------------------------------------------------ one batch

    def _batch(self, session: Session, rows: list[_Row]) -> Iterator[ReportLine]:
        wanted = set()
        for row in rows:
            self._read_isbns(row)
            for isbn in (row.isbn, row.payload.get("replaces_isbn")):
                if isbn:
                    wanted.update(filter(None, (isbn, values.isbn10(isbn))))
        found = {}
        if wanted:
            for book in session.scalars(select(Book).options(selectinload(Book.exams))
                                        .where(Book.isbn.in_(wanted))):
                found[values.isbn13(book.isbn)] = book
        for row in rows:
            yield from self._classify(row, found)

    def _read_isbns(self, row: _Row) -> None:
        """The row's ISBN (refused when missing, wrong or repeated) and the ISBN it replaces."""
        raw = row.cells.get("isbn")
        if raw is None:
            row.errors.append(("isbn", "ISBN is required."))
            return
        try:
            row.isbn = values.isbn13(raw)
        except values.CellError as error:
            row.errors.append(("isbn", str(error)))
            return
        first = self._seen.setdefault(row.isbn, row.number)
        if first != row.number:
            row.errors.append(("isbn", f"ISBN {row.isbn} is already in row {first} of this file."))
        if self.kind == "catalogue" and "replacesIsbn" in row.cells:
            try:
                row.payload["replaces_isbn"] = values.isbn13(row.cells["replacesIsbn"])
            except values.CellError as error:
                row.errors.append(("replacesIsbn", str(error)))

    def _classify(self, row: _Row, found: dict) -> Iterator[ReportLine]:
        book = found.get(row.isbn) if row.isbn else None
        if self.kind == "stock" and row.isbn and book is None and not row.errors:
            row.errors.append(("isbn", "No book in the catalogue has this ISBN; a price & stock feed only "
                                       "changes books the shop has."))
        data = None
        if not row.errors:
            data = self._validated(row, book, found)
        if row.errors:
            self.counts.refused += 1
            for name, message in row.errors:
                yield ReportLine(row.number, row.isbn, "refused", _SCHEMA_LABELS.get(name, name), message)
            return
        if book is None:
            self.counts.created += 1
            yield ReportLine(row.number, row.isbn, "created", "", f"New book: {data['title']}.")
            return
        changes = list(_changes(book, data))
        if not changes:
            self.counts.unchanged += 1
            yield ReportLine(row.number, row.isbn, "unchanged", "", "Nothing to change.")
            return
        self.counts.updated += 1
        for name, message in changes:
            yield ReportLine(row.number, row.isbn, "updated", LABELS[name], message)

    # ------------------------------------------------------------------ checks as the book form makes them

    def _validated(self, row: _Row, book: Book | None, found: dict) -> dict | None:
        payload = self._payload(row, found)
        if row.errors:
            return None
        if book is not None and not payload:
            return {}  # a row carrying nothing but its ISBN changes nothing
        schema = self._new_schema if book is None else self._update_schema
        try:
            data = schema.load(payload)
        except ValidationError as error:
            for name, messages in error.messages.items():
                if name == "imageUrl" and book is None:
                    messages = ["A new book needs a cover URL."]
                message = messages[0] if isinstance(messages, list) else str(messages)
                row.errors.append((name, message if isinstance(message, str) else str(message)))
            return None
        if "category" in data:
            category = self._lookups.categories[data.pop("category").lower()]
            data["category_id"], data["category_name"] = category.id, category.name
        if "exam_ids" in data:
            data["exam_names"] = [self._lookups.exam_names[int(i)] for i in data["exam_ids"]]
        if row.payload.get("replaces_isbn"):
            data["replaces_isbn"] = row.payload["replaces_isbn"]
        if book is not None:
            price = data.get("price_paise", book.price_paise)
            discounted = data.get("discounted_price_paise", book.discounted_price_paise)
            if discounted is not None and discounted >= price:
                row.errors.append(("discountedPrice", "Discounted price must be below the price."))
                return None
        return data

    def _payload(self, row: _Row, found: dict) -> dict:
        """The row's cells as the admin form's JSON; cells that cannot be read become the row's errors."""
        keys = STOCK_KEYS if self.kind == "stock" else tuple(row.cells)
        payload = {}
        for key in keys:
            if key not in row.cells or key == "isbn":
                continue
            value, label = row.cells[key], LABELS[key]
            try:
                if key in ("price", "discountedPrice"):
                    payload[key] = str(values.rupees(value, label))
                elif key in ("stock", "pages", "editionYear", "editionNumber"):
                    payload[key] = values.whole_number(value, label)
                elif key == "publicationDate":
                    payload[key] = values.day(value, label).isoformat()
                elif key == "tags":
                    payload[key] = [tag.strip() for tag in values.text(value).replace(",", ";").split(";")]
                elif key == "exams":
                    payload["examIds"] = self._exam_ids(values.text(value))
                elif key == "category":
                    payload[key] = self._category(values.text(value))
                elif key == "replacesIsbn":
                    payload["replacesId"] = self._replaces(row, found)
                elif key == "coverUrl":
                    payload["imageUrl"] = _cover_url(values.text(value))
                else:
                    payload[key] = values.text(value)
            except values.CellError as error:
                row.errors.append((key, str(error)))
        return {key: value for key, value in payload.items() if value is not None}

    def _exam_ids(self, text: str) -> list[str]:
        ids, unknown = [], []
        for name in filter(None, (part.strip() for part in text.replace(",", ";").split(";"))):
            exam_id = self._lookups.exam_id(name)
            (ids.append(str(exam_id)) if exam_id is not None else unknown.append(name))
        if unknown:
            raise values.CellError("Unknown exam: " + ", ".join(unknown) + " (give its name, short name or a "
                                   "search synonym of one).")
        return list(dict.fromkeys(ids))

    def _category(self, text: str) -> str:
        category = self._lookups.categories.get(text.lower())
        if category is None:
            raise values.CellError(f"Unknown category: {text}.")
        return category.name

    def _replaces(self, row: _Row, found: dict) -> str | None:
        isbn = row.payload.get("replaces_isbn")
        if isbn is None:
            return None
        if isbn == row.isbn:
            raise values.CellError("A book cannot replace itself.")
        book = found.get(isbn)
        if book is not None:
            return str(book.id)
        if isbn in self._seen and self._seen[isbn] < row.number:
            return None  # a book this feed adds in an earlier row
        raise values.CellError(f"No book in the catalogue or earlier in this file has ISBN {isbn}.")


def _cover_url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise values.CellError("Cover URL must be an http or https address.")
    return text


def _shown(name: str, value) -> str:
    if value is None or value == "" or value == []:
        return "(empty)"
    if name in ("price_paise", "discounted_price_paise"):
        return money.rupees_text(value, always_paise=True)
    if isinstance(value, list):
        return "; ".join(str(item) for item in value)
    return str(value)


def _changes(book: Book, data: dict) -> Iterator[tuple[str, str]]:
    """(column key, "old → new") for each field the row carries that differs from the book."""
    for name, attribute in _COMPARED.items():
        if name in data and data[name] != getattr(book, attribute):
            if name == "tags" and list(data[name]) == list(book.tags or []):
                continue
            yield _LABEL_OF.get(name, name), f"{_shown(name, getattr(book, attribute))} → {_shown(name, data[name])}"
    if "category_id" in data and data["category_id"] != book.category_id:
        yield "category", f"{book.category.name} → {data['category_name']}"
    if "exam_ids" in data and {int(i) for i in data["exam_ids"]} != {exam.id for exam in book.exams}:
        yield "exams", "The book's exams change: " + (", ".join(sorted(data["exam_names"])) or "(none)") + "."
    replaces = data.get("replaces_id")
    if data.get("replaces_isbn") and (replaces is None or int(replaces) != book.replaces_id):
        yield "replacesIsbn", f"The book now replaces ISBN {data['replaces_isbn']}."
    if "image_url" in data and not book.cover_key:
        yield "coverUrl", "The book gets a cover from the URL."


def report_dict(line: ReportLine) -> dict:
    """A report line as the API shows it."""
    return asdict(line)


REPORT_HEADER = ["Row", "ISBN", "Outcome", "Field", "Message"]


def report_row(line: ReportLine) -> list:
    """A report line as a row of the CSV report."""
    return [line.row, line.isbn, line.outcome, line.field, line.message]


@dataclass
class Summary:
    """A finished dry run: the file's type, the counts and the report's first lines."""

    file_type: str
    kind: str
    counts: Counts
    lines: list[ReportLine]
    total_lines: int


def _size_checked(stream, max_bytes: int) -> None:
    stream.seek(0, 2)
    size = stream.tell()
    stream.seek(0)
    if size > max_bytes:
        raise PayloadTooLarge(f"The feed is {size:,} bytes; the shop reads feeds of at most {max_bytes:,} bytes.")


def kept_copy(stream):
    """The upload copied to a temporary file of the dry run's own (in memory up to 1 MB), which a streamed
    report reads after the request's own files are closed; it is deleted when closed."""
    copy = tempfile.SpooledTemporaryFile(max_size=1024 * 1024)
    shutil.copyfileobj(stream, copy, 1024 * 1024)
    copy.seek(0)
    return copy


def open_dry_run(stream, kind: str, max_bytes: int) -> DryRun:
    """A dry run of an uploaded (seekable) feed.

    :raise PayloadTooLarge: a file over `max_bytes` (FEED_MAX_BYTES).
    :raise ValidationFailed: a file that cannot be read as a feed.
    """
    _size_checked(stream, max_bytes)
    try:
        return DryRun(stream, kind)
    except FeedRefused as error:
        raise ValidationFailed({"file": [str(error)]}) from None


def summarise(stream, kind: str, max_bytes: int, max_lines: int) -> Summary:
    """Run the whole dry run, keeping the counts and the first `max_lines` lines of the report.

    :raise PayloadTooLarge: a file over `max_bytes`.
    :raise ValidationFailed: a file that cannot be read as a feed (also when found past its first rows).
    """
    run = open_dry_run(stream, kind, max_bytes)
    shown, total = [], 0
    try:
        for line in run.lines():
            total += 1
            if len(shown) < max_lines:
                shown.append(line)
    except FeedRefused as error:
        raise ValidationFailed({"file": [str(error)]}) from None
    return Summary(run.file_type, kind, run.counts, shown, total)


def report_rows(run: DryRun, close=None) -> Iterator[list]:
    """The whole report as CSV rows, then the counts; a file found unreadable part-way ends it with a line saying
    so. `close` (the file read) is closed at the end."""
    try:
        for line in run.lines():
            yield report_row(line)
    except FeedRefused as error:
        yield ["", "", "refused", "file", str(error)]
    finally:
        if close is not None:
            close.close()
    counts = run.counts
    yield ["", "", "total", "", f"{counts.rows} rows: {counts.created} created, {counts.updated} updated, "
                                 f"{counts.unchanged} unchanged, {counts.refused} refused (dry run: nothing changed)."]
