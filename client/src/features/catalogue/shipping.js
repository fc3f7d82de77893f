// The flat shipping charge shown beside a single book's price (decisions §4: on its own line).
export const SHIPPING_RUPEES = 40;
