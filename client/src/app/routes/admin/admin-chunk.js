// The admin area's one lazy chunk: every admin screen, and the stylesheet it links when it loads.
import stylesheet from "../../../features/admin/admin.css?url";
import { loadStylesheet } from "../../../features/admin/stylesheet.js";

export { AdminLayout } from "../../../features/admin/components/admin-layout.jsx";
export { AdminLogin } from "./login.jsx";
export { Dashboard } from "./dashboard.jsx";
export { ManageBooks } from "./books.jsx";
export { BookEditor } from "./book-editor.jsx";
export { ManageOrders } from "./orders.jsx";
export { ContactMessages } from "./contacts.jsx";
export { Coupons } from "./coupons.jsx";
export { CouponEditor } from "./coupon-editor.jsx";
export { KitScreens } from "./kit-screens.jsx";
export { ShopSettings } from "./shop-settings.jsx";
export { ManageReviews } from "./reviews.jsx";
export { ManageReturns } from "./returns.jsx";
export { StuckRefunds } from "./refunds.jsx";
export { AdminNotFound } from "./not-found.jsx";
export { Newsletter } from "./newsletter.jsx";
export { AuditLog } from "./audit.jsx";

/** Resolves when the admin styles apply, so no admin screen is ever drawn unstyled. */
export function stylesReady() {
  return loadStylesheet(stylesheet);
}
