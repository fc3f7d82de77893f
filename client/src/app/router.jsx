// The one route table. AppProviders (account and cart state) is the root; the shopper's screens sit
// under SiteLayout (header and footer); admin screens go beside SiteLayout with their own frame.
//
// The router is the app's own small module (lib/router.jsx, on wouter): react-router-dom was 20 KB of
// the 100 KB gzipped that a shopper's first page may download (issue 16), React DOM alone about 60.
// Every screen but home is lazy, in one of six groups (./screens/); a route file exports `Component`.
import { lazy, Suspense } from "react";
import { Outlet, Route, Routes, useLocation } from "../lib/router.jsx";
import { AppProviders } from "./providers.jsx";
import { SiteLayout } from "./layout/site-layout.jsx";
import { Home } from "./routes/home.jsx";
import { RouteErrorBoundary } from "./routes/route-error.jsx";
import { Loading } from "../components/ui/request-state.jsx";

/** A screen loaded on first visit: the export `name` of a screen group's module. */
function screen(load, name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

// Screens load in six groups rather than one chunk each: esbuild gives every set of chunks that
// share a module a chunk of its own, and thirty screens made twenty tiny shared chunks that a
// first visit fetched one by one (each a round trip on a phone network).
const catalogue = () => import("./screens/catalogue.js");
const book = () => import("./screens/book.js");
const shelves = () => import("./screens/shelves.js");
const information = () => import("./screens/information.js");
const shopping = () => import("./screens/shopping.js");
const account = () => import("./screens/account.js");

const Books = screen(catalogue, "Books");
const Book = screen(book, "Book");
const Categories = screen(catalogue, "Categories");
const Category = screen(catalogue, "Category");
const Exams = screen(catalogue, "Exams");
const Exam = screen(catalogue, "Exam");
const Kit = screen(shelves, "Kit");
const Bestsellers = screen(shelves, "Bestsellers");
const NewReleases = screen(shelves, "NewReleases");
const About = screen(information, "About");
const Shipping = screen(information, "Shipping");
const Faq = screen(information, "Faq");
const Privacy = screen(information, "Privacy");
const Terms = screen(information, "Terms");
const Cookies = screen(information, "Cookies");
const ReturnPolicy = screen(information, "ReturnPolicy");
const NotFound = screen(information, "NotFound");
const NewsletterConfirm = screen(information, "NewsletterConfirm");
const AlertLink = screen(information, "AlertLink");
const Contact = screen(information, "Contact");
const Cart = screen(shopping, "Cart");
const Checkout = screen(shopping, "Checkout");
const OrderSuccess = screen(shopping, "OrderSuccess");
const OrderLookup = screen(shopping, "OrderLookup");
const Login = screen(account, "Login");
const Register = screen(account, "Register");
const AuthCallback = screen(account, "AuthCallback");
const VerifyEmail = screen(account, "VerifyEmail");
const UndoEmailChange = screen(account, "UndoEmailChange");
const ForgotPassword = screen(account, "ForgotPassword");
const ResetPassword = screen(account, "ResetPassword");
const Profile = screen(account, "Profile");
const Orders = screen(account, "Orders");
const OrderView = screen(account, "OrderView");
const Wishlist = screen(account, "Wishlist");
const MyAlerts = screen(account, "MyAlerts");

/**
 * The admin area is one lazy chunk with its own stylesheet, loaded on the first visit to an admin
 * address: a shopper downloads neither. Each screen waits for the styles, so none flashes unstyled.
 */
function adminScreen(name) {
  return lazy(async () => {
    const chunk = await import("./routes/admin/admin-chunk.js");
    await chunk.stylesReady();
    return { default: chunk[name] };
  });
}

const AdminLogin = adminScreen("AdminLogin");
const AdminLayout = adminScreen("AdminLayout");
const Dashboard = adminScreen("Dashboard");
const ManageBooks = adminScreen("ManageBooks");
const BookEditor = adminScreen("BookEditor");
const ManageOrders = adminScreen("ManageOrders");
const ContactMessages = adminScreen("ContactMessages");
const Coupons = adminScreen("Coupons");
const CouponEditor = adminScreen("CouponEditor");
const KitScreens = adminScreen("KitScreens");
const ShopSettings = adminScreen("ShopSettings");
const ManageReviews = adminScreen("ManageReviews");
const ManageReturns = adminScreen("ManageReturns");
const StuckRefunds = adminScreen("StuckRefunds");
const AdminNotFound = adminScreen("AdminNotFound");
const Newsletter = adminScreen("Newsletter");
const AuditLog = adminScreen("AuditLog");

/** The frame of admin addresses: no shop header or footer (product §2.2), one boundary per address. */
function AdminFrame() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<div className="container"><Loading /></div>}>
        <Outlet />
      </Suspense>
    </RouteErrorBoundary>
  );
}

