"""ESLint passes on the client (eslint.config.js): eslint:recommended, the React hooks rules, no import
cycles, and the layer boundaries of docs/architecture.md "The client" (a feature imports no other
feature, shared code imports no feature, nothing but app/ imports app/).

ESLint is a dev dependency in package-lock.json, installed by `npm ci` like esbuild, so this never skips.
"""
import subprocess

from tests.server import ROOT

ESLINT = ["node", str(ROOT / "node_modules" / "eslint" / "bin" / "eslint.js")]


def _eslint(*args, stdin=None):
    return subprocess.run([*ESLINT, *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=300)


def _eslint_probe(filename, text):
    """Lint `text` as if it were the file `filename` (not written; import/no-cycle cannot follow a file
    that is not on disk, so it is off for the probe)."""
    return _eslint("--rule", "import/no-cycle: off", "--stdin", "--stdin-filename", filename, stdin=text)


def test_the_client_passes_eslint():
    """`npm run lint` reports no error anywhere in the client (its output names each one)."""
    done = _eslint(".")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_a_feature_importing_another_feature_is_refused():
    """The boundary rule is live: a feature module that imports another feature fails the lint."""
    done = _eslint_probe("client/src/features/orders/probe.js",
                         'import { useCart } from "../cart/cart-context.jsx";\nexport const probe = useCart;\n')
    assert done.returncode == 1, done.stdout + done.stderr
    assert "import/no-restricted-paths" in done.stdout
    assert "A feature imports no other feature" in done.stdout


def test_shared_code_importing_a_feature_or_the_app_is_refused():
    """components/, config/ and lib/ import neither a feature nor app/: each such import is an error."""
    done = _eslint_probe("client/src/components/ui/probe.jsx",
                         'import { useAuth } from "../../features/auth/auth-context.jsx";\n'
                         'import { AppProviders } from "../../app/providers.jsx";\n'
                         'export const probe = [useAuth, AppProviders];\n')
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.count("import/no-restricted-paths") == 2, done.stdout
