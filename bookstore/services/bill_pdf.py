"""Drawing a bill of supply as a PDF (fpdf2 with the Noto fonts shipped in bookstore/fonts/). Imported only
by `bills.render`, so no process pays for fpdf2 until it draws a bill; the numbering and the figures
are in `bills`."""
from datetime import timezone

from fpdf import FPDF
from fpdf.fonts import FontFace

from bookstore import money
from bookstore.models import Order
from bookstore.services.bills import FONTS, billed_total, is_cancelled, lines_of, rupees_in_words, seller
from bookstore.services.india import IST


def _rupees(paise: int) -> str:
    return money.rupees_text(paise, always_paise=True)


class _Pdf(FPDF):
    def footer(self):
        self.set_y(-15)
        self.set_font("Noto", size=8)
        self.set_text_color(90)
        self.cell(0, 8, "This is a computer-generated bill of supply and needs no signature.", align="C")


# A font per script of India besides Latin, with the code points it covers: a name, an address or a title in
# any of them prints. fpdf2 takes each run of characters the Latin font lacks from the first fallback that has
# them, and HarfBuzz (uharfbuzz) shapes the run: conjuncts, vowel signs, Urdu right to left. Only the scripts
# a bill's text uses are loaded (reading a font costs tens of milliseconds); Devanagari always is.
SCRIPT_FONTS = {
    "NotoDevanagari": ("NotoSansDevanagari-Regular.ttf", ((0x0900, 0x097F), (0xA8E0, 0xA8FF))),
    "NotoBengali": ("NotoSansBengali-Regular.ttf", ((0x0980, 0x09FF),)),
    "NotoGurmukhi": ("NotoSansGurmukhi-Regular.ttf", ((0x0A00, 0x0A7F),)),
    "NotoGujarati": ("NotoSansGujarati-Regular.ttf", ((0x0A80, 0x0AFF),)),
    "NotoOriya": ("NotoSansOriya-Regular.ttf", ((0x0B00, 0x0B7F),)),
    "NotoTamil": ("NotoSansTamil-Regular.ttf", ((0x0B80, 0x0BFF),)),
    "NotoTelugu": ("NotoSansTelugu-Regular.ttf", ((0x0C00, 0x0C7F),)),
    "NotoKannada": ("NotoSansKannada-Regular.ttf", ((0x0C80, 0x0CFF),)),
    "NotoMalayalam": ("NotoSansMalayalam-Regular.ttf", ((0x0D00, 0x0D7F),)),
    "NotoArabic": ("NotoNaskhArabic-Regular.ttf", ((0x0600, 0x06FF), (0x0750, 0x077F), (0xFB50, 0xFDFF),
                                                   (0xFE70, 0xFEFF))),
}


def scripts_in(texts) -> list[str]:
    """The SCRIPT_FONTS families the texts need, Devanagari first and always."""
    points = {ord(char) for text in texts for char in text if ord(char) >= 0x0900 or 0x0600 <= ord(char) < 0x0800}
    return [family for family, (_file, ranges) in SCRIPT_FONTS.items()
            if family == "NotoDevanagari" or any(lo <= point <= hi for point in points for lo, hi in ranges)]


def _new_pdf(texts=()) -> FPDF:
    pdf = _Pdf(format="A4")
    pdf.add_font("Noto", "", str(FONTS / "NotoSans-Regular.ttf"))
    pdf.add_font("Noto", "B", str(FONTS / "NotoSans-Bold.ttf"))
    families = scripts_in(texts)
    for family in families:
        pdf.add_font(family, "", str(FONTS / SCRIPT_FONTS[family][0]))
    pdf.set_fallback_fonts(families, exact_match=False)
    pdf.set_text_shaping(True)
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_page()
    return pdf


def _para(pdf: FPDF, width: float, height: float, text: str, **kwargs) -> None:
    """A wrapped paragraph on its own lines. The font is set again after it: fpdf2 2.8 leaves the
    Devanagari fallback font's glyph map in use after a paragraph that needed it, garbling the next one."""
    family, style, size = pdf.font_family, pdf.font_style, pdf.font_size_pt
    pdf.multi_cell(width, height, text, new_x="LMARGIN", new_y="NEXT", **kwargs)
    pdf.set_font("NotoDevanagari", "", size)  # a change of font, so the next one is not skipped as a repeat
    pdf.set_font(family, style, size)


def _cancellation(order: Order) -> str:
    when = order.cancelled_at or order.updated_at
    when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return (f"Cancelled on {when.astimezone(IST).strftime('%d %b %Y')}: the order was cancelled and its payment of "
            f"{_rupees(order.total_paise)} refunded in full. This bill's number is not given to another.")


