// Scroll positions across navigations: top of the page for a new screen, where the shopper was
// for Back and Forward, untouched when a screen asks (filters changing under the reader's eyes).
import { useEffect, useLayoutEffect } from "react";
import { useLocation, useNavigationType } from "../../lib/router.jsx";

const positions = new Map();

/** navigate(to, {state: KEEP_SCROLL}) or setSearchParams(next, {state: KEEP_SCROLL}) keeps the position. */
export const KEEP_SCROLL = { keepScroll: true };

export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    window.history.scrollRestoration = "manual";
  }, []);

  useEffect(() => {
    let frame = 0;
    const save = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => positions.set(location.key, window.scrollY));
    };
    window.addEventListener("scroll", save, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", save);
    };
  }, [location.key]);

  useLayoutEffect(() => {
    if (navigationType === "POP") {
      const target = positions.get(location.key) ?? 0;
      // The screen may still be loading its data: try again until the page is tall enough.
      const started = performance.now();
      let frame = 0;
      const restore = () => {
        window.scrollTo(0, target);
        const reachable = document.documentElement.scrollHeight - window.innerHeight >= target;
        if (!reachable && performance.now() - started < 2000) frame = requestAnimationFrame(restore);
      };
      restore();
      return () => cancelAnimationFrame(frame);
    }
    if (!location.state?.keepScroll) window.scrollTo(0, 0);
    // A kept position is this entry's too (Forward to an opened book dialog keeps the list where it was).
    else positions.set(location.key, window.scrollY);
    return undefined;
  }, [location.key, navigationType, location.state]);

  return null;
}
