// Data Flask wrote into the page (/book/{id}, home), so the first screen shows without an API call.

/** The parsed JSON of <script type="application/json" id={id}>, or undefined. Read once: later visits fetch. */
export function takeInitialData(id) {
  const tag = document.getElementById(id);
  if (!tag) return undefined;
  tag.remove();
  try {
    return JSON.parse(tag.textContent) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The embedded book when it is the one asked for. */
export function takeInitialBook(id) {
  const book = takeInitialData("initial-book");
  return book?._id === id ? book : undefined;
}
