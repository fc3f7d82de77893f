"""axe-core in the page under test: serious and critical accessibility violations fail the test."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
AXE_SCRIPT = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def axe_violations(page, include: str | None = None) -> list[dict]:
    """Every axe violation on the page (or inside the `include` selector), as axe reports them."""
    if not AXE_SCRIPT.exists():
        raise AssertionError(f"{AXE_SCRIPT} is missing: run `npm ci` (make setup)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Through the DevTools protocol: the pages' Content-Security-Policy refuses the inline <script>
        # that add_script_tag would insert.
        page.evaluate("(source) => { (0, eval)(source); }", AXE_SCRIPT.read_text())
    return page.evaluate(
        """async (include) => {
            const result = await axe.run(include ? { include: [include] } : document, {
                resultTypes: ["violations"],
                runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
            });
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
            }));
        }""",
        include,
    )


def assert_no_axe_violations(page, include: str | None = None) -> None:
    """Fail with a readable list when axe finds a serious or critical violation."""
    blocking = [v for v in axe_violations(page, include) if v["impact"] in BLOCKING]
    if blocking:
        lines = [f"axe found {len(blocking)} serious/critical violation(s) on {page.url}:"]
        for violation in blocking:
            lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
            lines.extend(f"    {node['target']}: {node['summary']}" for node in violation["nodes"])
        raise AssertionError("\n".join(lines))
