// The coupon code the shopper applied, kept for this tab's visit (sessionStorage), so a code applied in the
// cart is still applied at checkout. The server decides whether it applies: this only remembers the code.
import { useCallback, useState } from "react";

const COUPON_KEY = "couponCode";

function read() {
  try {
    return window.sessionStorage.getItem(COUPON_KEY) ?? "";
  } catch {
    return "";
  }
}

/** Forget the code (the order that used it is placed). */
export function forgetCoupon() {
  try {
    window.sessionStorage.removeItem(COUPON_KEY);
  } catch {
    // storage disabled: nothing kept
  }
}

/** [code, setCode]: the applied code ("" for none), kept across the cart and checkout screens. */
export function useStoredCoupon() {
  const [code, setCode] = useState(read);
  const update = useCallback((next) => {
    setCode(next);
    try {
      if (next) window.sessionStorage.setItem(COUPON_KEY, next);
      else window.sessionStorage.removeItem(COUPON_KEY);
    } catch {
      // storage disabled: the code lasts while the screen is open
    }
  }, []);
  return [code, update];
}
