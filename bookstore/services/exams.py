"""Exams and their subjects beside the categories: the list with book counts, an exam's page, and the
look-ups the catalogue's filters and the admin form need.

Counts of visible books per exam and subject are remembered per process under the shop's summed
listing and filter versions: migration 0005's triggers bump the first when books come or go, 0014's
bump the second when a book's exams or subjects change, so a remembered count is always exact.
A request then reads the versions and the exams with their subjects: two statements.
"""
import threading
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import joinedload

from bookstore.errors import NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.models import Book, Category, Exam, ExamSubject, book_exams, book_subjects, parse_id
from bookstore.services.rows import by_id

BEST_SELLERS = 8

_counts: dict[str, tuple[tuple, dict[int, int], dict[int, int]]] = {}  # url -> (versions, exams, subjects)
_lock = threading.Lock()


@dataclass
class SubjectCount:
    subject: ExamSubject
    book_count: int


@dataclass
class ExamCount:
    exam: Exam
    book_count: int
    subjects: list[SubjectCount]


@dataclass
class ExamPage:
    exam: ExamCount
    bestsellers: list[Book]


def _versions() -> tuple:
    return tuple(db.session.execute(select(func.coalesce(func.sum(Category.listing_version), 0),
                                           func.coalesce(func.sum(Category.filter_version), 0))).one())


def _visible_counts() -> tuple[dict[int, int], dict[int, int]]:
    """Visible books per exam id and per subject id, from memory while the versions hold."""
    key, versions = str(db.engine.url), _versions()
    with _lock:
        remembered = _counts.get(key)
        if remembered is not None and remembered[0] == versions:
            return remembered[1], remembered[2]
    visible = Book.archived.is_(False)
    per_exam = dict(db.session.execute(
        select(book_exams.c.exam_id, func.count()).join(Book, Book.id == book_exams.c.book_id)
        .where(visible).group_by(book_exams.c.exam_id)).all())
    per_subject = dict(db.session.execute(
        select(book_subjects.c.subject_id, func.count()).join(Book, Book.id == book_subjects.c.book_id)
        .where(visible).group_by(book_subjects.c.subject_id)).all())
    with _lock:
        _counts[key] = (versions, per_exam, per_subject)
    return per_exam, per_subject


def _with_counts(exam: Exam, per_exam: dict[int, int], per_subject: dict[int, int]) -> ExamCount:
    return ExamCount(exam, per_exam.get(exam.id, 0),
                     [SubjectCount(subject, per_subject.get(subject.id, 0)) for subject in exam.subjects])


def exams_with_counts(popular_only: bool = False) -> list[ExamCount]:
    """Every exam (or the popular ones) in the shop's order, with its subjects and how many visible books each has."""
    per_exam, per_subject = _visible_counts()
    # Subjects joined in: the exams and their subjects are one statement.
    statement = select(Exam).options(joinedload(Exam.subjects)).order_by(Exam.position)
    exams = db.session.scalars(statement.where(Exam.popular.is_(True)) if popular_only else statement).unique()
    return [_with_counts(exam, per_exam, per_subject) for exam in exams]


def find_exam(slug: str) -> Exam | None:
    """An exam by its slug ('jee-main'), or None."""
    return db.session.scalar(select(Exam).where(Exam.slug == slug.strip().lower()))


def subject_ids(slug: str, exam: Exam | None) -> list[int]:
    """The ids of the subjects with this slug: within the exam if one is given, else in every exam."""
    statement = select(ExamSubject.id).where(ExamSubject.slug == slug.strip().lower())
    if exam is not None:
        statement = statement.where(ExamSubject.exam_id == exam.id)
    return list(db.session.scalars(statement))


def exam_page(slug: str) -> ExamPage:
    """An exam with its subjects, their book counts and its best sellers. :raise NotFound:"""
    exam = find_exam(slug)
    if exam is None:
        raise NotFound("Exam not found.")
    per_exam, per_subject = _visible_counts()
    best = db.session.scalars(
        select(Book).where(Book.archived.is_(False), Book.id.in_(
            select(book_exams.c.book_id).where(book_exams.c.exam_id == exam.id)))
        .order_by(Book.copies_sold.desc(), Book.id.desc()).limit(BEST_SELLERS))
    return ExamPage(_with_counts(exam, per_exam, per_subject), list(best))


def _by_ids(model, ids: list[str], field: str, noun: str) -> list:
    keys = [parse_id(value) for value in ids]
    found = {row.id: row for row in db.session.scalars(select(model).where(model.id.in_([k for k in keys if k])))}
    unknown = [value for value, key in zip(ids, keys) if key not in found]
    if unknown:
        raise ValidationFailed({field: [f"Unknown {noun}: {', '.join(unknown[:5])}."]})
    return [found[key] for key in dict.fromkeys(keys)]


def resolve_tags(exam_ids: list[str] | None, subject_ids_: list[str] | None,
                 current: tuple[list[Exam], list[ExamSubject]] = ([], [])) -> tuple[list[Exam], list[ExamSubject]]:
    """The exams and subjects an admin chose, by id; a subject brings its exam along, and exams left out
    take their subjects with them. None keeps the current choice. :raise ValidationFailed: unknown ids."""
    exams = _by_ids(Exam, exam_ids, "examIds", "exam") if exam_ids is not None else list(current[0])
    if subject_ids_ is not None:
        subjects = _by_ids(ExamSubject, subject_ids_, "subjectIds", "subject")
    else:
        chosen = {exam.id for exam in exams}
        subjects = [subject for subject in current[1] if subject.exam_id in chosen]
    known = {exam.id for exam in exams}
    for subject in subjects:
        if subject.exam_id not in known:
            exams.append(subject.exam)
            known.add(subject.exam_id)
    return exams, subjects


def find_book_to_replace(book_id: str, own_id: int | None = None) -> Book:
    """The older edition a book names. :raise ValidationFailed: unknown id or the book itself."""
    older = by_id(Book, book_id)
    if older is None:
        raise ValidationFailed({"replacesId": ["The edition this book replaces was not found."]})
    if own_id is not None and older.id == own_id:
        raise ValidationFailed({"replacesId": ["A book cannot replace itself."]})
    return older
