// Browsing screens: the catalogue, categories and exams (a book's page is in book.js, the
// shelves and kits in shelves.js: a first visit to the catalogue or an exam downloads neither).
// One lazy chunk per group of screens (app/router.jsx says why).
export { Component as Books } from "../routes/books.jsx";
export { Component as Categories } from "../routes/categories.jsx";
export { Component as Category } from "../routes/category.jsx";
export { Component as Exams } from "../routes/exams.jsx";
export { Component as Exam } from "../routes/exam.jsx";
