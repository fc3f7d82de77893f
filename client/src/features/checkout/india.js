// Address reference data: the cities the city field suggests. (States come from GET /api/shop.)

/**
 * The cities the city field suggests (product §5.1), each under its official name and the other
 * spellings shoppers type ("Official/Other"): "Beng" and "Bang" both find Bengaluru.
 */
export const CITIES = (
  "Mumbai/Bombay, Delhi, Bengaluru/Bangalore, Hyderabad, Chennai/Madras, Kolkata/Calcutta, Pune/Poona, " +
  "Ahmedabad/Amdavad, Jaipur, Surat, Lucknow, Kanpur/Cawnpore, Nagpur, Indore, Thane, Bhopal, " +
  "Visakhapatnam/Vizag, Pimpri-Chinchwad, Patna, Vadodara/Baroda, Gurugram/Gurgaon, Noida, " +
  "Prayagraj/Allahabad, Varanasi/Banaras/Benares, Thiruvananthapuram/Trivandrum, Kochi/Cochin, " +
  "Kozhikode/Calicut, Puducherry/Pondicherry, Mysuru/Mysore, Mangaluru/Mangalore, Belagavi/Belgaum, " +
  "Guwahati/Gauhati, Chandigarh, Bhubaneswar, Coimbatore, Ludhiana, Dehradun, Ranchi, Raipur, Kota"
).split(", ").map((names) => names.split("/"));

const rank = (names, typed) => {
  const lower = names.map((name) => name.toLowerCase());
  if (lower.some((name) => name.startsWith(typed))) return 0;
  return lower.some((name) => name.includes(typed)) ? 1 : 2;
};

/**
 * [{city, label}] for the typed text once more than one character is typed (product §5.1): cities any of
 * whose names start with it first, then those containing it. `pinCity`, the PIN directory's name for the PIN
 * typed (GET /api/delivery/check), comes first when it matches. `label` adds the other spelling (the one matched,
 * if any), "Bengaluru (Bangalore)"; `city` is what the field takes.
 */
export function suggestCities(text, pinCity = "") {
  const typed = text.trim().toLowerCase();
  if (typed.length < 2) return [];
  const entries = CITIES.map(([city, ...others]) => ({ names: [city, ...others], city }));
  if (pinCity && !entries.some(({ names }) => names.includes(pinCity))) entries.unshift({ names: [pinCity], city: pinCity });
  else if (pinCity) {
    const index = entries.findIndex(({ names }) => names.includes(pinCity));
    entries.unshift(...entries.splice(index, 1));
  }
  const found = [];
  for (const order of [0, 1]) {
    for (const { names, city } of entries) {
      if (rank(names, typed) !== order || city.toLowerCase() === typed) continue;
      const others = names.filter((name) => name !== city);
      const other = others.find((name) => name.toLowerCase().includes(typed)) ?? others[0];
      found.push({ city, label: other ? `${city} (${other})` : city });
    }
  }
  return found;
}
