"""Catalogue feeds' dry run (POST /api/admin/feeds/dry-run, its CSV report, `flask import-books --dry-run`):
CSV in both encodings, XLSX and ONIX 3.0 read into book rows, checked as the book form would and classified
against the catalogue; every refusal is a report line and nothing is ever written."""
import csv
import io
from datetime import date
from pathlib import Path

import openpyxl
import pytest

from bookstore.extensions import db
from bookstore.models import Book
from tests.factories import count, isbn13

HEADER = ["ISBN", "Title", "Author", "Description", "Price (INR)", "Discounted price (INR)", "Category", "Stock",
          "Publisher", "Publication date", "Language", "Pages", "Format", "Weight", "Medium", "Edition year",
          "Edition number", "Exams", "Replaces ISBN", "Cover URL"]


def new_row(serial: int, **changes) -> dict:
    """A catalogue row for a book the shop does not have, every column valid."""
    row = {"ISBN": isbn13(serial), "Title": f"Feed Book {serial}", "Author": "R. S. Aggarwal",
           "Description": "Practice sets with answers.", "Price (INR)": "₹1,250.00", "Discounted price (INR)": "999",
           "Category": "GATE", "Stock": "12", "Publisher": "Arihant", "Publication date": "31/01/2025",
           "Language": "English", "Pages": "480", "Format": "Paperback", "Weight": "450 g", "Medium": "english",
           "Edition year": "2025", "Edition number": "3", "Exams": "JEE Main", "Replaces ISBN": "",
           "Cover URL": "https://covers.example.in/x.jpg"}
    row.update(changes)
    return row


def csv_bytes(rows, header=HEADER, encoding="utf-8-sig") -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\r\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue().encode(encoding)


def xlsx_bytes(rows, header=HEADER) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(header)
    for row in rows:
        sheet.append([row.get(name) for name in header])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def dry_run(client, admin, content: bytes, name="feed.csv", kind=None, lines=None):
    data = {"file": (io.BytesIO(content), name)}
    if kind:
        data["kind"] = kind
    if lines is not None:
        data["lines"] = str(lines)
    return client.post("/api/admin/feeds/dry-run", data=data, headers=admin, content_type="multipart/form-data")


def reply_of(response) -> dict:
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["success"] is True
    return body


def save_synonyms(client, admin):
    """The shop's synonyms for JEE Main (the tests start with none)."""
    response = client.put("/api/admin/search-synonyms", headers=admin,
                          json={"groups": [["jee main", "jee mains", "iit jee"]]})
    assert response.status_code == 200, response.get_json()


def refusals(body) -> list[tuple[int, str, str]]:
    return [(line["row"], line["field"], line["message"]) for line in body["lines"] if line["outcome"] == "refused"]


def test_a_csv_feed_classifies_rows_against_the_catalogue(client, admin, factories):
    """A UTF-8 CSV (with a BOM, columns in any order and letter case) reports a new book as created, a book
    whose price differs as updated with the change, a book whose carried fields match as unchanged."""
    same = factories.book(title="Same Book", isbn=isbn13(901), price_paise=50000, stock=4)
    changed = factories.book(title="Changed Book", isbn=isbn13(902), price_paise=50000, stock=4)
    header = ["price (inr)", "isbn", "TITLE", "Stock"]
    rows = [{"price (inr)": "500", "isbn": same.isbn, "TITLE": "Same Book", "Stock": "4"},
            {"price (inr)": "₹1,250.50", "isbn": changed.isbn, "TITLE": "Changed Book", "Stock": "4"}]
    before = count(Book)
    body = reply_of(dry_run(client, admin, csv_bytes(rows, header)))
    assert body["fileType"] == "csv" and body["kind"] == "catalogue"
    assert body["counts"] == {"rows": 2, "created": 0, "updated": 1, "unchanged": 1, "refused": 0}
    assert [(line["row"], line["outcome"], line["field"]) for line in body["lines"]] == [
        (2, "unchanged", ""), (3, "updated", "Price (INR)")]
    assert body["lines"][1]["message"] == "₹500.00 → ₹1,250.50"
    created = reply_of(dry_run(client, admin, csv_bytes([new_row(903)])))
    assert created["counts"]["created"] == 1 and created["lines"][0]["isbn"] == isbn13(903)
    assert count(Book) == before
    db.session.expire_all()
    assert db.session.get(Book, changed.id).price_paise == 50000


