// A star rating read out as "Rated 4.3 out of 5".

export function Stars({ rating, count }) {
  const value = Number(rating) || 0;
  const full = Math.round(value);
  return (
    <p className="stars">
      <span className="stars__icons" aria-hidden="true">{"★".repeat(full)}{"☆".repeat(5 - full)}</span>
      <span className="sr-only">Rated </span>
      <span className="stars__value">{value.toFixed(1)}</span>
      <span className="sr-only"> out of 5</span>
      {count > 0 && <span className="stars__count"> ({count.toLocaleString("en-IN")}<span className="sr-only">{count === 1 ? " rating" : " ratings"}</span>)</span>}
    </p>
  );
}
