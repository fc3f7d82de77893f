"""Passwords nobody should choose: the commonly used ones and those guessed in a few hundred tries.

zxcvbn (Dropbox's estimator, Python port) ships the 30,000 passwords seen most often in leaked sets
and estimates guesses from the patterns people use (repeats like "aaaaaa", sequences like "abcdef",
keyboard walks like "qwerty123", dates, words). A password is refused when it is on that list (in any
letter case) or zxcvbn scores it 0, under a thousand guesses. Length stays the schemas' rule (6 to 128).
"""
from functools import cache

TOO_COMMON = "This password is too common and easy to guess. Please choose a less predictable one."
# zxcvbn refuses to estimate longer passwords (its matching grows fast); none that long is a common one.
ESTIMATE_UP_TO = 72


@cache
def _common() -> frozenset[str]:
    # Loaded on first use: zxcvbn's word lists take ~15 MB, which workers that never see a new password skip.
    from zxcvbn.frequency_lists import FREQUENCY_LISTS
    return frozenset(FREQUENCY_LISTS["passwords"])


def too_common(password: str) -> bool:
    """Whether the password is a commonly used one or guessable in under a thousand tries."""
    if password.lower() in _common():
        return True
    if len(password) > ESTIMATE_UP_TO:
        return False
    from zxcvbn import zxcvbn
    return zxcvbn(password)["score"] == 0
