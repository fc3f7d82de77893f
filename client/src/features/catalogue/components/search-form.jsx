// A catalogue search box that opens /books?search=...
import { useId, useState } from "react";
import { useNavigate } from "react-router-dom";
import { paths } from "../../../config/paths.js";

export function SearchForm() {
  const [text, setText] = useState("");
  const navigate = useNavigate();
  const inputId = useId();

  function submit(event) {
    event.preventDefault();
    navigate(paths.books({ search: text.trim() }));
  }

  return (
    <form className="search-form" role="search" onSubmit={submit}>
      <label htmlFor={inputId} className="search-form__label">Search books</label>
      <div className="search-form__row">
        <input
          id={inputId}
          type="search"
          name="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Title, author or ISBN"
          maxLength={200}
          autoComplete="off"
          enterKeyHint="search"
        />
        <button type="submit" className="button">Search</button>
      </div>
    </form>
  );
}
