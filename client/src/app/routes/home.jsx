// The home screen: search, featured books and the category cards.
import { SearchForm } from "../../features/catalogue/components/search-form.jsx";
import { FeaturedBooks } from "../../features/catalogue/components/featured-books.jsx";
import { CategoryGrid } from "../../features/catalogue/components/category-grid.jsx";

export function Home() {
  return (
    <>
      <section className="hero" aria-labelledby="home-title">
        <div className="container">
          <h1 id="home-title">Study &amp; exam books, delivered across India</h1>
          <p className="hero__lead">
            School, university and competitive-exam books in one place. Flat ₹40 shipping on every order.
          </p>
          <SearchForm />
        </div>
      </section>
      <FeaturedBooks />
      <CategoryGrid />
    </>
  );
}
