// The catalogue search box with live suggestions (ARIA 1.2 combobox with a listbox popup). The
// options and their fetching load on the box's first focus (./suggestion-options.jsx): the header
// carries this box on every page, and the home page's JavaScript budget has no room for them.
import { lazy, Suspense, useId, useRef, useState } from "react";

const SuggestionOptions = lazy(() => import("./suggestion-options.jsx"));

/**
 * onSearch(text) on submit; onPick(book) when a suggestion is chosen. label names the box; `name`
 * tells this search landmark from others on the page; inputRef lets a caller focus the box.
 */
export function SearchSuggest({ initial = "", onSearch, onPick, label = "Search books", name, className = "",
  inputRef: outerRef, labelHidden = false }) {
  const [text, setText] = useState(initial);
  const [open, setOpen] = useState(false);
  const [suggestions, setSuggestions] = useState([]);
  const [active, setActive] = useState(-1);
  // Reset while rendering, as lib/use-resetting-state.js does (written out here, in the first page's code):
  // the URL may change the search (Back, Clear Filters) and the box follows it; new suggestions start with
  // none of them active.
  const [seen, setSeen] = useState({ initial, suggestions });
  if (seen.initial !== initial || seen.suggestions !== suggestions) {
    setSeen({ initial, suggestions });
    if (seen.initial !== initial) setText(initial);
    if (seen.suggestions !== suggestions) setActive(-1);
  }
  const [wanted, setWanted] = useState(false);
  const id = useId();
  const ownRef = useRef(null);
  const inputRef = outerRef ?? ownRef;
  const listId = `${id}-list`;
  const expanded = open && suggestions.length > 0;
  const optionId = (index) => `${id}-option-${index}`;

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
      if (expanded) {
        event.preventDefault();
        event.stopPropagation();
      }
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
    <form className={`search-form search-suggest ${className}`} role="search" aria-label={name} onSubmit={submit}>
      <label htmlFor={`${id}-input`} className={labelHidden ? "sr-only" : "search-form__label"}>{label}</label>
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
            onFocus={() => setWanted(true)}
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
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          />
          <ul id={listId} role="listbox" aria-label="Suggestions" className="search-suggest__list" hidden={!expanded}>
            {wanted && (
              <Suspense fallback={null}>
                <SuggestionOptions text={text} enabled={open} expanded={expanded} active={active} optionId={optionId}
                  onFound={setSuggestions} onPick={pick} onHover={setActive} />
              </Suspense>
            )}
          </ul>
        </div>
        <button type="submit" className="button">Search</button>
      </div>
    </form>
  );
}
