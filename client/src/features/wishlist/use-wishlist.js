// The signed-in shopper's wishlist, loaded once per sign-in and shared by every component.
import { useCallback, useEffect, useSyncExternalStore } from "react";
import * as api from "./api.js";

// One store for the page: many book cards ask "is this saved?" without a call each.
let state = { token: null, status: "idle", entries: [], ids: new Set(), error: null };
// Bumped by every add or remove: a load that started before one answers a list older than the
// change's own answer (the server may serve both at once), so it is dropped.
let changes = 0;
const listeners = new Set();

function set(next) {
  state = { ...state, ...next };
  if (next.entries) state.ids = new Set(next.entries.map((entry) => entry.book?._id));
  listeners.forEach((listener) => listener());
}

function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function load(token) {
  set({ token, status: "loading", error: null });
  const startedAfter = changes;
  api.getWishlist().then(
    (entries) => state.token === token && set(changes === startedAfter ? { status: "ready", entries } : { status: "ready" }),
    (error) => state.token === token && set({ status: "error", error: error.message ? error : new Error("Failed to fetch wishlist") }),
  );
}

/**
 * {ids (Set of book ids), entries ([{book, addedAt}]), status, error, has(bookId), add(book),
 * remove(bookId), reload()}. Signed out, add() opens the sign-in dialog and resolves to false.
 * `auth` is the auth feature's useAuth() ({token, isSignedIn, openAuthModal}), handed over by the app.
 */
export function useWishlist({ token, isSignedIn, openAuthModal }) {
  const current = useSyncExternalStore(subscribe, () => state, () => state);

  useEffect(() => {
    if (!isSignedIn) {
      if (state.token !== null) set({ token: null, status: "idle", entries: [], error: null });
    } else if (state.token !== token) {
      load(token);
    }
  }, [isSignedIn, token]);

  const add = useCallback(async (book) => {
    if (!isSignedIn) {
      openAuthModal("login");
      return false;
    }
    try {
      changes += 1;
      set({ entries: await api.addToWishlist(book._id ?? book), error: null });
      return true;
    } catch (error) {
      set({ error: new Error(error.message || "Failed to add to wishlist") });
      throw error;
    }
  }, [isSignedIn, openAuthModal]);

  const remove = useCallback(async (bookId) => {
    try {
      changes += 1;
      set({ entries: await api.removeFromWishlist(bookId), error: null });
    } catch (error) {
      set({ error: new Error(error.message || "Failed to remove from wishlist") });
      throw error;
    }
  }, []);

  const has = useCallback((bookId) => current.ids.has(bookId), [current]);
  const reload = useCallback(() => token && load(token), [token]);
  const clearError = useCallback(() => set({ error: null }), []);

  return { ids: current.ids, entries: current.entries, status: current.status, error: current.error,
    has, add, remove, reload, clearError };
}
