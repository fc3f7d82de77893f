// The book detail dialog opened from the grids (its own lazy chunk, handed to BookDetailProvider).
// Lists carry the card shape; the dialog shows it at once and reads the whole book (its exams and
// newer edition) behind it.
import { useCallback, useId } from "react";
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { Modal } from "../../components/ui/modal.jsx";
import { useRequest } from "../../lib/use-request.js";
import { getBook } from "../../features/catalogue/api.js";
import { BookDetails } from "../../features/catalogue/components/book-details.jsx";
import { BookBuying } from "./book-buying.jsx";

export default function BookDetailModal({ book: card, onClose }) {
  const titleId = useId();
  const request = useCallback(({ signal }) => getBook(card._id, { signal }), [card._id]);
  const { data: whole } = useRequest(request);
  const book = whole && whole._id === card._id ? whole : card;
  return (
    <Modal open onClose={onClose} titleId={titleId} className="modal--book">
      <BookDetails book={book} titleId={titleId} buyExtras={<BookBuying book={book} />} />
      <div className="modal__footer">
        <Link to={paths.book(book._id)} className="button button--secondary">View full page</Link>
        <button type="button" className="button button--secondary" onClick={onClose}>Close</button>
      </div>
    </Modal>
  );
}
