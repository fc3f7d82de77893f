"""Write docs/feeds/catalogue.xlsx: the CSV sample's rows as an Excel sheet (number ISBN, number prices, a date
cell and a =HYPERLINK formula, which the shop keeps as text). Run: .venv/bin/python docs/feeds/make_sample_xlsx.py"""
import csv
from datetime import date
from pathlib import Path

import openpyxl

HERE = Path(__file__).resolve().parent


def main() -> None:
    with open(HERE / "catalogue.csv", encoding="utf-8") as source:
        rows = list(csv.reader(source))
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Catalogue"
    sheet.append(rows[0])
    for row in rows[1:]:
        sheet.append(row)
    # Cells as a distributor's sheet holds them: the ISBN and prices as numbers, the date as a date.
    sheet["A2"] = 9789355830012
    sheet["E2"], sheet["F2"] = 1250, 999
    sheet["J2"] = date(2025, 1, 15)
    sheet["D4"] = '=HYPERLINK("https://example.in/gate-cs","Twenty years of GATE CS papers")'
    book.properties.creator = "Bookstore sample"
    book.save(HERE / "catalogue.xlsx")


if __name__ == "__main__":
    main()
