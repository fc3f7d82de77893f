// Sign-in, registration, account links and the shopper's own pages.
// One lazy chunk per group of screens (app/router.jsx says why).
export { Component as Login } from "../routes/login.jsx";
export { Component as Register } from "../routes/register.jsx";
export { Component as AuthCallback } from "../routes/auth-callback.jsx";
export { Component as VerifyEmail } from "../routes/verify-email.jsx";
export { Component as UndoEmailChange } from "../routes/undo-email-change.jsx";
export { Component as ForgotPassword } from "../routes/forgot-password.jsx";
export { Component as ResetPassword } from "../routes/reset-password.jsx";
export { Component as Profile } from "../routes/profile.jsx";
export { Component as Orders } from "../routes/orders.jsx";
export { Component as OrderView } from "../routes/order-view.jsx";
export { Component as Wishlist } from "../routes/wishlist.jsx";
export { Component as MyAlerts } from "../routes/alerts.jsx";
