// The book detail dialog opened from the grids (its own lazy chunk, handed to BookDetailProvider).
import { useId } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { Modal } from "../../components/ui/modal.jsx";
import { BookDetails } from "../../features/catalogue/components/book-details.jsx";
import { BookBuying } from "./book-buying.jsx";

export default function BookDetailModal({ book, onClose }) {
  const titleId = useId();
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
