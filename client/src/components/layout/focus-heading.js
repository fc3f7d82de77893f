// Moves keyboard and screen-reader focus to the heading of what just changed (a new screen, a new page
// of results, a checkout step), so focus does not fall back to <body> and the heading is read out.

/**
 * Focuses the heading `find()` returns (tabIndex -1, so it can take focus without joining the Tab
 * order), trying each frame for up to 3 s while the screen loads. Returns a function that stops trying.
 */
export function focusHeading(find) {
  const started = performance.now();
  let frame = 0;
  const attempt = () => {
    const heading = find();
    if (heading) {
      if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
      return;
    }
    if (performance.now() - started < 3000) frame = requestAnimationFrame(attempt);
  };
  attempt();
  return () => cancelAnimationFrame(frame);
}

/** The current screen's h1, unless the screen put focus in a field of its own or a dialog is open. */
export function screenHeading() {
  const active = document.activeElement;
  if (active?.closest("dialog") || (active?.matches("input, select, textarea") && active.closest("main"))) return null;
  return document.querySelector("main h1");
}
