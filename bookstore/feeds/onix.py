"""ONIX for Books 3.0 products as rows of book fields, in reference or short tags, one product at a time.

What is read (the shop's columns in brackets): ISBN-13 (ProductIDType 15; 03 GTIN-13 too), the distinctive
title and subtitle, A01 authors, publisher, publishing date (role 01), language (role 01: eng -> English,
hin -> Hindi, both -> English & Hindi) and the medium it names, the main content page count (extent 00 or 11 in
pages), product form (BB -> Hardcover, other B* -> Paperback, E*/DG -> E-Book, A* downloads -> Audiobook),
height x width x thickness and weight, the main description (text type 03, or 02), the front cover's link,
keywords (subject scheme 20) as exams, a proprietary subject (scheme 24) as the shop's category, the INR price
without a price date (the list price) and an INR price with one (a promotion: the discounted price), and the
stock on hand (or 0 when the product is not available).
"""
from collections.abc import Iterator

from lxml import etree

from bookstore.feeds import FeedRefused
from bookstore.models.book import medium_from_text

# Short tag -> reference name (lower case), for the elements read here.
_SHORT = {
    "onixmessage": "onixmessage", "b221": "productidtype", "b244": "idvalue", "b012": "productform",
    "b202": "titletype", "b203": "titletext", "b029": "subtitle", "b035": "contributorrole", "b036": "personname",
    "b037": "personnameinverted", "b253": "languagerole", "b252": "languagecode", "b218": "extenttype",
    "b219": "extentvalue", "b220": "extentunit", "x315": "measuretype", "c094": "measurement",
    "c095": "measureunitcode", "b067": "subjectschemeidentifier", "b070": "subjectheadingtext",
    "x426": "texttype", "d104": "text", "x436": "resourcecontenttype", "x435": "resourcelink",
    "b081": "publishername", "x448": "publishingdaterole", "b306": "date", "j396": "productavailability",
    "j350": "onhand", "x462": "pricetype", "j151": "priceamount", "j152": "currencycode", "b049": "titlestatement",
}
_LANGUAGES = {"eng": "English", "hin": "Hindi"}
# Availability codes that mean the product can be supplied (ONIX list 65).
_AVAILABLE = {"20", "21", "22", "23"}


def _name(element) -> str:
    local = etree.QName(element).localname.lower()
    return _SHORT.get(local, local)


class _Node:
    """A product's element tree with reference names, for short look-ups."""

    def __init__(self, element):
        self.element = element

    def all(self, path: str) -> list["_Node"]:
        found = [self]
        for step in path.split("/"):
            found = [_Node(child) for node in found for child in node.element
                     if isinstance(child.tag, str) and _name(child) == step]
        return found

    def first(self, path: str) -> "_Node | None":
        found = self.all(path)
        return found[0] if found else None

    def text(self, path: str = "") -> str:
        node = self.first(path) if path else self
        return "".join(node.element.itertext()).strip() if node is not None else ""


def _isbn(product: _Node) -> str:
    identifiers = {node.text("productidtype"): node.text("idvalue") for node in product.all("productidentifier")}
    return identifiers.get("15") or identifiers.get("03") or identifiers.get("02") or ""


def _title(detail: _Node) -> str:
    for title in detail.all("titledetail"):
        if title.text("titletype") in ("01", ""):
            element = title.first("titleelement")
            if element is None:
                continue
            text = element.text("titletext") or " ".join(
                filter(None, (element.text("titleprefix"), element.text("titlewithoutprefix"))))
            subtitle = element.text("subtitle")
            return f"{text}: {subtitle}" if subtitle else text
    return ""


def _authors(detail: _Node) -> str:
    names = []
    for contributor in detail.all("contributor"):
        if "A01" in [node.text() for node in contributor.all("contributorrole")]:
            names.append(contributor.text("personname") or contributor.text("corporatename")
                         or contributor.text("personnameinverted"))
    return ", ".join(filter(None, names))


def _language(detail: _Node) -> str:
    codes = [node.text("languagecode").lower() for node in detail.all("language")
             if node.text("languagerole") in ("01", "")]
    names = [_LANGUAGES.get(code, code) for code in dict.fromkeys(codes)]
    if set(names) == {"English", "Hindi"}:
        return "English & Hindi"
    return names[0] if names else ""


def _pages(detail: _Node) -> str:
    for extent in detail.all("extent"):
        if extent.text("extenttype") in ("00", "11") and extent.text("extentunit") in ("03", ""):
            return extent.text("extentvalue")
    return ""


