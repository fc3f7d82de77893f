// Address reference data. The server accepts exactly these names (bookstore/services/india.py).

// Product §5.2: the 28 states and every union territory (an older list had 29) are offered, so nobody in
// Chandigarh, Jammu and Kashmir or Puducherry is turned away.
export const STATES = [
  "Andhra Pradesh", "Arunachal Pradesh", "Assam", "Bihar", "Chhattisgarh", "Goa", "Gujarat", "Haryana",
  "Himachal Pradesh", "Jharkhand", "Karnataka", "Kerala", "Madhya Pradesh", "Maharashtra", "Manipur",
  "Meghalaya", "Mizoram", "Nagaland", "Odisha", "Punjab", "Rajasthan", "Sikkim", "Tamil Nadu", "Telangana",
  "Tripura", "Uttar Pradesh", "Uttarakhand", "West Bengal",
];

export const UNION_TERRITORIES = [
  "Andaman and Nicobar Islands", "Chandigarh", "Dadra and Nagar Haveli and Daman and Diu", "Delhi",
  "Jammu and Kashmir", "Ladakh", "Lakshadweep", "Puducherry",
];

/** Product §5.1: the 20 cities the city field suggests. */
export const CITIES = [
  "Mumbai", "Delhi", "Bangalore", "Hyderabad", "Chennai", "Kolkata", "Pune", "Ahmedabad", "Jaipur", "Surat",
  "Lucknow", "Kanpur", "Nagpur", "Indore", "Thane", "Bhopal", "Visakhapatnam", "Pimpri-Chinchwad", "Patna",
  "Vadodara",
];

/** Cities containing the typed text, once more than one character is typed (product §5.1). */
export function suggestCities(text) {
  const typed = text.trim().toLowerCase();
  if (typed.length < 2) return [];
  const starts = CITIES.filter((city) => city.toLowerCase().startsWith(typed));
  const contains = CITIES.filter((city) => !starts.includes(city) && city.toLowerCase().includes(typed));
  return [...starts, ...contains].filter((city) => city.toLowerCase() !== typed);
}