def test_a_windows_1252_csv_from_excel_is_read(client, admin):
    """A CSV saved by Excel in Windows-1252 (an en dash, é) is detected and read, not refused."""
    row = new_row(911, Title="Godaan – Premchand’s novel", Description="Édition with notes.", **{"Price (INR)": "1,250"})
    body = reply_of(dry_run(client, admin, csv_bytes([row], encoding="cp1252")))
    assert body["counts"]["created"] == 1, body["lines"]
    assert body["lines"][0]["message"] == "New book: Godaan – Premchand’s novel."


def test_an_xlsx_feed_is_read_with_numbers_dates_and_formulas(client, admin):
    """An XLSX sheet's number ISBN, number price, date cell and a =HYPERLINK formula (kept as text) are read."""
    row = new_row(921, Title='=HYPERLINK("http://evil.example","Click")', **{"Price (INR)": 1250.5})
    row["ISBN"] = int(isbn13(921))
    row["Publication date"] = date(2025, 1, 31)
    body = reply_of(dry_run(client, admin, xlsx_bytes([row]), name="feed.xlsx"))
    assert body["fileType"] == "xlsx"
    assert body["counts"]["created"] == 1, body["lines"]
    assert body["lines"][0]["message"] == 'New book: =HYPERLINK("http://evil.example","Click").'


ONIX = """<?xml version="1.0" encoding="UTF-8"?>
<ONIXMessage release="3.0" xmlns="http://ns.editeur.org/onix/3.0/reference">
  <Header><Sender><SenderName>Test Publisher</SenderName></Sender><SentDateTime>20251101</SentDateTime></Header>
  {products}
</ONIXMessage>"""
PRODUCT = """<Product>
    <RecordReference>in.example.{isbn}</RecordReference><NotificationType>03</NotificationType>
    <ProductIdentifier><ProductIDType>15</ProductIDType><IDValue>{isbn}</IDValue></ProductIdentifier>
    <DescriptiveDetail>
      <ProductComposition>00</ProductComposition><ProductForm>{form}</ProductForm>
      <Measure><MeasureType>01</MeasureType><Measurement>240</Measurement><MeasureUnitCode>mm</MeasureUnitCode></Measure>
      <Measure><MeasureType>02</MeasureType><Measurement>170</Measurement><MeasureUnitCode>mm</MeasureUnitCode></Measure>
      <Measure><MeasureType>08</MeasureType><Measurement>450</Measurement><MeasureUnitCode>gr</MeasureUnitCode></Measure>
      <TitleDetail><TitleType>01</TitleType><TitleElement><TitleElementLevel>01</TitleElementLevel>
        <TitleText>{title}</TitleText><Subtitle>Solved Papers</Subtitle></TitleElement></TitleDetail>
      <Contributor><SequenceNumber>1</SequenceNumber><ContributorRole>A01</ContributorRole>
        <PersonName>H. C. Verma</PersonName></Contributor>
      <Language><LanguageRole>01</LanguageRole><LanguageCode>eng</LanguageCode></Language>
      <Language><LanguageRole>01</LanguageRole><LanguageCode>hin</LanguageCode></Language>
      <Extent><ExtentType>00</ExtentType><ExtentValue>512</ExtentValue><ExtentUnit>03</ExtentUnit></Extent>
      <Subject><SubjectSchemeIdentifier>24</SubjectSchemeIdentifier><SubjectSchemeName>Shop category</SubjectSchemeName>
        <SubjectHeadingText>I.I.T</SubjectHeadingText></Subject>
      <Subject><SubjectSchemeIdentifier>20</SubjectSchemeIdentifier><SubjectHeadingText>iit jee</SubjectHeadingText></Subject>
    </DescriptiveDetail>
    <CollateralDetail>
      <TextContent><TextType>03</TextType><ContentAudience>00</ContentAudience>
        <Text textformat="05">Concepts &lt;b&gt;and&lt;/b&gt; 40 years of papers.</Text></TextContent>
      <SupportingResource><ResourceContentType>01</ResourceContentType><ContentAudience>00</ContentAudience>
        <ResourceMode>03</ResourceMode><ResourceVersion><ResourceForm>02</ResourceForm>
        <ResourceLink>https://covers.example.in/{isbn}.jpg</ResourceLink></ResourceVersion></SupportingResource>
    </CollateralDetail>
    <PublishingDetail><Publisher><PublishingRole>01</PublishingRole><PublisherName>Bharati Bhawan</PublisherName></Publisher>
      <PublishingDate><PublishingDateRole>01</PublishingDateRole><Date>20250115</Date></PublishingDate></PublishingDetail>
    <ProductSupply><SupplyDetail>
      <Supplier><SupplierRole>01</SupplierRole><SupplierName>Bharati Bhawan</SupplierName></Supplier>
      <ProductAvailability>21</ProductAvailability><Stock><OnHand>25</OnHand></Stock>
      <Price><PriceType>02</PriceType><PriceAmount>650.00</PriceAmount><CurrencyCode>INR</CurrencyCode></Price>
      <Price><PriceType>02</PriceType><PriceAmount>575.00</PriceAmount><CurrencyCode>INR</CurrencyCode>
        <PriceDate><PriceDateRole>14</PriceDateRole><Date>20251101</Date></PriceDate></Price>
    </SupplyDetail></ProductSupply>
  </Product>"""
