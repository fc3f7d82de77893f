// Counted words for fixed texts: "1 copy", "2 copies", "1,200 books".

/** `count` and the word for it (Indian digit grouping); `many` defaults to `one` + "s". */
export function plural(count, one, many = `${one}s`) {
  return `${Number(count).toLocaleString("en-IN")} ${count === 1 ? one : many}`;
}
