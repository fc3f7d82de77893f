// Browsing screens: the catalogue, a book, categories, exams and the shelves.
// One lazy chunk per group of screens (app/router.jsx says why).
export { Component as Books } from "../routes/books.jsx";
export { Component as Book } from "../routes/book.jsx";
export { Component as Categories } from "../routes/categories.jsx";
export { Component as Category } from "../routes/category.jsx";
export { Component as Bestsellers } from "../routes/bestsellers.jsx";
export { Component as NewReleases } from "../routes/new-releases.jsx";
export { Component as Exams } from "../routes/exams.jsx";
export { Component as Exam } from "../routes/exam.jsx";
export { Component as Kit } from "../routes/kit.jsx";
