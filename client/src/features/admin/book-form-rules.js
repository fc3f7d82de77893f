// The book form's values, its checks in the order of product §10.2, and the body sent to the API.
export const FORMATS = ["Paperback", "Hardcover", "E-Book", "Audiobook"];
export const MEDIA = [["english", "English"], ["hindi", "Hindi"], ["bilingual", "Bilingual"]];
export const MAX_COVER_BYTES = 5 * 1024 * 1024; // the server's limit on the decoded image
export const COVER_TYPES = ["image/jpeg", "image/png", "image/webp"];
export const MAX_COVER_SIDE = 4000;

// The order in which problems are reported, product §10.2's first, then the other fields top to bottom.
export const FIELD_ORDER = [
  "title", "author", "description", "price", "category", "weight", "imageUrl",
  "isbn", "stock", "discountedPrice", "publisher", "publishYear", "publicationDate", "pages", "language",
  "format", "dimensions", "tags", "medium", "editionYear", "editionNumber", "replacesId", "examIds", "subjectIds",
];

export const EMPTY_BOOK = {
  title: "", author: "", description: "", price: "", discountedPrice: "", category: "", weight: "",
  isbn: "", stock: "0", publisher: "", publishYear: "", pages: "", language: "English", format: "Paperback",
  dimensions: "", tags: "", medium: "english", editionYear: "", editionNumber: "", replacesId: "", examIds: [],
  subjectIds: [],
};

/** Form values (all strings) from a book of the API. */
export function valuesFromBook(book) {
  const text = (value) => (value === null || value === undefined ? "" : String(value));
  return {
    title: text(book.title),
    author: text(book.author),
    description: text(book.description),
    price: text(book.price),
    discountedPrice: text(book.discountedPrice),
    category: text(book.category),
    weight: text(book.weight),
    isbn: text(book.isbn),
    stock: text(book.stock ?? 0),
    publisher: text(book.publisher),
    publishYear: book.publicationDate ? book.publicationDate.slice(0, 4) : "",
    pages: text(book.pages),
    language: text(book.language) || "English",
    format: FORMATS.includes(book.format) ? book.format : "Paperback",
    dimensions: text(book.dimensions),
    tags: (book.tags ?? []).join(", "),
    medium: MEDIA.some(([value]) => value === book.medium) ? book.medium : "english",
    editionYear: text(book.editionYear),
    editionNumber: text(book.editionNumber),
    replacesId: text(book.replaces?._id),
    examIds: (book.exams ?? []).map((exam) => exam._id),
    subjectIds: (book.subjects ?? []).map((subject) => subject._id),
  };
}

const AMOUNT = /^\d+(\.\d{1,2})?$/;
const WHOLE = /^\d+$/;

/**
 * Problems with the form, as {field: message} in FIELD_ORDER (empty when it may be sent).
 * hasCover: the book keeps its cover or a new one was chosen.
 */
export function checkBook(values, { hasCover }) {
  const problems = {};
  const blank = (name) => values[name].trim() === "";
  if (blank("title")) problems.title = "Book title is required";
  if (blank("author")) problems.author = "Author is required";
  if (blank("description")) problems.description = "Description is required";
  const price = values.price.trim();
  if (!AMOUNT.test(price) || Number(price) <= 0) problems.price = "Valid price is required";
  if (blank("category")) problems.category = "Category is required";
  if (blank("weight")) problems.weight = "Weight is required";
  if (!hasCover) problems.imageUrl = "Book cover image is required";

  const isbn = values.isbn.replace(/[\s-]/g, "").toUpperCase();
  if (isbn && !/^(\d{9}[\dX]|\d{13})$/.test(isbn)) problems.isbn = "ISBN must have 10 or 13 digits (hyphens allowed).";
  if (!WHOLE.test(values.stock.trim() || "0")) problems.stock = "Stock must be a whole number, 0 or more.";
  const discounted = values.discountedPrice.trim();
  if (discounted && (!AMOUNT.test(discounted) || (AMOUNT.test(price) && Number(discounted) >= Number(price)))) {
    problems.discountedPrice = "Discounted price must be an amount below the price.";
  }
  const year = values.publishYear.trim();
  const lastYear = new Date().getFullYear() + 1;
  if (year && (!WHOLE.test(year) || Number(year) < 1900 || Number(year) > lastYear)) {
    problems.publishYear = `Publish year must be between 1900 and ${lastYear}.`;
  }
  const pages = values.pages.trim();
  if (pages && (!WHOLE.test(pages) || Number(pages) < 1)) problems.pages = "Pages must be at least 1.";
  const editionYear = values.editionYear.trim();
  if (editionYear && (!WHOLE.test(editionYear) || Number(editionYear) < 1900 || Number(editionYear) > lastYear)) {
    problems.editionYear = `Edition year must be between 1900 and ${lastYear}.`;
  }
  const editionNumber = values.editionNumber.trim();
  if (editionNumber && (!WHOLE.test(editionNumber) || Number(editionNumber) < 1 || Number(editionNumber) > 999)) {
    problems.editionNumber = "Edition number must be from 1 to 999.";
  }
  if (values.replacesId.trim() && !WHOLE.test(values.replacesId.trim())) {
    problems.replacesId = "The edition this book replaces is named by its book id, a number.";
  }
  return problems;
}

/** Server field errors ({field: [messages]}) as {field: message}, in FIELD_ORDER. */
export function serverProblems(errors) {
  if (!errors || typeof errors !== "object") return {};
  const problems = {};
  for (const name of [...FIELD_ORDER, ...Object.keys(errors)]) {
    const messages = errors[name];
    if (messages && !(name in problems)) problems[name] = Array.isArray(messages) ? messages.join(" ") : String(messages);
  }
  return problems;
}

/**
 * The JSON body for POST/PUT /api/books. Money stays text so rupees never pass through floats.
 * cover: a new data URL, or null to keep the current cover (edit).
 */
export function bookBody(values, { cover }) {
  const optionalNumber = (text) => (text.trim() === "" ? null : Number(text.trim()));
  const body = {
    title: values.title.trim(),
    author: values.author.trim(),
    description: values.description.trim(),
    price: values.price.trim(),
    discountedPrice: values.discountedPrice.trim() || null,
    category: values.category,
    weight: values.weight.trim(),
    isbn: values.isbn.trim() || null,
    stock: Number(values.stock.trim() || "0"),
    publisher: values.publisher.trim(),
    pages: optionalNumber(values.pages),
    language: values.language.trim() || "English",
    format: values.format,
    dimensions: values.dimensions.trim(),
    tags: values.tags.split(",").map((tag) => tag.trim()).filter(Boolean),
    medium: values.medium,
    editionYear: optionalNumber(values.editionYear),
    editionNumber: optionalNumber(values.editionNumber),
    replacesId: values.replacesId.trim() || null,
    examIds: values.examIds,
    subjectIds: values.subjectIds,
  };
  // A year sets the publication date to 1 January of it; an emptied year clears the date.
  if (values.publishYear.trim()) body.publishYear = Number(values.publishYear.trim());
  else body.publicationDate = null;
  // Left out on edit, the cover stays as it is.
  if (cover) body.imageUrl = cover;
  return body;
}
