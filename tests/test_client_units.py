"""The client's pure modules have unit tests of their own (client/src/**/*.test.js, node --test)."""
import shutil
import subprocess

import pytest

from tests.server import ROOT

CLIENT_TESTS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "client" / "src").rglob("*.test.js"))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("test_file", CLIENT_TESTS)
def test_client_unit_tests_pass(test_file):
    """Each client test file passes under Node's built-in test runner."""
    done = subprocess.run(["node", "--test", test_file], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
