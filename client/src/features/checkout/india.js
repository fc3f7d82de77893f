// Address reference data: the cities the city field suggests. (States come from GET /api/shop.)

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
