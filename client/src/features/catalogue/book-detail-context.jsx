// Lets any book grid open the detail modal; its code loads on the first open.
import { createContext, Suspense, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useLocation } from "react-router-dom";

const BookDetailContext = createContext(null);

/** modal: the dialog, a lazy component taking {book, onClose}; the app composes it (cart, wishlist, delivery). */
export function BookDetailProvider({ modal: BookDetailModal, children }) {
  const [book, setBook] = useState(null);
  const { pathname, search } = useLocation();
  const close = useCallback(() => setBook(null), []);

  // Following a link inside the modal ("View full page", a category) leaves it behind.
  useEffect(close, [pathname, search, close]);

  const value = useMemo(() => ({ openBook: setBook, closeBook: close }), [close]);
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
