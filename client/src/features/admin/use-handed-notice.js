// A notice an editor hands to the list it returns to (router state `notice`): shown once, not again on reload.
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "../../lib/router.jsx";

/** The handed-over notice as state ([notice, setNotice]); the history entry forgets it once read. */
export function useHandedNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState(location.state?.notice ?? null);
  useEffect(() => {
    if (location.state?.notice) navigate(location.pathname + location.search, { replace: true, state: null });
  }, [location, navigate]);
  return [notice, setNotice];
}