SHORT_PRODUCT = """<product><a001>in.example.{isbn}</a001><a002>03</a002>
    <productidentifier><b221>15</b221><b244>{isbn}</b244></productidentifier>
    <descriptivedetail><x314>00</x314><b012>{form}</b012>
      <titledetail><b202>01</b202><titleelement><x409>01</x409><b203>{title}</b203></titleelement></titledetail>
      <contributor><b034>1</b034><b035>A01</b035><b036>R. D. Sharma</b036></contributor>
      <language><b253>01</b253><b252>hin</b252></language>
      <subject><b067>24</b067><b070>GATE</b070></subject>
    </descriptivedetail>
    <collateraldetail><textcontent><x426>03</x426><x427>00</x427><d104>Hindi medium practice book.</d104></textcontent>
      <supportingresource><x436>01</x436><x427>00</x427><x437>03</x437><resourceversion><x441>02</x441>
        <x435>https://covers.example.in/{isbn}.jpg</x435></resourceversion></supportingresource></collateraldetail>
    <productsupply><supplydetail><supplier><j292>01</j292><j137>Arihant</j137></supplier><j396>40</j396>
      <price><x462>02</x462><j151>320</j151><j152>INR</j152></price></supplydetail></productsupply>
  </product>"""


def onix(*products, short=False) -> bytes:
    if short:
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<ONIXmessage release="3.0" '
                'xmlns="http://ns.editeur.org/onix/3.0/short"><header><x298>Test</x298></header>'
                + "".join(products) + "</ONIXmessage>").encode()
    return ONIX.format(products="".join(products)).encode()


