// Screens that list books with their details and buying actions: the best-seller and new-release
// shelves, and a kit's page.
// One lazy chunk per group of screens (app/router.jsx says why).
export { Component as Kit } from "../routes/kit.jsx";
export { Component as Bestsellers } from "../routes/bestsellers.jsx";
export { Component as NewReleases } from "../routes/new-releases.jsx";
