// An e-book's or audiobook's file (product §7.11): what is stored now, and an upload that replaces it. The server
// checks the file by its bytes; without a file the book can't be bought.
import { useId, useState } from "react";
import { uploadBookFile } from "../api.js";

function size(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export function BookFileField({ book }) {
  const id = useId();
  const [file, setFile] = useState(book.file);
  const [chosen, setChosen] = useState(null);
  const [state, setState] = useState({ busy: false, error: "", done: "" });
  const audio = book.format === "Audiobook";

  async function upload(event) {
    event.preventDefault();
    if (!chosen) {
      setState({ busy: false, error: "Choose the book's file first.", done: "" });
      return;
    }
    setState({ busy: true, error: "", done: "" });
    try {
      const reply = await uploadBookFile(book._id, chosen);
      setFile(reply.book.file);
      setState({ busy: false, error: "", done: reply.message });
    } catch (error) {
      setState({ busy: false, error: error.message, done: "" });
    }
  }

  return (
    <section className="adm-panel adm-book-file" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{audio ? "Audiobook file" : "E-book file"}</h2>
      <p role="status">
        {file ? `Stored: ${file.name} (${file.type}, ${size(file.size)}).`
          : "No file yet: shoppers see this book as unavailable until one is uploaded."}
      </p>
      <form className="adm-form" onSubmit={upload} noValidate aria-busy={state.busy}>
        <div className="adm-field">
          <label htmlFor={`${id}-file`}>{file ? "Replace the file" : "Upload the file"} ({audio ? "MP3 or M4B" : "PDF or EPUB"})</label>
          <input id={`${id}-file`} type="file" name="file" disabled={state.busy}
            accept={audio ? ".mp3,.m4b,audio/mpeg,audio/mp4" : ".pdf,.epub,application/pdf,application/epub+zip"}
            aria-describedby={state.error ? `${id}-error` : undefined}
            onChange={(event) => setChosen(event.target.files?.[0] ?? null)} />
          {state.error && <p className="adm-field__error" id={`${id}-error`} role="alert">{state.error}</p>}
          {state.done && <p className="adm-field__hint">{state.done}</p>}
        </div>
        <button type="submit" className="adm-button" disabled={state.busy}>{state.busy ? "Uploading…" : "Upload file"}</button>
      </form>
    </section>
  );
}
