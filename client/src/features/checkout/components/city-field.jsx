// The city input with the suggestions of product §5.1: an ARIA combobox over the cities and their other
// spellings, the PIN directory's name for the PIN typed first.
import { useId, useState } from "react";
import { suggestCities } from "../india.js";

export function CityField({ value, onChange, error, pinCity = "" }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = open ? suggestCities(value, pinCity) : [];
  const listId = `${id}-list`;
  const errorId = error ? `${id}-error` : undefined;

  function choose(city) {
    onChange(city);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event) {
    if (!suggestions.length) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((active + 1) % suggestions.length);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((active - 1 + suggestions.length) % suggestions.length);
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      choose(suggestions[active].city);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  }

  return (
    <div className={`field city-field ${error ? "field--invalid" : ""}`}>
      <label className="field__label" htmlFor={id}>City<span className="field__required" aria-hidden="true"> *</span></label>
      <input id={id} name="city" autoComplete="address-level2" required value={value}
        role="combobox" aria-autocomplete="list" aria-expanded={suggestions.length > 0} aria-controls={listId}
        aria-activedescendant={active >= 0 && suggestions[active] ? `${id}-option-${active}` : undefined}
        aria-invalid={error ? true : undefined} aria-describedby={errorId}
        onChange={(event) => { onChange(event.target.value); setOpen(true); setActive(-1); }}
        onKeyDown={onKeyDown} onBlur={() => setOpen(false)} />
      <ul id={listId} role="listbox" aria-label="Suggested cities" className="city-field__list" hidden={!suggestions.length}>
        {suggestions.map(({ city, label }, index) => (
          <li key={city} id={`${id}-option-${index}`} role="option" aria-selected={index === active}
            className="city-field__option" onMouseDown={(event) => { event.preventDefault(); choose(city); }}>
            {label}
          </li>
        ))}
      </ul>
      {error && <p className="field__error" id={errorId}>{error}</p>}
    </div>
  );
}