def render(order: Order) -> bytes:
    """The bill of supply as a PDF."""
    shop = seller()
    billed_on = order.billed_at if order.billed_at.tzinfo else order.billed_at.replace(tzinfo=timezone.utc)
    pdf = _new_pdf([shop["name"], shop["address"], order.first_name, order.last_name, order.address,
                    order.landmark or "", order.city, order.state or "",
                    *(line.description for line in lines_of(order))])
    width = pdf.epw
    cancelled = is_cancelled(order)
    pdf.set_font("Noto", "B", 16)
    if cancelled:
        pdf.set_text_color(180, 0, 0)
    pdf.cell(width, 9, "Bill of Supply — CANCELLED" if cancelled else "Bill of Supply", new_x="LMARGIN",
             new_y="NEXT", align="C")
    if cancelled:
        pdf.set_font("Noto", "B", 9)
        _para(pdf, width, 4.5, _cancellation(order), align="C")
        pdf.set_text_color(0)
    pdf.set_font("Noto", size=8)
    _para(pdf, width, 4.5, "Printed books are exempt from GST (nil-rated, HSN 4901): a bill of supply, not a "
                   "tax invoice (CGST Act, section 31(3)(c)).", align="C")
    pdf.ln(3)

    top = pdf.get_y()
    half = width / 2 - 3
    pdf.set_font("Noto", "B", 10)
    _para(pdf, half, 5, shop["name"])
    pdf.set_font("Noto", size=9)
    _para(pdf, half, 4.5, shop["address"])
    _para(pdf, half, 4.5, f"GSTIN: {shop['gstin'] or 'not registered'}")
    left_end = pdf.get_y()
    pdf.set_xy(pdf.l_margin + half + 6, top)
    facts = [("Bill No.", order.bill_number), ("Date", billed_on.astimezone(IST).strftime("%d %b %Y")),
             ("Order", order.order_number or order.public_id), ("Place of supply", order.state or "Not given (downloads only)")]
    for label, value in facts:
        pdf.set_x(pdf.l_margin + half + 6)
        pdf.set_font("Noto", "B", 9)
        pdf.cell(28, 5, label)
        pdf.set_font("Noto", size=9)
        pdf.cell(half - 28, 5, str(value), new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(max(left_end, pdf.get_y()) + 4)

    pdf.set_font("Noto", "B", 10)
    pdf.cell(width, 5, "Bill to", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Noto", size=9)
    address = ", ".join(part for part in (order.address, order.landmark, order.city) if part)
    # An order of e-books and audiobooks only has no street (product §7.11): its empty lines are left out.
    region = ", ".join(part for part in (f"{order.state} {order.zip_code}".strip(), order.country) if part)
    for text in (f"{order.first_name} {order.last_name}", address, region, f"Phone {order.phone}"):
        if text:
            _para(pdf, width, 4.5, text)
    if order.buyer_gstin:
        _para(pdf, width, 4.5, f"GSTIN: {order.buyer_gstin}")
    pdf.ln(4)

    widths = (8, width - 8 - 16 - 14 - 34, 16, 14, 34)
    pdf.set_font("Noto", size=9)
    with pdf.table(width=width, col_widths=widths, text_align=("CENTER", "LEFT", "CENTER", "CENTER", "RIGHT"),
                   line_height=5.5, headings_style=FontFace(emphasis="BOLD", fill_color=235)) as table:
        table.row(("#", "Description", "HSN", "Qty", "Value (₹)"))
        for number, line in enumerate(lines_of(order), start=1):
            table.row((str(number), line.description, line.hsn,
                       "" if line.quantity is None else str(line.quantity), _rupees(line.value_paise)[1:]))
    pdf.ln(2)
    pdf.set_font("Noto", "B", 10)
    pdf.cell(width - 34, 6, "Total", align="R")
    pdf.cell(34, 6, _rupees(billed_total(order)), align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Noto", size=9)
    pdf.cell(width - 34, 5, "Tax", align="R")
    pdf.cell(34, 5, "NIL", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    _para(pdf, width, 5, f"Amount in words: {rupees_in_words(billed_total(order))}")
    pdf.set_font("Noto", "B", 10)
    pdf.cell(width, 6, "Tax: NIL", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Noto", size=9)
    method = "paid online" if order.payment_method == "online" else "cash on delivery"
    _para(pdf, width, 4.5, f"Payment: {method}. Books, shipping and fees are one composite supply whose principal "
                   "supply is printed books (HSN 4901, nil-rated).")
    pdf.set_title(f"Bill of supply {order.bill_number}")
    pdf.set_author(shop["name"])
    return bytes(pdf.output())

