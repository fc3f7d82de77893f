// Small line icons for the side menu, drawn inline (no icon font, nothing to download). Decorative.
const PATHS = {
  dashboard: "M4 4h7v7H4zM13 4h7v4h-7zM13 10h7v10h-7zM4 13h7v7H4z",
  books: "M5 4h4v16H5zM10 4h4v16h-4zM15.5 5l3.5-1 3 15.5-3.5 1z",
  orders: "M6 3h12v18l-3-2-3 2-3-2-3 2zM9 8h6M9 12h6M9 16h4",
  mail: "M3 6h18v12H3zM3 7l9 6 9-6",
  star: "M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z",
  coupon: "M3 7h18v3a2 2 0 000 4v3H3v-3a2 2 0 000-4zM15 7v10M9 10l3 4",
  truck: "M2 6h12v10H2zM14 9h4l3 3v4h-7zM6 19a2 2 0 100-4 2 2 0 000 4zM17 19a2 2 0 100-4 2 2 0 000 4z",
  store: "M10 6l-6 6 6 6M4 12h16",
  logout: "M14 4h6v16h-6M10 8l-4 4 4 4M6 12h10",
  newsletter: "M4 5h16v14H4zM7 9h10M7 12h10M7 15h6",
  audit: "M12 4a8 8 0 100 16 8 8 0 000-16zM12 8v4l3 2",
};

export function Icon({ name }) {
  return (
    <svg className="adm-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
