// Server data for a component: loading, success or error, with a retry and no stale replies.
import { useCallback, useEffect, useState } from "react";

/** Run request({signal}) on mount and whenever request or retry() changes; abort on unmount. */
export function useRequest(request) {
  const [state, setState] = useState({ status: "loading", data: undefined, error: null });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
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