def test_an_onix_reference_feed_maps_to_book_fields(client, admin, factories):
    """An ONIX 3.0 reference-tag product becomes a book row: ISBN, title and subtitle, author, category from a
    proprietary subject, keywords to exams by synonym, prices, stock; a known product differing in price is updated."""
    known = factories.book(title="Concepts of Physics: Solved Papers", isbn=isbn13(932), price_paise=60000,
                           discounted_price_paise=None, stock=25)
    save_synonyms(client, admin)
    content = onix(PRODUCT.format(isbn=isbn13(931), form="BC", title="Concepts of Physics"),
                   PRODUCT.format(isbn=isbn13(932), form="BB", title="Concepts of Physics"))
    body = reply_of(dry_run(client, admin, content, name="feed.xml"))
    assert body["fileType"] == "onix"
    assert body["counts"] == {"rows": 2, "created": 1, "updated": 1, "unchanged": 0, "refused": 0}, body["lines"]
    assert body["lines"][0] == {"row": 1, "isbn": isbn13(931), "outcome": "created", "field": "",
                                "message": "New book: Concepts of Physics: Solved Papers."}
    updates = {line["field"]: line["message"] for line in body["lines"][1:]}
    assert updates["Price (INR)"] == "₹600.00 → ₹650.00"
    assert updates["Discounted price (INR)"] == "(empty) → ₹575.00"
    assert updates["Format"] == "Paperback → Hardcover"
    assert updates["Category"] == "GATE → I.I.T"
    assert updates["Medium"] == "english → bilingual"
    assert "JEE Main" in updates["Exams"]
    assert "Stock" not in updates and "Title" not in updates
    db.session.expire_all()
    assert db.session.get(Book, known.id).price_paise == 60000 and count(Book) == 1


def test_an_onix_short_tag_feed_is_read(client, admin):
    """Short tags read like reference tags; a product not available (40) without stock on hand has stock 0."""
    body = reply_of(dry_run(client, admin, onix(SHORT_PRODUCT.format(isbn=isbn13(941), form="BC", title="Maths"),
                                                short=True), name="feed.xml"))
    # No weight in the product: the book form requires one, so the new book is refused for it.
    assert body["counts"]["refused"] == 1
    assert refusals(body) == [(1, "Weight", "Weight is required")]


@pytest.mark.parametrize("content, message", [
    (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
     b"<ONIXMessage><Product/></ONIXMessage>", "DOCTYPE"),
    (b'<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://127.0.0.1/evil.dtd"><ONIXMessage/>', "DOCTYPE"),
    (b"<ONIXMessage><Product>&xxe;</Product></ONIXMessage>", "not well formed"),
    (b'<?xml version="1.0"?><!--' + b"x" * 70_000 + b'--><!DOCTYPE ONIXMessage [<!ENTITY a "aaaa">]>'
     b"<ONIXMessage><Product>&a;</Product></ONIXMessage>", "DOCTYPE"),
    (b"<rss><channel/></rss>", "not an ONIX 3.0 message"),
    (b"", "empty"),
    (b"Title,Author\r\nA,B\r\n", "ISBN column"),
    (b"PK\x03\x04 not really a workbook", "workbook cannot be read"),
])
def test_unreadable_files_are_refused_whole(client, admin, content, message):
    """XML with a DOCTYPE or entities, XML that is not ONIX, an empty file, a CSV without an ISBN column and a
    broken workbook are refused with 422 and a sentence saying why."""
    response = dry_run(client, admin, content)
    assert response.status_code == 422
    body = response.get_json()
    assert body["success"] is False and message in body["errors"]["file"][0]


