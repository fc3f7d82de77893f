// Data Flask wrote into the page (home, /books, /book/{id}), so the first screen shows without an API call.
import { useEffect, useState } from "react";

function readInitialData(id) {
  const tag = document.getElementById(id);
  if (!tag) return undefined;
  try {
    return JSON.parse(tag.textContent) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * pick(the parsed JSON of <script type="application/json" id={id}>), or undefined when there is
 * none or pick declines it. The tag is removed once the screen has mounted, so later visits fetch;
 * not while rendering, because React may throw a render away (a lazy child suspending) and redo it.
 */
export function useInitialData(id, pick = (data) => data) {
  const [data] = useState(() => {
    const embedded = readInitialData(id);
    return embedded === undefined ? undefined : pick(embedded);
  });
  useEffect(() => document.getElementById(id)?.remove(), [id]);
  return data;
}
