// A book page's "What buyers say": the average, the published reviews (newest first, more on demand) and,
// for a signed-in shopper the server allows, the form to write or edit their own review.
import { useCallback, useEffect, useId, useState } from "react";
import { Link, useLocation } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { Stars } from "../../../components/ui/stars.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { Field } from "../../../components/ui/field.jsx";
import { createReview, getMyReview, getReviews, updateMyReview } from "../api.js";

const PAGE_SIZE = 5;
const dateText = (iso) => new Date(iso).toLocaleDateString("en-IN", { day: "numeric", month: "short", year: "numeric" });

function ReviewStars({ stars }) {
  return (
    <span className="review__stars" role="img" aria-label={`${stars} out of 5 stars`}>
      {"★".repeat(stars)}{"☆".repeat(5 - stars)}
    </span>
  );
}

function ReviewForm({ bookId, existing, onSaved, onCancel }) {
  const [stars, setStars] = useState(existing?.stars ?? 0);
  const [title, setTitle] = useState(existing?.title ?? "");
  const [text, setText] = useState(existing?.text ?? "");
  const [error, setError] = useState(null);
  const [saving, setSaving] = useState(false);
  const legendId = useId();

  const submit = async (event) => {
    event.preventDefault();
    if (!stars) {
      setError("Choose 1 to 5 stars.");
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const fields = { stars, title, text };
      const reply = existing ? await updateMyReview(bookId, fields) : await createReview(bookId, fields);
      onSaved(reply.review, reply.message);
    } catch (failure) {
      setError(failure.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="review-form" onSubmit={submit} aria-label={existing ? "Edit your review" : "Write a review"}>
      {error && <Banner onDismiss={() => setError(null)}>{error}</Banner>}
      <fieldset className="review-form__stars" aria-labelledby={legendId}>
        <legend id={legendId}>Your rating</legend>
        {[1, 2, 3, 4, 5].map((value) => (
          <label key={value} className="review-form__star">
            <input type="radio" name="stars" value={value} checked={stars === value} onChange={() => setStars(value)} />
            {value} star{value === 1 ? "" : "s"}
          </label>
        ))}
      </fieldset>
      <Field label="Title (optional)">
        <input type="text" value={title} maxLength={120} onChange={(event) => setTitle(event.target.value)} />
      </Field>
      <Field label="Your review (optional)" hint="Up to 2,000 characters.">
        <textarea value={text} maxLength={2000} rows={4} onChange={(event) => setText(event.target.value)} />
      </Field>
      <p className="review-form__actions">
        <button type="submit" className="button" disabled={saving}>{existing ? "Save review" : "Submit review"}</button>
        {onCancel && <button type="button" className="button button--secondary" onClick={onCancel}>Cancel</button>}
      </p>
    </form>
  );
}

/** What the signed-in shopper may do: write, see and edit their own review, or read why not. */
function OwnReview({ bookId, onChanged }) {
  const [standing, setStanding] = useState(null);
  const [writing, setWriting] = useState(false);
  const [notice, setNotice] = useState(null);

  useEffect(() => {
    const controller = new AbortController();
    getMyReview(bookId, { signal: controller.signal }).then(setStanding).catch(() => {});
    return () => controller.abort();
  }, [bookId]);

  if (!standing) return null;
  const saved = (review, message) => {
    setStanding({ canReview: false, reason: null, review });
    setWriting(false);
    setNotice(message);
    onChanged();
  };
  const own = standing.review;
  return (
    <div className="reviews__own">
      {notice && <Banner tone="success" onDismiss={() => setNotice(null)}>{notice}</Banner>}
      {writing ? (
        <ReviewForm bookId={bookId} existing={own} onSaved={saved} onCancel={() => setWriting(false)} />
      ) : own ? (
        <div className="reviews__mine">
          <p>
            <strong>Your review:</strong> <ReviewStars stars={own.stars} /> {own.title}
            {own.status === "hidden" && <span className="reviews__hidden"> (hidden by the shop)</span>}
          </p>
          <button type="button" className="button button--secondary button--small" onClick={() => setWriting(true)}>
            Edit your review
          </button>
        </div>
      ) : standing.canReview ? (
        <button type="button" className="button" onClick={() => setWriting(true)}>Write a review</button>
      ) : (
        <p className="reviews__note">{standing.reason}</p>
      )}
    </div>
  );
}

export function BookReviews({ bookId, isSignedIn }) {
  const location = useLocation();
  const [state, setState] = useState({ status: "loading", reviews: [], page: 1, totalPages: 1 });
  const [version, setVersion] = useState(0);

  // The state is set when the page's answer comes, never while the request starts.
  const load = useCallback((page, signal) => getReviews(bookId, { page, limit: PAGE_SIZE, signal }).then(
    (reply) => setState((current) => ({
      status: "success", rating: reply.rating, ratingCount: reply.ratingCount, page,
      totalPages: reply.pagination.totalPages,
      reviews: page === 1 ? reply.reviews : [...current.reviews, ...reply.reviews],
    })),
    (error) => {
      if (error.name !== "AbortError") setState((current) => ({ ...current, status: "error" }));
    },
  ), [bookId]);

  useEffect(() => {
    const controller = new AbortController();
    load(1, controller.signal);
    return () => controller.abort();
  }, [load, version]);

  return (
    <section className="section reviews" aria-labelledby="reviews-title">
      <div className="section__head">
        <h2 id="reviews-title">What buyers say</h2>
      </div>
      {state.status === "success" && (
        state.ratingCount > 0
          ? <div className="reviews__summary"><Stars rating={state.rating} count={state.ratingCount} /></div>
          : <p className="reviews__note">No reviews yet.</p>
      )}
      {state.status === "error" && <p className="reviews__note">Reviews could not be loaded.</p>}
      {isSignedIn ? (
        <OwnReview bookId={bookId} onChanged={() => setVersion((n) => n + 1)} />
      ) : (
        <p className="reviews__note">
          <Link to={paths.login(location.pathname)}>Sign in</Link> to review a book you bought.
        </p>
      )}
      {state.reviews.length > 0 && (
        <ul className="reviews__list">
          {state.reviews.map((review) => (
            <li key={review._id} className="review">
              <p className="review__head">
                <ReviewStars stars={review.stars} />
                {review.title && <strong className="review__title"> {review.title}</strong>}
              </p>
              {review.text && <p className="review__text">{review.text}</p>}
              <p className="review__by">{review.reviewer}, {dateText(review.createdAt)}</p>
            </li>
          ))}
        </ul>
      )}
      {state.status === "success" && state.page < state.totalPages && (
        <button type="button" className="button button--secondary" onClick={() => load(state.page + 1)}>More reviews</button>
      )}
    </section>
  );
}