@pytest.mark.parametrize("changes, field, message", [
    ({"ISBN": "978-93-0000-951-0"}, "ISBN", "check digit is wrong"),
    ({"ISBN": "12345"}, "ISBN", "10 or 13 digits"),
    ({"ISBN": ""}, "ISBN", "ISBN is required."),
    ({"Price (INR)": "-500"}, "Price (INR)", "must not be negative"),
    ({"Price (INR)": "five hundred"}, "Price (INR)", "like ₹1,250.00"),
    ({"Price (INR)": "12,50,00"}, "Price (INR)", "like ₹1,250.00"),
    ({"Discounted price (INR)": "1300"}, "Discounted price (INR)", "below the price"),
    ({"Publication date": "01-31-2025"}, "Publication date", "like 31/01/2025"),
    ({"Publication date": "31/02/2025"}, "Publication date", "not a day of the calendar"),
    ({"Category": "Cookery"}, "Category", "Unknown category: Cookery."),
    ({"Exams": "JEE Main; Astrology Olympiad"}, "Exams", "Unknown exam: Astrology Olympiad"),
    ({"Stock": "12.5"}, "Stock", "whole number"),
    ({"Format": "Scroll"}, "Format", "Format must be one of"),
    ({"Medium": "tamil"}, "Medium", "Medium must be one of"),
    ({"Title": ""}, "Title", "Book title is required"),
    ({"Cover URL": ""}, "Cover URL", "A new book needs a cover URL."),
    ({"Cover URL": "file:///etc/passwd"}, "Cover URL", "http or https"),
    ({"Replaces ISBN": isbn13(959)}, "Replaces ISBN", "No book in the catalogue"),
])
def test_each_bad_cell_is_a_refused_row(client, admin, changes, field, message):
    """A row with a bad cell is refused with a report line naming its row, ISBN, field and why; the other rows of
    the file are still checked, and nothing is written."""
    rows = [new_row(950, **changes), new_row(952)]
    body = reply_of(dry_run(client, admin, csv_bytes(rows)))
    assert body["counts"]["refused"] == 1 and body["counts"]["created"] == 1, body["lines"]
    [(row, got_field, got)] = refusals(body)
    assert (row, got_field) == (2, field) and message in got
    assert count(Book) == 0


def test_a_repeated_isbn_and_an_isbn_10_are_caught(client, admin):
    """An ISBN-10 is converted to its ISBN-13, so the same book given as ISBN-13 later in the file is refused as
    a repeat naming the first row."""
    thirteen = "9780306406157"
    rows = [new_row(961, ISBN="0-306-40615-2"), new_row(962, ISBN=thirteen)]
    body = reply_of(dry_run(client, admin, csv_bytes(rows)))
    assert body["lines"][0]["isbn"] == thirteen and body["lines"][0]["outcome"] == "created"
    assert refusals(body) == [(3, "ISBN", f"ISBN {thirteen} is already in row 2 of this file.")]


def test_a_book_replaces_one_added_earlier_in_the_same_file(client, admin, factories):
    """Replaces ISBN may name a book of the catalogue (stored as ISBN-10 too) or one created in an earlier row."""
    old = factories.book(isbn="0306406152")
    rows = [new_row(971, **{"Replaces ISBN": "9780306406157"}), new_row(972, **{"Replaces ISBN": isbn13(971)})]
    body = reply_of(dry_run(client, admin, csv_bytes(rows)))
    assert body["counts"]["created"] == 2 and body["counts"]["refused"] == 0, body["lines"]
    assert old.isbn == "0306406152"


def test_an_existing_book_under_its_isbn_10_is_updated_not_created(client, admin, factories):
    """A book stored under an ISBN-10 is found by the feed's ISBN-13."""
    factories.book(isbn="0306406152", title="Old Title")
    body = reply_of(dry_run(client, admin, csv_bytes([{"ISBN": "9780306406157", "Title": "New Title"}])))
    assert body["counts"]["updated"] == 1
    assert body["lines"][0]["message"] == "Old Title → New Title"


def test_exams_by_name_short_name_or_synonym(client, admin, factories):
    """Exams are found by name, short name or a search synonym; the same exams as the book has is unchanged."""
    from bookstore.models.exam import Exam
    jee = db.session.scalar(db.select(Exam).where(Exam.slug == "jee-main"))
    neet = db.session.scalar(db.select(Exam).where(Exam.slug == "neet-ug"))
    book = factories.book(isbn=isbn13(981))
    book.exams = [jee, neet]
    db.session.commit()
    save_synonyms(client, admin)
    for text in ("JEE Main; NEET-UG", "jee mains, neet", "iit jee; NEET"):
        body = reply_of(dry_run(client, admin, csv_bytes([{"ISBN": isbn13(981), "Exams": text}])))
        assert body["counts"]["unchanged"] == 1, (text, body["lines"])


