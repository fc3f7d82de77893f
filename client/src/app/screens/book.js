// A book's own page, alone in its chunk: the page a shared or searched-for link opens first, so it
// downloads neither the catalogue's filters (catalogue.js) nor the shelves' and kits' code (shelves.js).
// One lazy chunk per group of screens (app/router.jsx says why).
export { Component as Book } from "../routes/book.jsx";
