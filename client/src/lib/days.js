// Delivery days as the shop writes them: "Thu, 28 Nov", whatever the locale puts between the parts.

const DAY = new Intl.DateTimeFormat("en-IN", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

/** "Thu, 28 Nov" from an ISO date ("2026-11-28"); the text itself when it is not a date. */
export function day(iso) {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(DAY.formatToParts(date).map(({ type, value }) => [type, value]));
  return `${parts.weekday}, ${parts.day} ${parts.month}`;
}

/**
 * A range of days ({ from, to }) after its opening words: `${lead} ${single} Thu, 28 Nov` for one day,
 * `${lead} between Tue, 26 Nov and Thu, 28 Nov` for more. The caller checks that `from` is there.
 */
export function dayRange(range, lead, single) {
  if (!range.to || range.to === range.from) return `${lead} ${single} ${day(range.from)}`;
  return `${lead} between ${day(range.from)} and ${day(range.to)}`;
}