def _format(detail: _Node) -> str:
    form = detail.text("productform").upper()
    if form.startswith("E") or form == "DG":
        return "E-Book"
    if form.startswith("A") and form in ("AJ", "AN", "AZ", "AE"):
        return "Audiobook"
    if form == "BB":
        return "Hardcover"
    return "Paperback" if form.startswith("B") else ""


def _measures(detail: _Node) -> tuple[str, str]:
    sizes, weight = {}, ""
    for measure in detail.all("measure"):
        kind, value, unit = measure.text("measuretype"), measure.text("measurement"), measure.text("measureunitcode")
        if kind in ("01", "02", "03"):
            sizes[kind] = (value, unit)
        elif kind == "08":
            weight = f"{value} {'g' if unit == 'gr' else unit}"
    dimensions = ""
    if sizes:
        unit = next(iter(sizes.values()))[1]
        dimensions = " x ".join(sizes[kind][0] for kind in ("01", "02", "03") if kind in sizes) + f" {unit}"
    return dimensions, weight


def _subjects(detail: _Node, scheme: str) -> list[str]:
    return [node.text("subjectheadingtext") for node in detail.all("subject")
            if node.text("subjectschemeidentifier") == scheme and node.text("subjectheadingtext")]


def _description(product: _Node) -> str:
    texts = {node.text("texttype"): node.text("text") for node in product.all("collateraldetail/textcontent")}
    return texts.get("03") or texts.get("02") or ""


def _cover(product: _Node) -> str:
    for resource in product.all("collateraldetail/supportingresource"):
        if resource.text("resourcecontenttype") == "01":
            for version in resource.all("resourceversion"):
                link = version.text("resourcelink")
                if link:
                    return link
    return ""


def _publishing(product: _Node) -> tuple[str, str]:
    detail = product.first("publishingdetail")
    if detail is None:
        return "", ""
    publisher = detail.text("publisher/publishername")
    day = ""
    for node in detail.all("publishingdate"):
        if node.text("publishingdaterole") in ("01", ""):
            day = node.text("date")
    return publisher, day


def _supply(product: _Node) -> tuple[str, str, str]:
    price = discounted = stock = ""
    for supply in product.all("productsupply/supplydetail"):
        for node in supply.all("price"):
            if node.text("currencycode").upper() != "INR":
                continue
            if node.first("pricedate") is not None:
                discounted = discounted or node.text("priceamount")
            else:
                price = price or node.text("priceamount")
        on_hand = supply.text("stock/onhand")
        if on_hand:
            stock = on_hand
        elif supply.text("productavailability") and supply.text("productavailability") not in _AVAILABLE:
            stock = stock or "0"
    return price, discounted, stock


def product_row(element) -> dict:
    """One Product element as the columns a CSV row would carry (empty ones left out)."""
    product = _Node(element)
    detail = product.first("descriptivedetail") or _Node(etree.Element("empty"))
    dimensions, weight = _measures(detail)
    publisher, day = _publishing(product)
    price, discounted, stock = _supply(product)
    language = _language(detail)
    row = {
        "isbn": _isbn(product), "title": _title(detail), "author": _authors(detail),
        "description": _description(product),
        "price": price, "discountedPrice": discounted, "stock": stock, "publisher": publisher,
        "publicationDate": day, "language": language, "pages": _pages(detail), "format": _format(detail),
        "dimensions": dimensions, "weight": weight, "exams": "; ".join(_subjects(detail, "20")),
        "category": (_subjects(detail, "24") or [""])[0], "coverUrl": _cover(product),
        "medium": medium_from_text(language) or "",
    }
    return {key: value for key, value in row.items() if value}


class ProductReader:
    """Walks iterparse events, yielding each Product as a row and freeing it before the next."""

    def __init__(self, events):
        self.events = events

    def rows(self) -> Iterator[tuple[int, dict]]:
        number = 0
        try:
            for event, element in self.events:
                name = _name(element)
                if number == 0 and event == "start" and element.getparent() is None:
                    if element.getroottree().docinfo.doctype:  # one hidden behind a long prolog
                        raise FeedRefused("XML with a DOCTYPE or entities is refused; ONIX 3.0 needs neither.")
                    if name != "onixmessage":
                        raise FeedRefused("The XML is not an ONIX 3.0 message (its root must be ONIXMessage).")
                if event == "end" and name == "product":
                    number += 1
                    yield number, product_row(element)
                    element.clear()
                    parent = element.getparent()
                    while parent is not None and element.getprevious() is not None:
                        del parent[0]
        except etree.XMLSyntaxError as error:
            raise FeedRefused(f"The XML is not well formed: {error.msg}.") from None