def test_a_price_and_stock_feed_reads_only_its_columns(client, admin, factories):
    """A stock feed changes price, discounted price and stock of known books only; other columns are ignored,
    an unknown ISBN is refused, and a discount not below the book's price is refused."""
    book = factories.book(isbn=isbn13(991), price_paise=50000, stock=3, title="Kept Title")
    other = factories.book(isbn=isbn13(992), price_paise=50000, stock=3)
    header = ["ISBN", "Price", "Discounted price", "Stock", "Title", "Supplier code"]
    rows = [{"ISBN": book.isbn, "Price": "500", "Stock": "40", "Title": "Changed"},
            {"ISBN": other.isbn, "Discounted price": "₹600"},
            {"ISBN": isbn13(993), "Stock": "5"}]
    body = reply_of(dry_run(client, admin, csv_bytes(rows, header), kind="stock"))
    assert body["counts"] == {"rows": 3, "created": 0, "updated": 1, "unchanged": 0, "refused": 2}, body["lines"]
    assert body["lines"][:2] == [
        {"row": 1, "isbn": "", "outcome": "ignored", "field": "Supplier code",
         "message": "The shop reads no such column; it is ignored."},
        {"row": 1, "isbn": "", "outcome": "ignored", "field": "Title",
         "message": "A price & stock feed reads only ISBN, price, discounted price and stock; it is ignored."}]
    assert [(line["field"], line["message"]) for line in body["lines"] if line["outcome"] == "updated"] == [
        ("Stock", "3 → 40")]
    assert refusals(body) == [
        (3, "Discounted price (INR)", "Discounted price must be below the price."),
        (4, "ISBN", "No book in the catalogue has this ISBN; a price & stock feed only changes books the shop has.")]
    db.session.expire_all()
    assert db.session.get(Book, book.id).stock == 3


def test_the_report_is_downloadable_as_csv(client, admin):
    """The whole report comes as CSV (every line, then the counts), while the JSON reply holds the first N lines."""
    rows = [new_row(1000 + n) for n in range(5)] + [new_row(1010, Category="Cookery")]
    body = reply_of(dry_run(client, admin, csv_bytes(rows), lines=2))
    assert body["totalLines"] == 6 and len(body["lines"]) == 2
    response = client.post("/api/admin/feeds/dry-run/report.csv", headers=admin, content_type="multipart/form-data",
                           data={"file": (io.BytesIO(csv_bytes(rows)), "feed.csv")})
    assert response.status_code == 200 and response.mimetype == "text/csv"
    report = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert report[0] == ["Row", "ISBN", "Outcome", "Field", "Message"]
    assert [line[2] for line in report[1:]] == ["created"] * 5 + ["refused", "total"]
    assert report[6][3:] == ["Category", "Unknown category: Cookery."]
    assert report[7][4].startswith("6 rows: 5 created, 0 updated, 0 unchanged, 1 refused")


