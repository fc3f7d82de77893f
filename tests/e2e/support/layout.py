"""Layout checks that hold on every screen size."""


def assert_no_horizontal_scroll(page) -> None:
    """Nothing is wider than the viewport: the shopper never scrolls sideways."""
    widths = page.evaluate("""() => ({
        viewport: document.documentElement.clientWidth,
        content: document.documentElement.scrollWidth,
        widest: [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 5).map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '')),
    })""")
    assert widths["content"] <= widths["viewport"], (
        f"page is {widths['content']} px wide in a {widths['viewport']} px viewport on {page.url}; "
        f"sticking out: {widths['widest']}")
