// On every new screen (not the first one, which the browser starts at the top), focus goes to the
// screen's h1: a screen reader reads where the shopper arrived, and Tab goes on from there.
import { useEffect, useRef } from "react";
import { useLocation } from "../../lib/router.jsx";
import { focusHeading, screenHeading } from "./focus-heading.js";

export function RouteFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return undefined;
    }
    return focusHeading(screenHeading);
  }, [pathname]);
  return null;
}
