// The Add New Book / Edit Book form: every field, checks in the order of product §10.2, server errors by field.
import { useState } from "react";
import { bookBody, checkBook, FIELD_ORDER, FORMATS, MEDIA, serverProblems } from "../book-form-rules.js";
import { adminPaths } from "../paths.js";
import { useRequest } from "../../../lib/use-request.js";
import { useAdminForm } from "../use-admin-form.js";
import { CoverField } from "./cover-field.jsx";
import { EditorActions, ErrorSummary, FormField } from "./form-field.jsx";

const PREFIX = "book";
const fieldId = (name) => `${PREFIX}-${name}`;

const LABELS = {
  title: "Title", author: "Author", description: "Description", price: "Price (₹)", category: "Category",
  weight: "Weight", imageUrl: "Cover image", isbn: "ISBN", stock: "Stock", discountedPrice: "Offer price (₹)",
  publisher: "Publisher", publishYear: "Publish year", publicationDate: "Publish year", pages: "Pages",
  language: "Language", format: "Format", dimensions: "Dimensions", tags: "Tags", medium: "Medium",
  editionYear: "Edition year", editionNumber: "Edition number", replacesId: "Replaces edition", examIds: "Exams",
  subjectIds: "Subjects",
};

/** The exams a book prepares for, by group, each checked exam offering its subjects. */
function ExamPicker({ source, values, setValues, disabled, error }) {
  const { status, data } = useRequest(source.load);
  const toggle = (name, id) => setValues((current) => {
    const chosen = current[name].includes(id) ? current[name].filter((other) => other !== id) : [...current[name], id];
    if (name !== "examIds" || chosen.includes(id)) return { ...current, [name]: chosen };
    // Unticking an exam unticks its subjects too.
    const exam = data.find((item) => item._id === id);
    const dropped = new Set(exam.subjects.map((subject) => subject._id));
    return { ...current, examIds: chosen, subjectIds: current.subjectIds.filter((other) => !dropped.has(other)) };
  });
  if (status === "loading") return <p className="adm-hint">Loading exams…</p>;
  if (status === "error") return <p className="adm-field__error">The exams could not be loaded.</p>;
  return (
    <div className="adm-exams" id="field-examIds">
      {error && <p className="adm-field__error" id="book-exams-error">{error}</p>}
      {source.group(data).map(([group, exams]) => (
        <fieldset key={group} className="adm-exams__group">
          <legend>{group}</legend>
          {exams.map((exam) => {
            const checked = values.examIds.includes(exam._id);
            return (
              <div key={exam._id} className="adm-exams__exam">
                <label>
                  <input type="checkbox" checked={checked} disabled={disabled} data-field="examIds"
                    onChange={() => toggle("examIds", exam._id)} /> {exam.name}
                </label>
                {checked && exam.subjects.length > 0 && (
                  <fieldset className="adm-exams__subjects">
                    <legend className="sr-only">{exam.name} subjects</legend>
                    {exam.subjects.map((subject) => (
                      <label key={subject._id}>
                        <input type="checkbox" checked={values.subjectIds.includes(subject._id)} disabled={disabled}
                          onChange={() => toggle("subjectIds", subject._id)} /> {subject.name}
                      </label>
                    ))}
                  </fieldset>
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}

/**
 * initial: form values; currentCover: the book's cover URL (edit) or null.
 * onSubmit(body) resolves when saved or throws an ApiError (its field errors are shown here).
 * exams: {load({signal}), group(exams)}, the exams feature's list and grouping, handed over by the app.
 */
export function BookForm({ initial, currentCover, categories, exams, editing, onSubmit, failureTitle }) {
  const { values, setValues, problems, setProblems, failure, setFailure, saving, setSaving, summaryRef, summaryId, bind,
    field } = useAdminForm({ initial, prefix: PREFIX, labels: LABELS });
  const [cover, setCover] = useState(null);
  const [coverProblem, setCoverProblem] = useState(null);
  const lastYear = new Date().getFullYear() + 1;

  // A newly chosen file replaces whatever was said about the cover before.
  const onCoverProblem = (problem) => {
    setCoverProblem(problem);
    setProblems(({ imageUrl, ...others }) => others);
  };

  const submit = async (event) => {
    event.preventDefault();
    setFailure(null);
    const found = checkBook(values, { hasCover: Boolean(cover || currentCover) });
    if (coverProblem) found.imageUrl = coverProblem;
    const ordered = Object.fromEntries(FIELD_ORDER.filter((name) => found[name]).map((name) => [name, found[name]]));
    setProblems(ordered);
    if (Object.keys(ordered).length > 0) return;
    setSaving(true);
    try {
      await onSubmit(bookBody(values, { cover }));
    } catch (error) {
      const fromServer = serverProblems(error.errors);
      setProblems(fromServer);
      setFailure(Object.keys(fromServer).length > 0 ? error.message : `${failureTitle}. ${error.message ?? ""}`.trim());
      setSaving(false);
    }
  };

  const problemList = Object.entries(problems);
  const err = (name) => problems[name];
  return (
    <form className="adm-form adm-book-form" onSubmit={submit} noValidate aria-busy={saving}>
      {(failure || problemList.length > 0) && (
        <ErrorSummary message={failure ?? problemList[0][1]} problems={problems} labels={LABELS} fieldId={fieldId}
          summaryRef={summaryRef} id={summaryId} />
      )}

      <fieldset className="adm-fieldset">
        <legend>Book</legend>
        <div className="adm-grid">
          <FormField {...field("title")} required wide>
            {(props) => <input type="text" maxLength={255} {...bind(props)} />}
          </FormField>
          <FormField {...field("author")} required>
            {(props) => <input type="text" maxLength={200} {...bind(props)} />}
          </FormField>
          <FormField {...field("category")} required>
            {(props) => (
              <select {...bind(props)}>
                <option value="">Choose a category</option>
                {categories.map((category) => <option key={category._id} value={category.name}>{category.name}</option>)}
              </select>
            )}
          </FormField>
          <FormField {...field("description")} required wide>
            {(props) => <textarea rows={5} maxLength={10000} {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="adm-fieldset">
        <legend>Price and stock</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("price")} required hint="In rupees, e.g. 499 or 499.50.">
            {(props) => <input type="number" min="0" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("discountedPrice")} hint="Optional, below the price.">
            {(props) => <input type="number" min="0" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("stock")} hint="Copies on hand.">
            {(props) => <input type="number" min="0" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="adm-fieldset">
        <legend>Details</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("isbn")} hint="10 or 13 digits; hyphens allowed.">
            {(props) => <input type="text" inputMode="numeric" maxLength={20} autoComplete="off" {...bind(props)} />}
          </FormField>
          <FormField {...field("publisher")}>
            {(props) => <input type="text" maxLength={200} {...bind(props)} />}
          </FormField>
          <FormField {...field("publishYear")} error={err("publishYear") ?? err("publicationDate")}
            hint={`1900 to ${lastYear}.`}>
            {(props) => <input type="number" min="1900" max={lastYear} step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("pages")}>
            {(props) => <input type="number" min="1" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("language")}>
            {(props) => <input type="text" maxLength={40} {...bind(props)} />}
          </FormField>
          <FormField {...field("format")}>
            {(props) => (
              <select {...bind(props)}>
                {FORMATS.map((format) => <option key={format} value={format}>{format}</option>)}
              </select>
            )}
          </FormField>
          <FormField {...field("weight")} required hint="For example 500g.">
            {(props) => <input type="text" maxLength={20} {...bind(props)} />}
          </FormField>
          <FormField {...field("dimensions")} hint="For example 24 × 18 × 2 cm.">
            {(props) => <input type="text" maxLength={60} {...bind(props)} />}
          </FormField>
          <FormField {...field("tags")} hint="Separated by commas.">
            {(props) => <input type="text" {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="adm-fieldset">
        <legend>Medium, edition and exams</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("medium")} hint="What the shop's Medium filter finds it by.">
            {(props) => (
              <select {...bind(props)}>
                {MEDIA.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </select>
            )}
          </FormField>
          <FormField {...field("editionYear")} hint={`For example 2026; 1900 to ${lastYear}.`}>
            {(props) => <input type="number" min="1900" max={lastYear} step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("editionNumber")} hint="For example 5 for the 5th edition.">
            {(props) => <input type="number" min="1" max="999" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("replacesId")}
            hint="The book id of the older edition this one replaces; it will link here.">
            {(props) => <input type="text" inputMode="numeric" maxLength={12} autoComplete="off" {...bind(props)} />}
          </FormField>
        </div>
        <ExamPicker source={exams} values={values} setValues={setValues} disabled={saving} error={err("examIds") ?? err("subjectIds")} />
      </fieldset>

      <fieldset className="adm-fieldset">
        <legend>Cover</legend>
        <CoverField currentUrl={currentCover} value={cover} onChange={setCover} disabled={saving}
          error={coverProblem ?? err("imageUrl")} onProblem={onCoverProblem} />
      </fieldset>

      <EditorActions cancelTo={adminPaths.books()} saving={saving} label={editing ? "Update Book" : "Add Book"} />
    </form>
  );
}
