"""BoundedMemory: the one LRU behind remembered cards, search matches and filtered totals."""
import threading

from bookstore.memory import BoundedMemory


def test_the_least_recently_used_is_forgotten_first():
    memory = BoundedMemory(2)
    memory.put("a", 1)
    memory.put("b", 2)
    assert memory.get("a") == 1  # "a" is now the most recently used
    memory.put("c", 3)
    assert memory.get("b") is None
    assert (memory.get("a"), memory.get("c"), len(memory)) == (1, 3, 2)


def test_a_lowered_limit_applies_at_the_next_put_and_clear_forgets_all():
    memory = BoundedMemory(10)
    for n in range(5):
        memory.put(n, str(n))
    memory.limit = 2
    memory.put("new", "x")
    assert len(memory) == 2 and memory.get(4) == "4" and memory.get(0) is None
    memory.clear()
    assert len(memory) == 0 and memory.get("new", "gone") == "gone"


def test_a_falsy_value_is_remembered_and_refiling_replaces():
    memory = BoundedMemory(3)
    memory.put("zero", 0)
    memory.put("zero", None)
    memory.put("empty", ())
    assert memory.get("empty", "missing") == () and memory.get("zero", "missing") is None
    assert len(memory) == 2


def test_threads_sharing_it_never_exceed_the_limit():
    memory = BoundedMemory(50)

    def fill(start: int) -> None:
        for n in range(start, start + 2000):
            memory.put(n, n)
            memory.get(n - 7)

    threads = [threading.Thread(target=fill, args=(i * 10_000,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(memory) == 50
