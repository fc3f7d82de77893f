// The shopper's cart: kept in localStorage, shared by every screen, re-read from the API on demand.
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "react";
import { getCurrentBooks } from "./api.js";
import { useShop } from "../../lib/shop.js";
import { cartReducer, itemsTotalPaise } from "./cart-reducer.js";
import { onStoredCartChange, readCart, writeCart } from "./cart-storage.js";

const CartContext = createContext(null);

export function CartProvider({ children }) {
  const [state, dispatch] = useReducer(cartReducer, undefined, () => ({ lines: readCart(), changes: [] }));
  const [refreshing, setRefreshing] = useState(false);
  // Writes we made ourselves must not be read back as "another tab changed the cart".
  const skipWrite = useRef(true);

  useEffect(() => {
    if (skipWrite.current) {
      skipWrite.current = false;
      return;
    }
    writeCart(state.lines);
  }, [state.lines]);

  useEffect(() => onStoredCartChange(() => {
    skipWrite.current = true;
    dispatch({ type: "replace", lines: readCart() });
  }), []);

  const linesRef = useRef(state.lines);
  useLayoutEffect(() => {
    linesRef.current = state.lines;
  });

  /** Re-read every line's book from the API (or with `read`, as use-kit-refresh.js does); resolves to the changes found. */
  const refresh = useCallback(async ({ signal, read = getCurrentBooks } = {}) => {
    const ids = linesRef.current.map((line) => line.book._id);
    if (ids.length === 0) return;
    setRefreshing(true);
    try {
      const books = await read(ids, { signal });
      if (!signal?.aborted) dispatch({ type: "refreshed", books });
    } catch (error) {
      if (error.name !== "AbortError") throw error;
    } finally {
      if (!signal?.aborted) setRefreshing(false);
    }
  }, []);

  // The shop's limit of different books per order (GET /api/shop); unknown until it has come: no limit here,
  // the server still refuses an order over it.
  const shop = useShop();
  const maxLines = shop?.maxLinesPerOrder ?? Infinity;
  const maxCopies = shop?.maxQuantityPerLine ?? Infinity;
  const add = useCallback((book, quantity = 1) => dispatch({ type: "add", book, quantity, maxLines, maxCopies }),
    [maxLines, maxCopies]);
  const setQuantity = useCallback((bookId, quantity) => dispatch({ type: "setQuantity", bookId, quantity, maxCopies }),
    [maxCopies]);
  const remove = useCallback((bookId) => dispatch({ type: "remove", bookId }), []);
  const clear = useCallback(() => dispatch({ type: "clear" }), []);
  const dismissChanges = useCallback(() => dispatch({ type: "dismissChanges" }), []);

  const value = useMemo(() => {
    const items = itemsTotalPaise(state.lines);
    return {
      lines: state.lines,
      // Items are copies, the same count everywhere: the header's badge, the cart page and the order summary.
      count: state.lines.reduce((total, line) => total + line.quantity, 0),
      itemsTotalPaise: items,
      maxLines,
      maxCopies,
      isFull: state.lines.length >= maxLines,
      changes: state.changes,
      refreshing,
      add,
      setQuantity,
      remove,
      clear,
      refresh,
      dismissChanges,
      has: (bookId) => state.lines.some((line) => line.book._id === bookId),
    };
  }, [state, refreshing, maxLines, maxCopies, add, setQuantity, remove, clear, refresh, dismissChanges]);

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

/**
 * The cart: {lines: [{book, quantity}], count (copies of every line), itemsTotalPaise, maxLines, maxCopies, isFull (the
 * shop's lines per order reached), changes, refreshing, add(book, quantity = 1), setQuantity(bookId, quantity),
 * remove(bookId), clear(), refresh(), dismissChanges(), has(bookId)}.
 */
export function useCart() {
  const cart = useContext(CartContext);
  if (!cart) throw new Error("useCart must be used inside CartProvider");
  return cart;
}
