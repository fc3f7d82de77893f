"""Dumps remembered by what they are made from: a card that reads 30 attributes through marshmallow
costs about 80 µs, and every list, search and suggestion dumps a dozen of the same few thousand books.

A schema that defines `fingerprint(obj)` (a hashable tuple of every value its dump reads, or None when
that cannot be told) keeps each process's latest dumps by fingerprint: a book whose price, stock or text
changed has another fingerprint, so a remembered dump is never stale. A subclass that adds fields
dumps afresh until it defines its own fingerprint.
"""
from marshmallow import Schema

from bookstore.memory import BoundedMemory


class RememberedDumps(Schema):
    """A schema whose dumps of one object are remembered by the object's fingerprint."""

    def fingerprint(self, obj) -> tuple | None:
        """Every value the dump of obj reads, hashable; None to dump afresh."""
        return None

    def dump(self, obj, *, many: bool | None = None):
        many = self.many if many is None else bool(many)
        if "fingerprint" not in type(self).__dict__:
            return super().dump(obj, many=many)
        if many:
            return [self._remembered_dump(one) for one in obj]
        return self._remembered_dump(obj)

    def _field_names(self) -> tuple[str, ...]:
        # Part of the key: an instance made with only= or exclude= dumps other fields.
        names = self.__dict__.get("_remembered_field_names")
        if names is None:
            names = self._remembered_field_names = tuple(self.dump_fields)
        return names

    def _remembered_dump(self, obj) -> dict:
        try:
            key = (type(self), self._field_names(), self.fingerprint(obj))
            hash(key)
        except TypeError:  # a value that cannot be hashed: dump it afresh
            key = None
        if key is None or key[2] is None:
            return super().dump(obj, many=False)
        dumped = _remembered.get(key)
        if dumped is None:
            dumped = super().dump(obj, many=False)
            _remembered.put(key, dumped)
        # A copy, so a view that adds to its reply never changes what is remembered.
        return dict(dumped)


_remembered = BoundedMemory(4096)
