// Icons drawn from one SVG sprite file (icons.svg), fetched once and cached: no emoji (they show as empty
// boxes without an emoji font) and no path data in the JavaScript.
import sprite from "./icons.svg";

/** The categories' icons by slug; a category without its own icon shows a book. */
const CATEGORY_ICONS = new Set(["school", "ba", "bcom", "ma", "medical-technical", "engineering-computer", "iit",
  "bba", "mba", "pmt", "ias", "gate", "net", "gre", "gmat", "sat", "banking"]);

/** A decorative icon from the sprite (hidden from assistive technology: the text beside it says it). */
export function Icon({ name, className = "icon", size = 24 }) {
  return (
    <svg className={className} width={size} height={size} aria-hidden="true" focusable="false" data-icon={name}>
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}

/** A category's icon by its slug. */
export function CategoryIcon({ slug, ...props }) {
  return <Icon name={CATEGORY_ICONS.has(slug) ? slug : "book"} {...props} />;
}
