"""Exam shapes: the list with subjects and book counts, and an exam's page."""
from marshmallow import Schema, fields

from bookstore.schemas.common import ReplySchema
from bookstore.schemas.book import BookCardSchema
from bookstore.schemas.fields import IdString, InputSchema


class ExamListQuerySchema(InputSchema):
    """`popular=true`: only the exams the home page shows."""

    popular = fields.Boolean(load_default=False)


class SubjectCountSchema(Schema):
    _id = IdString(attribute="subject.id")
    slug = fields.String(attribute="subject.slug")
    name = fields.String(attribute="subject.name")
    bookCount = fields.Integer(attribute="book_count")


class ExamSchema(Schema):
    _id = IdString(attribute="exam.id")
    slug = fields.String(attribute="exam.slug")
    name = fields.String(attribute="exam.name")
    shortName = fields.String(attribute="exam.short_name")
    group = fields.String(attribute="exam.group")
    description = fields.String(attribute="exam.description")
    popular = fields.Boolean(attribute="exam.popular")
    bookCount = fields.Integer(attribute="book_count")
    subjects = fields.List(fields.Nested(SubjectCountSchema))


class ExamListReplySchema(ReplySchema):
    exams = fields.List(fields.Nested(ExamSchema))


class ExamPageReplySchema(ReplySchema):
    exam = fields.Nested(ExamSchema)
    bestSellers = fields.List(fields.Nested(BookCardSchema), attribute="bestsellers")
