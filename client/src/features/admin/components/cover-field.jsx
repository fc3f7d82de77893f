// The cover picker: checks type, size and pixels in the browser, reads the file as a data URL, previews it.
import { useId, useState } from "react";
import { COVER_TYPES, MAX_COVER_BYTES, MAX_COVER_SIDE } from "../book-form-rules.js";

function megabytes(bytes) {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function readAsDataUrl(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(new Error("The file could not be read. Please choose it again."));
    reader.readAsDataURL(file);
  });
}

function imageSize(url) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => reject(new Error("The cover must be a JPEG, PNG or WebP image."));
    image.src = url;
  });
}

/** Why file cannot be a cover, or null; the server checks again by decoding it. */
async function coverProblem(file, url) {
  if (!COVER_TYPES.includes(file.type)) return "The cover must be a JPEG, PNG or WebP image.";
  if (file.size > MAX_COVER_BYTES) {
    return `This image is ${megabytes(file.size)}. The cover image must be at most 5 MB.`;
  }
  const { width, height } = await imageSize(url);
  if (width > MAX_COVER_SIDE || height > MAX_COVER_SIDE) {
    return `This image is ${width} × ${height} pixels. The cover image must be at most ${MAX_COVER_SIDE} pixels wide and high.`;
  }
  return null;
}

/**
 * currentUrl: the book's cover today; value: a newly chosen data URL or null.
 * onChange(dataUrl | null) and onProblem(message | null) report back to the form.
 */
export function CoverField({ currentUrl, value, onChange, error, onProblem, disabled }) {
  const id = useId();
  const [fileName, setFileName] = useState("");
  const [reading, setReading] = useState(false);
  const [inputKey, setInputKey] = useState(0); // a new key empties the file input
  const preview = value || currentUrl;

  const onFile = async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setReading(true);
    setFileName(file.name);
    try {
      // The size is checked before reading, so a huge file is never loaded into memory.
      const early = !COVER_TYPES.includes(file.type) || file.size > MAX_COVER_BYTES ? await coverProblem(file, null) : null;
      const url = early ? null : await readAsDataUrl(file);
      const problem = early ?? (await coverProblem(file, url));
      if (problem) {
        event.target.value = "";
        onChange(null);
        onProblem(problem);
      } else {
        onChange(url);
        onProblem(null);
      }
    } catch (failure) {
      event.target.value = "";
      onChange(null);
      onProblem(failure.message);
    } finally {
      setReading(false);
    }
  };

  const describedBy = [`${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className={`adm-field adm-cover${error ? " adm-field--invalid" : ""}`} id="field-imageUrl">
      <label htmlFor={`${id}-file`}>Cover image <span aria-hidden="true">*</span></label>
      <div className="adm-cover__row">
        <div className="adm-cover__preview">
          {preview
            ? <img src={preview} alt={value ? "Preview of the chosen cover" : "Current cover"} />
            : <span className="adm-cover__empty">No cover yet</span>}
        </div>
        <div className="adm-cover__controls">
          <input key={inputKey} id={`${id}-file`} name="cover" type="file" accept={COVER_TYPES.join(",")} onChange={onFile}
            disabled={disabled || reading} aria-describedby={describedBy} aria-invalid={Boolean(error)}
            data-field="imageUrl" />
          <p id={`${id}-hint`} className="adm-hint">
            JPEG, PNG or WebP, at most 5 MB and 4000 pixels a side.
            {reading && " Reading the image…"}
            {!reading && value && fileName && ` Chosen: ${fileName}.`}
            {!value && currentUrl && " Leave empty to keep the current cover."}
          </p>
          {value && (
            <button type="button" className="adm-button adm-button--small adm-button--secondary" onClick={() => {
              onChange(null);
              setFileName("");
              setInputKey((key) => key + 1);
            }}>
              {currentUrl ? "Keep the current cover" : "Remove"}
            </button>
          )}
          {error && <p id={`${id}-error`} className="adm-field__error">{error}</p>}
        </div>
      </div>
    </div>
  );
}
