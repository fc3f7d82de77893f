// Rupee amounts as shoppers read them: ₹1,23,456.00 (Indian digit grouping, 2 decimals).
const RUPEES = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Format a rupee amount from the API (a number with at most 2 decimals). */
export function formatRupees(amount) {
  return RUPEES.format(Number(amount) || 0);
}