def test_a_workbook_that_unpacks_too_far_is_refused(client, admin, monkeypatch):
    """An XLSX (a ZIP) whose parts unpack past the limit is refused before openpyxl inflates it (ZIP bombs)."""
    import zipfile

    from bookstore.feeds import readers
    content = io.BytesIO(xlsx_bytes([new_row(1050)]))
    with zipfile.ZipFile(content, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/padding.bin", b"\0" * 200_000)
    assert len(content.getvalue()) < 30_000
    monkeypatch.setattr(readers, "XLSX_MAX_UNPACKED_BYTES", 100_000)
    response = dry_run(client, admin, content.getvalue(), name="bomb.xlsx")
    assert response.status_code == 422 and "unpacks to more than" in response.get_json()["message"]
    monkeypatch.setattr(readers, "XLSX_MAX_UNPACKED_BYTES", 1_000_000)
    assert reply_of(dry_run(client, admin, content.getvalue(), name="bomb.xlsx"))["counts"]["created"] == 1


def test_a_file_over_the_limit_is_413(client, admin, app, monkeypatch):
    """A feed over FEED_MAX_BYTES is refused with 413 before it is read."""
    monkeypatch.setitem(app.config, "FEED_MAX_BYTES", 2000)
    content = csv_bytes([new_row(1100 + n) for n in range(20)])
    response = dry_run(client, admin, content)
    assert response.status_code == 413 and response.get_json()["success"] is False
    small = csv_bytes([new_row(1130)])
    padded = small + b"\r\n" * (2000 - len(small) + 1)
    response = dry_run(client, admin, padded)
    assert response.status_code == 413 and "at most 2,000 bytes" in response.get_json()["message"]


def test_the_form_is_checked(client, admin):
    """No file, or an unknown kind, is 422."""
    response = client.post("/api/admin/feeds/dry-run", data={"kind": "catalogue"}, headers=admin,
                           content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose the feed's file" in response.get_json()["message"]
    response = dry_run(client, admin, csv_bytes([new_row(1200)]), kind="everything")
    assert response.status_code == 422 and "catalogue or stock" in response.get_json()["message"]


def test_the_dry_run_is_for_administrators(client, auth):
    """A shopper gets 403 and a stranger 401."""
    data = {"file": (io.BytesIO(csv_bytes([new_row(1300)])), "feed.csv")}
    assert client.post("/api/admin/feeds/dry-run", data=dict(data), content_type="multipart/form-data").status_code == 401
    data = {"file": (io.BytesIO(csv_bytes([new_row(1300)])), "feed.csv")}
    response = client.post("/api/admin/feeds/dry-run", data=data, headers=auth.customer(),
                           content_type="multipart/form-data")
    assert response.status_code == 403


def test_the_cli_twin_prints_the_report_and_counts(runner, factories, tmp_path):
    """`flask import-books FILE --dry-run` prints report lines and counts, writes the CSV report, changes nothing;
    without --dry-run it says applying is not built yet."""
    factories.book(isbn=isbn13(1401), title="Old Title")
    path = tmp_path / "feed.csv"
    path.write_bytes(csv_bytes([{"ISBN": isbn13(1401), "Title": "New Title"}, new_row(1402, Category="Cookery")]))
    report = tmp_path / "report.csv"
    result = runner.invoke(args=["import-books", str(path), "--dry-run", "--report", str(report)])
    assert result.exit_code == 0, result.output
    assert f"row 2  {isbn13(1401)}  updated  Title: Old Title → New Title" in result.output
    assert f"row 3  {isbn13(1402)}  refused  Category: Unknown category: Cookery." in result.output
    assert "CSV catalogue feed, dry run: 2 rows, 0 created, 1 updated, 0 unchanged, 1 refused." in result.output
    assert report.read_text(encoding="utf-8-sig").splitlines()[0] == "Row,ISBN,Outcome,Field,Message"
    stock = runner.invoke(args=["import-books", str(path), "--dry-run", "--kind", "stock"])
    assert stock.exit_code == 0 and "1 unchanged, 1 refused" in stock.output, stock.output
    refused = runner.invoke(args=["import-books", str(path)])
    assert refused.exit_code == 2 and "not built yet" in refused.output
    runner.app.config["FEED_MAX_BYTES"], limit = 100, runner.app.config["FEED_MAX_BYTES"]
    try:
        too_large = runner.invoke(args=["import-books", str(path), "--dry-run"])
    finally:
        runner.app.config["FEED_MAX_BYTES"] = limit
    assert too_large.exit_code == 1 and "at most 100 bytes" in too_large.output
    assert db.session.scalar(db.select(Book.title)) == "Old Title" and count(Book) == 1


@pytest.mark.parametrize("name, file_type, rows", [("catalogue.csv", "csv", 3), ("catalogue.xlsx", "xlsx", 3),
                                                   ("onix-3.0-sample.xml", "onix", 2)])
def test_the_documented_samples_read_cleanly(client, admin, name, file_type, rows):
    """The sample feeds in docs/feeds/ create every book they describe, none refused."""
    save_synonyms(client, admin)
    content = (Path(__file__).resolve().parents[2] / "docs" / "feeds" / name).read_bytes()
    body = reply_of(dry_run(client, admin, content, name=name))
    assert body["fileType"] == file_type
    assert body["counts"] == {"rows": rows, "created": rows, "updated": 0, "unchanged": 0, "refused": 0}, body["lines"]
