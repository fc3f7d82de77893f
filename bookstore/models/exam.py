"""Exams and their subjects (papers), reference data beside the 18 categories, and the books tagged with them."""
from sqlalchemy import Boolean, Column, ForeignKey, Index, String, Table, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db

# A book belongs to any number of exams and of their subjects. The exam comes first in the key, so
# "books of this exam" reads the key alone; the book_id index serves a page of books loading theirs.
book_exams = Table(
    "book_exams", db.metadata,
    Column("exam_id", ForeignKey("exams.id", ondelete="CASCADE"), primary_key=True),
    Column("book_id", ForeignKey("books.id", ondelete="CASCADE"), primary_key=True),
    Index("ix_book_exams_book_id", "book_id"),
)

book_subjects = Table(
    "book_subjects", db.metadata,
    Column("subject_id", ForeignKey("exam_subjects.id", ondelete="CASCADE"), primary_key=True),
    Column("book_id", ForeignKey("books.id", ondelete="CASCADE"), primary_key=True),
    Index("ix_book_subjects_book_id", "book_id"),
)


class Exam(db.Model):
    __tablename__ = "exams"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(60), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    short_name: Mapped[str] = mapped_column(String(40))
    # The heading /exams lists it under ("Engineering", "School: CBSE", ...).
    group: Mapped[str] = mapped_column(String(60))
    description: Mapped[str] = mapped_column(String(300), default="")
    position: Mapped[int] = mapped_column(default=0)
    # Shown on the home page's "Popular exams".
    popular: Mapped[bool] = mapped_column(Boolean, default=False)

    # Loaded when asked for (services/exams.py joins them in): a page of books loading its exams
    # does not need every subject of each.
    subjects: Mapped[list["ExamSubject"]] = relationship(back_populates="exam", order_by="ExamSubject.position")


class ExamSubject(db.Model):
    __tablename__ = "exam_subjects"

    id: Mapped[int] = mapped_column(primary_key=True)
    exam_id: Mapped[int] = mapped_column(ForeignKey("exams.id", ondelete="CASCADE"))
    slug: Mapped[str] = mapped_column(String(60))
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column(default=0)

    exam: Mapped[Exam] = relationship(back_populates="subjects")

    __table_args__ = (UniqueConstraint("exam_id", "slug"), Index("ix_exam_subjects_slug", "slug"))
