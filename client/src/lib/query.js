// The one way the client writes a query string, for API calls and screen URLs alike.

/** "?a=1&b=2" from the values of params that are set (undefined, null and "" are left out), or "" when none is. */
export function query(params = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
