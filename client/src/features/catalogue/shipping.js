// The flat shipping charge shown beside a single book's price (product §3.6: on its own line).
export const SHIPPING_RUPEES = 40;
