// A signed-in shopper's cart lives on the server too: merged with the browser's at sign-in, saved on every
// change. Lazy: guests never download it. Logout clears only the browser's copy (AppProviders).
import { useEffect, useRef } from "react";
import { useAuth } from "../features/auth/auth-context.jsx";
import { useCart } from "../features/cart/cart-context.jsx";
import { mergeAtSignIn, saveServerCart } from "../features/cart/server-cart.js";

export default function CartSync({ signedInNow }) {
  const { token } = useAuth();
  const { lines, maxLines, maxCopies } = useCart();
  const ready = useRef(!signedInNow); // changes are saved once the sign-in merge is done
  // Null: the cart as this page found it is saved too (unless it is what was last saved), since a change
  // made before this lazy chunk arrived was not seen.
  const seen = useRef(null);

  useEffect(() => {
    if (!signedInNow) return;
    mergeAtSignIn(token, { maxLines, maxCopies }).then(() => { ready.current = true; }, () => {});
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once per sign-in: this mounts at sign-in

  useEffect(() => {
    if (seen.current === lines) return;
    seen.current = lines;
    if (ready.current) saveServerCart(lines);
  }, [lines]);

  return null;
}
