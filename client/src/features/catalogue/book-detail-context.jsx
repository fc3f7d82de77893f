// Lets any book grid open the detail modal; its code loads on the first open. The open dialog is part
// of the address (?book=ID, a history entry of its own): the phone's Back button closes it and leaves
// the list as it was (filters, page, scroll), Forward opens it again, and the address can be shared.
import { createContext, Suspense, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate } from "../../lib/router.jsx";
import { KEEP_SCROLL } from "../../components/layout/scroll-manager.jsx";
import { getBook } from "./api.js";

const BookDetailContext = createContext(null);
const PARAM = "book";

/** The address `location` would have with ?book= set to id (or removed when id is null). */
function withBook(location, id) {
  const params = new URLSearchParams(location.search);
  if (id) params.set(PARAM, id);
  else params.delete(PARAM);
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}${location.hash}`;
}

/** modal: the dialog, a lazy component taking {book, onClose}; the app composes it (cart, wishlist, delivery). */
export function BookDetailProvider({ modal: BookDetailModal, children }) {
  const location = useLocation();
  const navigate = useNavigate();
  const id = new URLSearchParams(location.search).get(PARAM);
  const carried = location.state?.book?._id === id ? location.state.book : null;
  const [fetched, setFetched] = useState(null);
  const book = id ? carried ?? (fetched?._id === id ? fetched : null) : null;

  // An address with ?book= but no book in its history entry (a reload, a shared link): ask the API.
  useEffect(() => {
    if (!id || carried) return undefined;
    const controller = new AbortController();
    getBook(id, { signal: controller.signal }).then(setFetched, () => {});
    return () => controller.abort();
  }, [id, carried]);

  const openBook = useCallback((next) => {
    navigate(withBook(window.location, next._id), { state: { ...KEEP_SCROLL, book: next, pushedBook: true } });
  }, [navigate]);

  const { state } = location;
  const close = useCallback(() => {
    // Opened here: going back is closing, so Forward can open it again. Arrived with it: drop it in place.
    if (state?.pushedBook) navigate(-1);
    else navigate(withBook(window.location, null), { replace: true, state: KEEP_SCROLL });
  }, [navigate, state]);

  const value = useMemo(() => ({ openBook, closeBook: close }), [openBook, close]);
  return (
    <BookDetailContext.Provider value={value}>
      {children}
      {book && (
        <Suspense fallback={null}>
          <BookDetailModal book={book} onClose={close} />
        </Suspense>
      )}
    </BookDetailContext.Provider>
  );
}

/** {openBook(book), closeBook()}, or null outside the provider (cards then act as plain links). */
export function useBookDetail() {
  return useContext(BookDetailContext);
}
