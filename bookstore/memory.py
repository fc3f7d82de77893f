"""A process's bounded memory of things it worked out: the least recently used is forgotten first.

Card dumps (`schemas/remembered.py`), search matches (`services/search.py`) and filtered totals
(`services/listing_counts.py`) each keep one. Whoever files a value decides when it is still right
(a fingerprint, a version, an expiry) by what it puts in the key or the value; this class only keeps
the memory bounded and safe to share between a worker's threads.
"""
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


class BoundedMemory:
    """A thread-safe LRU of at most `limit` entries (read again on every put, so it can be lowered)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value filed under key (now the most recently used), or default."""
        with self._lock:
            value = self._entries.get(key, default)
            if value is not default:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        """File value under key, forgetting the least recently used past the limit."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (a change the keys cannot tell, or a test's fresh start)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
