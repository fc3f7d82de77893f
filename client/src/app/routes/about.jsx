// /about: who the shop is, with live figures from the catalogue.
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { useShippingFee } from "../../lib/shop.js";
import { useRequest } from "../../lib/use-request.js";
import { ContentPage } from "../../components/ui/content-page.jsx";
import { getCategories } from "../../features/catalogue/api.js";

function CatalogueFigures() {
  const { status, data } = useRequest(getCategories);
  const fee = useShippingFee();
  if (status !== "success") return null;
  const books = data.reduce((total, category) => total + (category.bookCount ?? 0), 0);
  return (
    <ul className="figures" aria-label="The shop in numbers">
      <li><strong>{books.toLocaleString("en-IN")}</strong> books in stock and on order</li>
      <li><strong>{data.length}</strong> categories</li>
      <li><strong>{fee}</strong> flat shipping per order</li>
    </ul>
  );
}

export function About() {
  const fee = useShippingFee();
  return (
    <ContentPage title="About Us"
                 description="An Indian online bookstore for school, university and competitive-exam books, delivered across India."
                 lead="Study and exam books for students across India, at fair prices, delivered to your door.">
      <CatalogueFigures />
      <h2>What we do</h2>
      <p>
        We started the Bookstore for students who cannot find the right textbook, guide or previous-year paper in
        their town. Our shelves cover school classes I to XII, university courses such as B.A., B.Com and MBA,
        engineering and medical subjects, and the competitive exams: IIT-JEE, NEET, UPSC, GATE, UGC NET, banking
        and more.
      </p>
      <h2>How we work</h2>
      <ul className="bullets">
        <li>Prices in rupees, with one flat {fee} shipping charge per order.</li>
        <li>Cash on delivery everywhere, or secure online payment by card, UPI, net banking or wallet.</li>
        <li>Orders packed within 24 hours and delivered in 3–5 business days.</li>
        <li>New, original copies only, with the edition shown on every book page.</li>
      </ul>
      <h2>Talk to us</h2>
      <p>
        Missing a book you need? <Link to={paths.contact()}>Write to us</Link>: we read every message and add the
        titles students ask for.
      </p>
    </ContentPage>
  );
}

export { About as Component };
