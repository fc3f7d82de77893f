// The /books filters: category (or an exam's subjects), sort, price range, language, medium and format,
// and Clear Filters.
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useResettingState } from "../../../lib/use-resetting-state.js";
import { useShop } from "../../../lib/shop.js";
import { MEDIA, SORTS } from "../use-book-filters.js";

const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;

/** What is wrong with a typed price range, or "" (an empty bound is no bound). */
export function priceRangeError(min, max) {
  if ((min !== "" && !AMOUNT.test(min)) || (max !== "" && !AMOUNT.test(max))) {
    return "Enter prices in rupees, like 499 or 499.50.";
  }
  if (min !== "" && max !== "" && Number(min) > Number(max)) {
    return `The min price (₹${min}) must not be more than the max price (₹${max}).`;
  }
  return "";
}

/** One rupee bound; a minus sign typed is taken out at once (prices are never negative). */
function PriceInput({ label, text, setText, invalid, errorId, onNegative }) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="number" inputMode="decimal" min="0" step="1" value={text} placeholder="₹"
             aria-invalid={invalid || undefined} aria-describedby={invalid ? errorId : undefined}
             onChange={(event) => {
               const value = event.target.value;
               setText(value.replace(/-/g, ""));
               if (value.includes("-")) onNegative();
             }} />
    </div>
  );
}

/** The min and max price, checked as typed and sent to the URL together after a short pause when they make sense. */
function PriceRange({ minPrice, maxPrice, onCommit }) {
  // The URL may change the range (Back, Clear Filters): the boxes follow it.
  const [min, setMin] = useResettingState(minPrice);
  const [max, setMax] = useResettingState(maxPrice);
  const [negative, setNegative] = useState(false);
  const errorId = useId();
  const commit = useRef(onCommit);
  useLayoutEffect(() => {
    commit.current = onCommit;
  });
  const error = priceRangeError(min, max);
  useEffect(() => {
    if ((min === minPrice && max === maxPrice) || error) return undefined;
    const timer = setTimeout(() => {
      setNegative(false);
      commit.current({ minPrice: min, maxPrice: max });
    }, 600);
    return () => clearTimeout(timer);
  }, [min, max, minPrice, maxPrice, error]);
  // "No negatives" stays until the range is applied; a range the wrong way round says so first.
  const message = error || (negative ? "Prices cannot be negative." : "");
  return (
    <>
      <PriceInput label="Min price (₹)" text={min} setText={setMin} invalid={Boolean(message)} errorId={errorId}
                  onNegative={() => setNegative(true)} />
      <PriceInput label="Max price (₹)" text={max} setText={setMax} invalid={Boolean(message)} errorId={errorId}
                  onNegative={() => setNegative(true)} />
      {message && <p id={errorId} className="field__error filters__error" role="alert">{message}</p>}
    </>
  );
}

function Select({ label, value, onChange, children }) {
  const id = useId();
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>{children}</select>
    </div>
  );
}

/**
 * categories: [{_id, name}] or null while loading; hideCategory on a category's own page (and an exam's);
 * subjects: an exam page's [{slug, name}], offered instead of the category; hideSort when the sort is shown
 * apart (the phone's filter sheet).
 */
export function BookFilters({ filters, update, clear, hasFilters, categories, hideCategory = false, subjects = null,
  hideSort = false }) {
  const shop = useShop();
  // The server's lists (GET /api/shop); a language from a shared link shows even when it is not among them.
  const languages = shop?.languages ?? [];
  const formats = shop?.formats ?? [];
  return (
    <div className="filters" role="group" aria-label="Filter and sort books">
      {subjects && (
        <Select label="Subject" value={filters.subject} onChange={(subject) => update({ subject })}>
          <option value="">All subjects</option>
          {subjects.map((subject) => <option key={subject.slug} value={subject.slug}>{subject.name}</option>)}
        </Select>
      )}
      {!hideCategory && (
        <Select label="Category" value={filters.category.toLowerCase()} onChange={(category) => update({ category })}>
          <option value="">All categories</option>
          {(categories ?? []).map((category) => (
            <option key={category._id} value={category.name.toLowerCase()}>{category.name}</option>
          ))}
          {/* A category from a shared link shows even before the list arrives. */}
          {!categories && filters.category && <option value={filters.category.toLowerCase()}>{filters.category}</option>}
        </Select>
      )}
      {!hideSort && (
        <Select label="Sort by" value={filters.sortBy} onChange={(sortBy) => update({ sortBy })}>
          <option value="">{filters.search ? "Best match" : "Newest first"}</option>
          {SORTS.filter(([value]) => filters.search || value !== "newest").map(([value, text]) => (
            <option key={value} value={value}>{text}</option>
          ))}
        </Select>
      )}
      <PriceRange minPrice={filters.minPrice} maxPrice={filters.maxPrice} onCommit={update} />
      <Select label="Language" value={filters.language} onChange={(language) => update({ language })}>
        <option value="">Any language</option>
        {languages.map((language) => <option key={language} value={language}>{language}</option>)}
        {filters.language && !languages.includes(filters.language) && (
          <option value={filters.language}>{filters.language}</option>
        )}
      </Select>
      <Select label="Medium" value={filters.medium} onChange={(medium) => update({ medium })}>
        <option value="">Any medium</option>
        {MEDIA.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
      </Select>
      <Select label="Format" value={filters.format} onChange={(format) => update({ format })}>
        <option value="">Any format</option>
        {formats.map((format) => <option key={format} value={format}>{format}</option>)}
      </Select>
      <div className="filter filter--action">
        <button type="button" className="button button--secondary" onClick={clear} disabled={!hasFilters}>
          Clear Filters
        </button>
      </div>
    </div>
  );
}
