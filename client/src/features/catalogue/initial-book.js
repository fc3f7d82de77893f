// The book Flask wrote into /book/{id}'s HTML, so its page shows without waiting for the API.

/** The embedded book when it is the one asked for, else null. Read once: later visits fetch. */
export function takeInitialBook(id) {
  const tag = document.getElementById("initial-book");
  if (!tag) return null;
  tag.remove();
  try {
    const book = JSON.parse(tag.textContent);
    return book?._id === id ? book : null;
  } catch {
    return null;
  }
}
