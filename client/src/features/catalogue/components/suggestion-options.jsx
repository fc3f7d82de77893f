// The suggestion list's fetching and options, loaded the first time a search box gets focus (its
// own lazy chunk, so the header's search box costs the first page only its input).
import { useEffect, useState } from "react";
import { formatRupees } from "../../../lib/money.js";
import { suggestBooks } from "../api.js";
import { shippingNote, useShop } from "../../../lib/shop.js";

const MATCHED_ON = { title: "Title", author: "Author", category: "Category", description: "Description" };
const DELAY_MS = 200;
const NONE = []; // one empty list, so onFound is not told of a new one on every render

/** Suggestions for the text typed, fetched after a pause; stale replies are dropped. */
function useSuggestions(text, enabled) {
  const [suggestions, setSuggestions] = useState([]);
  const query = text.trim();
  const wanted = enabled && query.length >= 2;
  // Too short a text (or a closed box) shows none, and forgets the last ones.
  if (!wanted && suggestions.length > 0) setSuggestions([]);
  useEffect(() => {
    if (!wanted) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      suggestBooks(query, { signal: controller.signal }).then(
        (found) => setSuggestions(found),
        // Product §2.6: a failed suggestion fetch shows no suggestions and nothing else.
        () => !controller.signal.aborted && setSuggestions([]),
      );
    }, DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, wanted]);
  return wanted ? suggestions : NONE;
}

/**
 * The options of the combobox's listbox: fetches suggestions for `text` while `enabled`, reports them
 * with onFound (the input's keyboard handling needs them) and shows them while `expanded`.
 */
export default function SuggestionOptions({ text, enabled, expanded, active, optionId, onFound, onPick, onHover }) {
  const suggestions = useSuggestions(text, enabled);
  const shipping = shippingNote(useShop());
  useEffect(() => onFound(suggestions), [suggestions, onFound]);
  if (!expanded) return null;
  return suggestions.map((suggestion, index) => (
    <li
      key={suggestion.book._id}
      id={optionId(index)}
      role="option"
      aria-selected={index === active}
      className="search-suggest__option"
      // mousedown, not click: a click would blur the input (closing the list) first.
      onMouseDown={(event) => {
        event.preventDefault();
        onPick(suggestion);
      }}
      onMouseEnter={() => onHover(index)}
    >
      <span className="search-suggest__title">{suggestion.book.title}</span>
      <span className="search-suggest__meta">
        {suggestion.book.author} · {MATCHED_ON[suggestion.matchedOn] ?? suggestion.matchedOn} match
      </span>
      {suggestion.preview && <span className="search-suggest__preview">{suggestion.preview}</span>}
      <span className="search-suggest__price">
        {formatRupees(suggestion.book.discountedPrice ?? suggestion.book.price)}
        {shipping && <span className="search-suggest__shipping"> {shipping}</span>}
      </span>
    </li>
  ));
}
