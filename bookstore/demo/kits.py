"""Demo kits: for a few exams, one book of each of its subjects (the best rated in English) sold together at
about 85% of their price, linked to the exam. Deterministic: the same catalogue gives the same kits."""
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import DIGITAL_FORMATS, Book, Exam, ExamSubject, Kit, KitBook, book_subjects

KITS = (
    ("jee-main", "JEE Main complete set", "One book for each JEE Main subject: Physics, Chemistry and Mathematics."),
    ("neet-ug", "NEET-UG complete set", "One book for each NEET-UG subject: Physics, Chemistry and Biology."),
    ("gate-cse", "GATE CSE starter kit", "A book for each of the main GATE Computer Science papers."),
)
MAX_BOOKS = 4


def seed_kits() -> int:
    """Add the demo kits whose exam has books for at least two subjects; returns how many were made."""
    made = 0
    for exam_slug, name, description in KITS:
        exam = db.session.scalar(select(Exam).where(Exam.slug == exam_slug))
        slug = name.lower().replace(" ", "-")
        if exam is None or db.session.scalar(select(Kit.id).where(Kit.slug == slug)) is not None:
            continue
        books = _one_per_subject(exam)
        if len(books) < 2:
            continue
        total = sum(book.sale_price_paise for book in books)
        price = max(total * 85 // 100 // 100 * 100, 100)  # about 15% off, in whole rupees
        db.session.add(Kit(name=name, slug=slug, description=description, price_paise=price, archived=False,
                           exam_id=exam.id, items=[KitBook(book_id=book.id, quantity=1, position=n)
                                                   for n, book in enumerate(books)]))
        made += 1
    db.session.commit()
    return made


def _one_per_subject(exam: Exam) -> list[Book]:
    """The best-rated printed English book in stock of each of the exam's subjects (lowest id among equals); a kit
    holds no e-book or audiobook (product §7.11)."""
    chosen: list[Book] = []
    subjects = db.session.scalars(select(ExamSubject).where(ExamSubject.exam_id == exam.id)
                                  .order_by(ExamSubject.position)).all()
    for subject in subjects:
        book = db.session.scalar(
            select(Book).join(book_subjects, book_subjects.c.book_id == Book.id)
            .where(book_subjects.c.subject_id == subject.id, Book.archived.is_(False), Book.stock > 0,
                   Book.format.not_in(DIGITAL_FORMATS), Book.language == "English",
                   Book.id.not_in([b.id for b in chosen] or [0]))
            .order_by(Book.rating.desc(), Book.id).limit(1))
        if book is not None:
            chosen.append(book)
        if len(chosen) == MAX_BOOKS:
            break
    return chosen
