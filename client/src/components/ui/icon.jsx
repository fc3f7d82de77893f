// Icons drawn from one SVG sprite file (icons.svg), fetched once and cached: no emoji (they show as empty
// boxes without an emoji font) and no path data in the JavaScript.
import sprite from "./icons.svg";

/**
 * A decorative icon from the sprite (hidden from assistive technology: the text beside it says it). The
 * categories' icons are named by their slugs (the 18 categories are fixed by the first migration).
 */
export function Icon({ name, className = "icon", size = 24 }) {
  return (
    <svg className={className} width={size} height={size} aria-hidden="true">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
