// Everything the shop knows about one book (product §3.6 fields): shared by the modal and /book/{id}.
import { Link } from "../../../lib/router.jsx";
import { Stars } from "../../../components/ui/stars.jsx";
import { paths } from "../../../config/paths.js";
import { Price } from "../../../components/ui/price.jsx";
import { shippingNote, useShop } from "../../../lib/shop.js";
import { BookCover } from "./book-cover.jsx";

const DATE = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "12 March 2026" from an ISO date, or the text itself when unreadable. */
export function formatDate(isoDate) {
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? isoDate : DATE.format(date);
}

function stockText(stock) {
  if (stock === 0) return "Out of stock";
  if (stock <= 5) return `Only ${stock} left in stock`;
  return "In stock";
}

const MEDIUM_LABELS = { english: "English", hindi: "Hindi", bilingual: "Bilingual (English & Hindi)" };

/** "1st", "2nd", "11th", "23rd". */
function ordinal(number) {
  const suffix = number % 100 >= 11 && number % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][number % 10] ?? "th";
  return `${number}${suffix}`;
}

/** "5th edition, 2026", "2026 edition" or "" from the edition number and year. */
export function editionText({ editionNumber: number, editionYear: year }) {
  const named = number ? `${ordinal(number)} edition` : "";
  if (named && year) return `${named}, ${year}`;
  return named || (year ? `${year} edition` : "");
}

/** The optional facts, in the order of product §3.6; empty ones are left out. */
function facts(book) {
  return [
    ["Medium", MEDIUM_LABELS[book.medium]],
    ["Edition", editionText(book)],
    ["ISBN", book.isbn],
    ["Publisher", book.publisher],
    ["Publication date", book.publicationDate && formatDate(book.publicationDate)],
    ["Language", book.language],
    ["Pages", book.pages],
    ["Format", book.format],
    ["Dimensions", book.dimensions],
    ["Weight", book.weight],
  ].filter(([, value]) => value !== null && value !== undefined && value !== "");
}

/**
 * titleId labels the dialog or the page; level is the title's heading level; `buyExtras` go under the stock line
 * (the app puts the cart and wishlist buttons and the delivery check there).
 */
export function BookDetails({ book, titleId, level = 2, eagerCover = false, buyExtras = null }) {
  const Title = `h${level}`;
  const Section = `h${level + 1}`;
  const details = facts(book);
  const shipping = shippingNote(useShop());
  return (
    <div className="book-details">
      <BookCover book={book} size="detail" className="book-details__cover" eager={eagerCover} />
      <div className="book-details__main">
        <Title id={titleId} className="book-details__title">{book.title}</Title>
        <p className="book-details__author">by {book.author}</p>
        {book.ratingCount > 0 && <Stars rating={book.rating} count={book.ratingCount} />}
        <p className="book-details__category">
          Category: <Link to={paths.category(book.category)}>{book.category}</Link>
        </p>
        {book.exams?.length > 0 && (
          <p className="book-details__category">
            For: {book.exams.map((exam, index) => (
              <span key={exam._id}>{index > 0 && ", "}<Link to={paths.exam(exam.slug)}>{exam.name}</Link></span>
            ))}
          </p>
        )}
        {book.newerEdition && (
          <p className="book-details__newer">
            <Link to={paths.book(book.newerEdition._id)}>A newer edition is available: {book.newerEdition.title}</Link>
          </p>
        )}
        <div className="book-details__buy">
          <Price price={book.price} discountedPrice={book.discountedPrice} showSaving />
          {/* product §3.6: shipping on its own line, the shop's fee (GET /api/shop), never added to the price */}
          {shipping && <p className="book-details__shipping">{shipping}</p>}
          <p className={`book-details__stock ${book.stock === 0 ? "book-details__stock--out" : ""}`}>
            {stockText(book.stock)}
          </p>
          {buyExtras}
        </div>
        {details.length > 0 && (
          <>
            <Section className="book-details__subtitle">Details</Section>
            <dl className="book-details__facts">
              {details.map(([label, value]) => (
                <div key={label}><dt>{label}</dt><dd>{value}</dd></div>
              ))}
            </dl>
          </>
        )}
        {book.description && (
          <>
            <Section className="book-details__subtitle">Description</Section>
            <p className="book-details__description">{book.description}</p>
          </>
        )}
        {book.tags?.length > 0 && (
          <ul className="book-details__tags" aria-label="Tags">
            {book.tags.map((tag) => (
              <li key={tag}><Link to={paths.books({ search: tag })}>{tag}</Link></li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
