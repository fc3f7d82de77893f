// A book's price; a discounted price is shown first, with the list price struck through and the % off.
// Screen readers hear "₹450.00, was ₹500.00, 10% off": a struck-through number alone would read as a price.
import { formatRupees } from "../../lib/money.js";

const paise = (rupees) => Math.round(Number(rupees) * 100) || 0;

/** Whole percent off the list price, rounded (at least 1 whenever there is a saving), or 0. */
export function percentOff(price, discountedPrice) {
  const list = paise(price);
  const saved = list - paise(discountedPrice);
  if (discountedPrice == null || list <= 0 || saved <= 0) return 0;
  return Math.max(1, Math.round((saved * 100) / list));
}

/** `showSaving` adds "You save ₹…" (the book page); `as` is the element (a line of a list may want a span). */
export function Price({ price, discountedPrice, showSaving = false, as: Element = "p", className = "" }) {
  const off = percentOff(price, discountedPrice);
  const classes = `price ${className}`.trim();
  if (!off) return <Element className={classes}><span className="price__now">{formatRupees(price)}</span></Element>;
  const saved = (paise(price) - paise(discountedPrice)) / 100;
  return (
    <Element className={classes}>
      <span className="price__now">{formatRupees(discountedPrice)}</span>
      <span className="sr-only">, was {formatRupees(price)}, {off}% off</span>
      <s className="price__was" aria-hidden="true">{formatRupees(price)}</s>
      <span className="price__off" aria-hidden="true">{off}% off</span>
      {showSaving && <span className="price__saving">You save {formatRupees(saved)}</span>}
    </Element>
  );
}
