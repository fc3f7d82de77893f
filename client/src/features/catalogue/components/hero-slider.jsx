// The home page's three slides, advancing every 5 s; hover, focus, the Pause button and
// prefers-reduced-motion stop it (WCAG 2.2.2: moving content must be pausable).
import { useEffect, useId, useState } from "react";
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { useShippingFee } from "../../../lib/shop.js";

const SLIDES = [
  {
    title: "Discover Your Next Favorite Book",
    text: "School, university and competitive-exam books in one place, delivered across India.",
    action: { label: "Browse all books", to: paths.books() },
  },
  {
    title: "Best Sellers & New Releases",
    text: "See what students buy most, and the newest editions as they arrive.",
    action: { label: "See best sellers", to: paths.bestsellers() },
  },
  {
    title: "Fixed Shipping Charge",
    fee: true, // the title ends with the shop's fee (GET /api/shop)
    text: "One flat charge per order, anywhere in India. Pay online or cash on delivery.",
    action: { label: "Shipping details", to: paths.shipping() },
  },
];
const INTERVAL_MS = 5000;

function usePrefersReducedMotion() {
  const [reduced, setReduced] = useState(() => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false);
  useEffect(() => {
    const query = window.matchMedia?.("(prefers-reduced-motion: reduce)");
    if (!query) return undefined;
    const onChange = () => setReduced(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return reduced;
}

/** `aside` fills the hero's right half on wide screens. */
export function HeroSlider({ children, aside = null }) {
  const [current, setCurrent] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [paused, setPaused] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const id = useId();
  const fee = useShippingFee();
  const titleOf = (slide) => (slide.fee && fee ? `${slide.title} of ${fee}` : slide.title);
  const rotating = !paused && !hovered && !focused && !reducedMotion;

  useEffect(() => {
    if (!rotating) return undefined;
    const timer = setInterval(() => setCurrent((index) => (index + 1) % SLIDES.length), INTERVAL_MS);
    return () => clearInterval(timer);
  }, [rotating]);

  return (
    <section className="hero" aria-roledescription="carousel" aria-label="Highlights"
             onMouseEnter={() => setHovered(true)} onMouseLeave={() => setHovered(false)}>
      <div className="container hero__inner">
        <div className="hero__slides" aria-live={rotating ? "off" : "polite"}
             onFocus={() => setFocused(true)} onBlur={() => setFocused(false)}>
          {SLIDES.map((slide, index) => (
            <div key={slide.title} id={`${id}-slide-${index}`} className="hero__slide" role="group"
                 aria-roledescription="slide" aria-label={`${index + 1} of ${SLIDES.length}`} hidden={index !== current}>
              <h2 className="hero__title">{titleOf(slide)}</h2>
              <p className="hero__lead">{slide.text}</p>
              <Link className="button" to={slide.action.to}>{slide.action.label}</Link>
            </div>
          ))}
        </div>
        <div className="hero__controls">
          <button type="button" className="hero__pause" onClick={() => setPaused(!paused)}
                  aria-label={paused ? "Start rotating slides" : "Stop rotating slides"} hidden={reducedMotion}>
            <span aria-hidden="true">{paused ? "▶" : "❚❚"}</span>
          </button>
          <div className="hero__dots" role="group" aria-label="Choose a slide">
            {SLIDES.map((slide, index) => (
              <button key={slide.title} type="button" className="hero__dot" aria-controls={`${id}-slide-${index}`}
                      aria-label={`Slide ${index + 1}: ${titleOf(slide)}`} aria-current={index === current ? "true" : undefined}
                      onClick={() => setCurrent(index)} />
            ))}
          </div>
        </div>
        {children}
        {aside}
      </div>
    </section>
  );
}
