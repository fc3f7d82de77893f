// State that starts again when something it depends on changes, set while rendering instead of by an effect
// (react.dev, "You might not need an effect": adjusting state when a prop changes), so no stale frame is drawn.
import { useState } from "react";

/**
 * [value, setValue]: starts as `start`, and is `start` again whenever `key` changes (by default `start`
 * itself: a draft of a prop that follows the prop). A menu that closes on navigation is
 * `useResettingState(false, pathname + search)`.
 */
export function useResettingState(start, key = start) {
  const [value, setValue] = useState(start);
  const [seenKey, setSeenKey] = useState(key);
  if (!Object.is(seenKey, key)) {
    setSeenKey(key);
    setValue(start);
  }
  return [value, setValue];
}
