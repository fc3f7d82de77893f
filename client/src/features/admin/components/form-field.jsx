// A labelled admin form control with its hint and error, wired up for screen readers.
import { Link } from "../../../lib/router.jsx";

/**
 * children({id, name, aria-invalid, aria-describedby, data-field}) draws the control; `prefix` keeps ids
 * unique on the page. The error sits right under the control, as the server or the form said it.
 */
export function FormField({ prefix, name, label, required, hint, error, wide, className, children }) {
  const id = `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const control = children({ id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy,
    "data-field": name, required });
  return (
    <div className={`adm-field${wide ? " adm-field--wide" : ""}${error ? " adm-field--invalid" : ""}${className ? ` ${className}` : ""}`}
      id={`field-${id}`}>
      <label htmlFor={id}>{label}{required && <span aria-hidden="true"> *</span>}</label>
      {control}
      {hint && <p id={`${id}-hint`} className="adm-hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="adm-field__error">{error}</p>}
    </div>
  );
}

/** A checkbox with its label beside it, and its error under it. */
export function CheckField({ prefix, name, label, hint, error, checked, onChange, disabled }) {
  const id = `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`adm-field adm-check${error ? " adm-field--invalid" : ""}`} id={`field-${id}`}>
      <span className="adm-check__row">
        <input type="checkbox" id={id} name={name} checked={checked} disabled={disabled} data-field={name}
          aria-invalid={error ? true : undefined} aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)} />
        <label htmlFor={id}>{label}</label>
      </span>
      {hint && <p id={`${id}-hint`} className="adm-hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="adm-field__error">{error}</p>}
    </div>
  );
}

/**
 * The form's error summary: the server's message first, then each field's problem as a link to the field.
 * `labels` names the fields; `fieldId(name)` is the id of a field's control (else its `data-field` is looked for).
 */
export function ErrorSummary({ message, problems, labels, fieldId, summaryRef, id }) {
  const list = Object.entries(problems);
  return (
    <div className="adm-alert adm-alert--error adm-summary" role="alert" tabIndex={-1} ref={summaryRef} aria-labelledby={id}>
      <div className="adm-alert__text">
        <p id={id} className="adm-summary__title">{message}</p>
        {list.length > 1 && (
          <ul>
            {list.map(([name, text]) => (
              <li key={name}><a href={`#${fieldId(name)}`} onClick={(event) => {
                event.preventDefault();
                // A control without that id (a file input, a group of checkboxes) is found by its data-field.
                (document.getElementById(fieldId(name)) ?? document.querySelector(`[data-field="${name}"]`))?.focus();
              }}>{labels[name] ?? name}: {text}</a></li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** An editor's closing row: Cancel (back to `cancelTo`) and the submit button, "Saving…" while it saves. */
export function EditorActions({ cancelTo, saving, label }) {
  return (
    <div className="adm-actions adm-actions--end">
      <Link to={cancelTo} className="adm-button adm-button--secondary">Cancel</Link>
      <button type="submit" className="adm-button" disabled={saving}>
        {saving ? "Saving…" : label}
      </button>
    </div>
  );
}
