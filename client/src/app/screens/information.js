// The shop's information pages, contact, the newsletter confirmation and the 404 screen.
// One lazy chunk per group of screens (app/router.jsx says why).
export { Component as About } from "../routes/about.jsx";
export { Component as Shipping } from "../routes/shipping.jsx";
export { Component as Faq } from "../routes/faq.jsx";
export { Component as Privacy } from "../routes/privacy.jsx";
export { Component as Terms } from "../routes/terms.jsx";
export { Component as Cookies } from "../routes/cookies.jsx";
export { Component as ReturnPolicy } from "../routes/return-policy.jsx";
export { Component as NotFound } from "../routes/not-found.jsx";
export { Component as NewsletterConfirm } from "../routes/newsletter-confirm.jsx";
export { Component as Contact } from "../routes/contact.jsx";
export { Component as AlertLink } from "../routes/alert-links.jsx";
