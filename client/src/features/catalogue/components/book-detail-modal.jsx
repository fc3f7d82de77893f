// The book detail dialog opened from the grids (its own lazy chunk).
import { useId } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../config/paths.js";
import { Modal } from "../../../components/ui/modal.jsx";
import { DeliveryCheck } from "../../delivery/components/delivery-check.jsx";
import { BookDetails } from "./book-details.jsx";

export default function BookDetailModal({ book, onClose }) {
  const titleId = useId();
  return (
    <Modal open onClose={onClose} titleId={titleId} className="modal--book">
      <BookDetails book={book} titleId={titleId} buyExtras={<DeliveryCheck />} />
      <div className="modal__footer">
        <Link to={paths.book(book._id)} className="button button--secondary">View full page</Link>
        <button type="button" className="button button--secondary" onClick={onClose}>Close</button>
      </div>
    </Modal>
  );
}
