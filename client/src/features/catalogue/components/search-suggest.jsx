// The catalogue search box with live suggestions (ARIA 1.2 combobox with a listbox popup).
import { useEffect, useId, useRef, useState } from "react";
import { formatRupees } from "../../../lib/money.js";
import { suggestBooks } from "../api.js";
import { shippingNote, useShop } from "../../../lib/shop.js";

const MATCHED_ON = { title: "Title", author: "Author", category: "Category", description: "Description" };
const DELAY_MS = 200;

/** Suggestions for the text typed, fetched after a pause; stale replies are dropped. */
function useSuggestions(text, enabled) {
  const [suggestions, setSuggestions] = useState([]);
  useEffect(() => {
    const query = text.trim();
    if (!enabled || query.length < 2) {
      setSuggestions([]);
      return undefined;
    }
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
  }, [text, enabled]);
  return suggestions;
}

/** onSearch(text) on submit; onPick(book) when a suggestion is chosen. */
export function SearchSuggest({ initial = "", onSearch, onPick, label = "Search books" }) {
  const [text, setText] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shipping = shippingNote(useShop());
  const suggestions = useSuggestions(text, open);
  const id = useId();
  const inputRef = useRef(null);
  const listId = `${id}-list`;
  const expanded = open && suggestions.length > 0;

  // The URL may change the search (Back, Clear Filters): follow it.
  useEffect(() => setText(initial), [initial]);
  useEffect(() => setActive(-1), [suggestions]);

  function pick(suggestion) {
    setOpen(false);
    onPick(suggestion.book);
  }

  function onKeyDown(event) {
    if (event.key === "ArrowDown" && suggestions.length) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % suggestions.length);
    } else if (event.key === "ArrowUp" && suggestions.length) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? suggestions.length - 1 : index - 1));
    } else if (event.key === "Escape") {
      if (expanded) event.preventDefault();
      setOpen(false);
    } else if (event.key === "Enter" && expanded && active >= 0) {
      event.preventDefault();
      pick(suggestions[active]);
    }
  }

  function submit(event) {
    event.preventDefault();
    setOpen(false);
    onSearch(text.trim());
  }

  return (
    <form className="search-form search-suggest" role="search" onSubmit={submit}>
      <label htmlFor={`${id}-input`} className="search-form__label">{label}</label>
      <div className="search-form__row">
        <div className="search-suggest__box">
          <input
            ref={inputRef}
            id={`${id}-input`}
            type="search"
            name="search"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
            placeholder="Title, author, ISBN or subject"
            maxLength={100}
            autoComplete="off"
            enterKeyHint="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
          />
          <ul id={listId} role="listbox" aria-label="Suggestions" className="search-suggest__list" hidden={!expanded}>
            {expanded && suggestions.map((suggestion, index) => (
              <li
                key={suggestion.book._id}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={index === active}
                className="search-suggest__option"
                // mousedown, not click: a click would blur the input (closing the list) first.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(suggestion);
                }}
                onMouseEnter={() => setActive(index)}
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
            ))}
          </ul>
        </div>
        <button type="submit" className="button">Search</button>
      </div>
    </form>
  );
}