export function AppRouter() {
  return (
    <Routes>
      <Route element={<AppProviders />}>
        <Route element={<SiteLayout />}>
          <Route index element={<Home />} />
          {/* Catalogue */}
          <Route path="books" element={<Books />} />
          <Route path="book/:id" element={<Book />} />
          <Route path="categories" element={<Categories />} />
          <Route path="category/:name" element={<Category />} />
          <Route path="exams" element={<Exams />} />
          <Route path="exam/:slug" element={<Exam />} />
          <Route path="kit/:slug" element={<Kit />} />
          <Route path="bestsellers" element={<Bestsellers />} />
          <Route path="new-releases" element={<NewReleases />} />
          <Route path="newsletter/:step" element={<NewsletterConfirm />} />
          <Route path="alerts/:action" element={<AlertLink />} />
          {/* Information */}
          <Route path="about" element={<About />} />
          <Route path="shipping" element={<Shipping />} />
          <Route path="faq" element={<Faq />} />
          <Route path="privacy" element={<Privacy />} />
          <Route path="terms" element={<Terms />} />
          <Route path="cookies" element={<Cookies />} />
          <Route path="return-policy" element={<ReturnPolicy />} />
          {/* Cart, checkout and account */}
          <Route path="cart" element={<Cart />} />
          <Route path="checkout" element={<Checkout />} />
          <Route path="order/success" element={<OrderSuccess />} />
          <Route path="login" element={<Login />} />
          <Route path="register" element={<Register />} />
          <Route path="auth/callback" element={<AuthCallback />} />
          <Route path="verify-email" element={<VerifyEmail />} />
          <Route path="undo-email-change" element={<UndoEmailChange />} />
          <Route path="forgot-password" element={<ForgotPassword />} />
          <Route path="reset-password" element={<ResetPassword />} />
          <Route path="profile" element={<Profile />} />
          <Route path="orders" element={<Orders />} />
          <Route path="orders/:id" element={<OrderView />} />
          <Route path="order" element={<Orders />} />
          <Route path="wishlist" element={<Wishlist />} />
          <Route path="alerts" element={<MyAlerts />} />
          <Route path="order-lookup" element={<OrderLookup />} />
          <Route path="contact" element={<Contact />} />
          <Route path="*" element={<NotFound />} />
        </Route>
        <Route element={<AdminFrame />}>
          <Route path="admin-login" element={<AdminLogin />} />
          <Route path="admin" element={<AdminLayout />}>
            <Route index element={<Dashboard />} />
            <Route path="books" element={<ManageBooks />} />
            <Route path="books/new" element={<BookEditor />} />
            <Route path="books/edit/:id" element={<BookEditor />} />
            <Route path="orders" element={<ManageOrders />} />
            <Route path="contacts" element={<ContactMessages />} />
            <Route path="coupons" element={<Coupons />} />
            <Route path="coupons/new" element={<CouponEditor />} />
            <Route path="coupons/edit/:id" element={<CouponEditor />} />
            <Route path="kits/*" element={<KitScreens />} />
            <Route path="shipping-payments" element={<ShopSettings />} />
            <Route path="reviews" element={<ManageReviews />} />
            <Route path="returns" element={<ManageReturns />} />
            <Route path="refunds" element={<StuckRefunds />} />
            <Route path="newsletter" element={<Newsletter />} />
            <Route path="audit" element={<AuditLog />} />
            <Route path="*" element={<AdminNotFound />} />
          </Route>
        </Route>
      </Route>
    </Routes>
  );
}
