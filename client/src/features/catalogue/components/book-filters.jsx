// The /books filters: category (or an exam's subjects), sort, price range, language, medium and format,
// and Clear Filters.
import { useEffect, useId, useRef, useState } from "react";
import { useShop } from "../../../lib/shop.js";
import { MEDIA, SORTS } from "../use-book-filters.js";

/** A rupee bound typed by the shopper, sent to the URL after a short pause. */
function PriceInput({ label, value, onCommit }) {
  const [text, setText] = useState(value);
  const id = useId();
  const commit = useRef(onCommit);
  commit.current = onCommit;
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return undefined;
    const timer = setTimeout(() => {
      if (text === "" || /^\d{1,7}(\.\d{1,2})?$/.test(text)) commit.current(text);
    }, 600);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <div className="filter">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="number" inputMode="decimal" min="0" step="1" value={text} placeholder="₹"
             onChange={(event) => setText(event.target.value)} />
    </div>
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
      <PriceInput label="Min price (₹)" value={filters.minPrice} onCommit={(minPrice) => update({ minPrice })} />
      <PriceInput label="Max price (₹)" value={filters.maxPrice} onCommit={(maxPrice) => update({ maxPrice })} />
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
