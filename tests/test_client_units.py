"""The client's pure modules have unit tests of their own (client/src/**/*.test.js, node --test).

Node.js is required to build the client at all (`make setup`), so these never skip: a machine
without it fails here as it fails the build.
"""
import subprocess

import pytest

from tests.server import ROOT

CLIENT_TESTS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "client" / "src").rglob("*.test.js"))


def test_the_client_has_unit_tests():
    """An empty list would make the test below vanish silently (pytest skips an empty parameter set)."""
    assert CLIENT_TESTS


@pytest.mark.parametrize("test_file", CLIENT_TESTS)
def test_client_unit_tests_pass(test_file):
    """Each client test file passes under Node's built-in test runner."""
    done = subprocess.run(["node", "--test", test_file], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
