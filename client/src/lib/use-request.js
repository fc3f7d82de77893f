// Server data for a component: loading, success or error, with a retry and no stale replies.
import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Run request({signal}) on mount and whenever request or retry() changes; abort on unmount.
 * initialData (for example what the server wrote into the page) is shown at once instead of the
 * first request.
 */
export function useRequest(request, initialData) {
  const [state, setState] = useState(() => (initialData === undefined
    ? { status: "loading", data: undefined, error: null }
    : { status: "success", data: initialData, error: null }));
  const [attempt, setAttempt] = useState(0);
  const skipFirst = useRef(initialData !== undefined);

  useEffect(() => {
    if (skipFirst.current) {
      skipFirst.current = false;
      return undefined;
    }
    const controller = new AbortController();
    setState((previous) => ({ ...previous, status: "loading", error: null }));
    request({ signal: controller.signal }).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: "success", data, error: null });
      },
      (error) => {
        if (!controller.signal.aborted) setState({ status: "error", data: undefined, error });
      },
    );
    return () => controller.abort();
  }, [request, attempt]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  return { ...state, retry };
}
