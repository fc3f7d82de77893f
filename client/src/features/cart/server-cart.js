// The signed-in shopper's cart on the server (GET/PUT /api/cart): merged with the browser's at sign-in, then
// saved after every change. Loaded lazily, only once someone is signed in.
import { apiClient } from "../../lib/api-client.js";
import { getToken } from "../../lib/auth-storage.js";
import { isKitItem } from "../../lib/kit-lines.js";
import { mergeCarts } from "./cart-merge.js";
import { readCart, replaceStoredCart } from "./cart-storage.js";

// The token whose sign-in merge has begun, shared by tabs: only the tab that signed in merges.
const MERGED_KEY = "cartMergedFor";
// What was last saved, for which token: kept across page loads, so a page that opens with the cart it last saved
// sends nothing, and one whose cart changed before this code had loaded saves it.
const SAVED_KEY = "cartSaved";
const merges = new Map();
let saving = Promise.resolve();

function lastSaved() {
  try {
    return window.localStorage.getItem(SAVED_KEY);
  } catch {
    return null;
  }
}

function rememberSaved(value) {
  try {
    window.localStorage.setItem(SAVED_KEY, value);
  } catch {
    // storage disabled: the next page load saves once more
  }
}

// Books only: a kit's line ("kit-<id>", lib/kit-lines.js) stays in this browser's cart.
const body = (lines) => ({
  items: lines.filter(({ book }) => !isKitItem(book)).map(({ book, quantity }) => ({ book: book._id, quantity })),
});

/**
 * At sign-in: the browser's cart plus the saved one (cart-merge.js), stored in both places. Once per token;
 * resolves once the browser holds the merged cart (its save is queued before any later change's).
 */
export function mergeAtSignIn(token, limits) {
  if (!merges.has(token)) merges.set(token, merge(token, limits));
  return merges.get(token);
}

async function merge(token, limits) {
  try {
    if (window.localStorage.getItem(MERGED_KEY) === token) return;
    window.localStorage.setItem(MERGED_KEY, token);
  } catch {
    // storage disabled: merge anyway
  }
  const { items } = await apiClient("cart");
  const merged = mergeCarts(readCart(), items, limits);
  replaceStoredCart(merged);
  saveServerCart(merged);
}

/** Save the cart (the latest lines win; an unchanged cart is not sent again). Failures are left for the next change. */
export function saveServerCart(lines) {
  const token = getToken();
  const text = JSON.stringify(body(lines));
  const saved = `${token}\n${text}`;
  saving = saving.then(async () => {
    if (saved === lastSaved() || getToken() !== token) return;
    try {
      await apiClient("cart", { method: "PUT", body: JSON.parse(text) });
      rememberSaved(saved);
    } catch {
      // a book no longer sold (the cart screen's refresh drops it) or no network: the next change saves again
    }
  });
  return saving;
}
