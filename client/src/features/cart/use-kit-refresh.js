// The cart's kit lines re-read from GET /api/kits (price, stock, still sold), on the cart and checkout screens:
// kept out of the cart's own refresh so the home page's JavaScript does not grow.
import { useEffect } from "react";
import { apiClient } from "../../lib/api-client.js";
import { isKitItem, kitCartItem, KIT_PREFIX } from "../../lib/kit-lines.js";
import { useCart } from "./cart-context.jsx";

/** {cart id: kit as a cart item | null} for the "kit-<id>" ids among `ids`, from the kits on sale. */
export function kitsByCartId(ids, kits) {
  const found = new Map(kits.map((kit) => [`${KIT_PREFIX}${kit._id}`, kitCartItem(kit)]));
  return Object.fromEntries(ids.filter((id) => isKitItem({ _id: id })).map((id) => [id, found.get(id) ?? null]));
}

async function readKits(ids, { signal }) {
  const { kits } = await apiClient("kits", { signal });
  return kitsByCartId(ids, kits);
}

/** Re-read the cart's kits whenever the set of kits in it changes; a failed call leaves the lines as they were. */
export function useKitRefresh() {
  const { lines, refresh } = useCart();
  const key = lines.filter((line) => isKitItem(line.book)).map((line) => line.book._id).join(",");
  useEffect(() => {
    if (!key) return undefined;
    const controller = new AbortController();
    refresh({ signal: controller.signal, read: readKits }).catch(() => {});
    return () => controller.abort();
  }, [key, refresh]);
}
