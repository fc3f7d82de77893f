// A book's cover: lazy-loaded with its size set, or a placeholder when missing or broken.
import { useState } from "react";

/** size "card" uses the thumbnail with the full cover for dense screens; "detail" the full cover. */
export function BookCover({ book, size = "card", className = "", eager = false }) {
  const [failed, setFailed] = useState(false);
  const src = size === "card" ? book.thumbnailUrl || book.imageUrl : book.imageUrl || book.thumbnailUrl;
  if (!src || failed) {
    return (
      <div className={`book-cover book-cover--placeholder ${className}`} role="img"
           aria-label={`No cover image for ${book.title}`}>
        <span aria-hidden="true">{book.title.slice(0, 1)}</span>
      </div>
    );
  }
  const srcSet = size === "card" && book.thumbnailUrl && book.imageUrl
    ? `${book.thumbnailUrl} 150w, ${book.imageUrl} 300w` : undefined;
  return (
    <img
      className={`book-cover ${className}`}
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? "(min-width: 48rem) 12rem, 45vw" : undefined}
      alt={`Cover of ${book.title}`}
      width={size === "card" ? 150 : 300}
      height={size === "card" ? 225 : 450}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : undefined}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
