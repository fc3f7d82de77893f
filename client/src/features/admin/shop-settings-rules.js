// The Shipping & payments form's values: from the server's settings, to the PUT body, and the server's
// field errors back onto the form's fields. Money stays text in rupees, as the admin typed it.

export const ZONES = [
  { key: "sameCity", label: "Same city", hint: "The dispatch PIN's metro area, else its district." },
  { key: "sameState", label: "Same state", hint: "Elsewhere in the dispatch PIN's state." },
  { key: "metro", label: "Metro to metro", hint: "Delhi, Mumbai, Kolkata, Chennai, Bengaluru, Hyderabad." },
  { key: "restOfIndia", label: "Rest of India", hint: "Everywhere else." },
  { key: "special", label: "North-east, J&K and islands",
    hint: "The north-east, Jammu & Kashmir, Ladakh, Andaman & Nicobar, Lakshadweep." },
];

/** The social platforms the footer links to: [API key, form field, label]. */
export const SOCIAL = [["facebook", "socialFacebook", "Facebook page"], ["instagram", "socialInstagram", "Instagram profile"],
  ["x", "socialX", "X profile"], ["youtube", "socialYoutube", "YouTube channel"]];
const CONTACT = ["contactEmail", "contactPhone", "contactHours"];

export const SETTING_LABELS = {
  contactEmail: "Contact e-mail", contactPhone: "Contact phone",
  contactHours: "Phone hours", ...Object.fromEntries(SOCIAL.map(([, name, label]) => [name, label])),
  dispatchPin: "Dispatch PIN", dispatchCutoff: "Dispatch cut-off", holidays: "Holidays",
  unserviceablePins: "PINs we don't deliver to", codOnPins: "COD always offered at", codOffPins: "COD never offered at",
  codLimit: "COD order value cap", codFee: "COD fee", openCodOrdersPerContact: "Open COD orders per customer",
  shippingFee: "Shipping fee", freeShippingThreshold: "Free shipping from", maxQuantityPerLine: "Copies per book",
  unpaidCopiesPerBuyer: "Unpaid copies per buyer", largeCodCopies: "Large COD order above (copies)",
  sellerName: "Seller name", sellerAddress: "Shop address", sellerGstin: "Seller GSTIN",
  ...Object.fromEntries(ZONES.flatMap(({ key, label }) => [
    [`zones.${key}.minDays`, `${label}: fewest days`], [`zones.${key}.maxDays`, `${label}: most days`],
    [`zones.${key}.cod`, `${label}: cash on delivery`], [`zones.${key}.shippingFee`, `${label}: shipping fee`],
  ])),
};

const text = (value) => (value === null || value === undefined ? "" : String(value));

/** Form values (text) from GET /api/admin/shop-settings' settings. */
export function valuesFromSettings(settings) {
  const codPins = Object.entries(settings.codPins ?? {});
  return {
    dispatchPin: text(settings.dispatchPin),
    dispatchCutoff: text(settings.dispatchCutoff),
    holidays: (settings.holidays ?? []).join("\n"),
    zones: Object.fromEntries(ZONES.map(({ key }) => {
      const rule = settings.zones?.[key] ?? {};
      return [key, { minDays: text(rule.minDays), maxDays: text(rule.maxDays), cod: Boolean(rule.cod),
        shippingFee: text(rule.shippingFee) }];
    })),
    unserviceablePins: (settings.unserviceablePins ?? []).join(", "),
    codOnPins: codPins.filter(([, on]) => on).map(([pin]) => pin).join(", "),
    codOffPins: codPins.filter(([, on]) => !on).map(([pin]) => pin).join(", "),
    codLimit: text(settings.codLimit),
    codFee: text(settings.codFee),
    openCodOrdersPerContact: text(settings.openCodOrdersPerContact),
    shippingFee: text(settings.shippingFee),
    freeShippingThreshold: text(settings.freeShippingThreshold),
    maxQuantityPerLine: text(settings.maxQuantityPerLine),
    unpaidCopiesPerBuyer: text(settings.unpaidCopiesPerBuyer),
    largeCodCopies: text(settings.largeCodCopies),
    ...Object.fromEntries(CONTACT.map((name) => [name, text(settings[name])])),
    ...Object.fromEntries(SOCIAL.map(([key, name]) => [name, text(settings.socialLinks?.[key])])),
    sellerName: text(settings.sellerName),
    sellerAddress: text(settings.sellerAddress),
    sellerGstin: text(settings.sellerGstin),
  };
}

/** Words of a list field: PINs or dates separated by commas, spaces or new lines. */
export function listItems(value) {
  return value.split(/[\s,;]+/).map((item) => item.trim()).filter(Boolean);
}

/** PINs as typed ("560 001" stays one PIN when written on its own line). */
function pinItems(value) {
  return value.split(/[\n,;]+/).flatMap((chunk) => {
    const joined = chunk.replace(/\s+/g, "");
    return /^\d{6}$/.test(joined) ? [joined] : listItems(chunk);
  });
}

/**
 * The PUT body: the settings the admin changed from `initial` (what was loaded), numbers as the text typed
 * (the server checks and converts them). A changed zone goes whole (its fee too); a change to either COD list
 * sends both.
 * Untouched settings stay out, so a value set outside this screen is never refused on its behalf.
 */
export function settingsBody(values, initial) {
  const body = {};
  const changed = (name) => values[name] !== initial[name];
  for (const name of ["dispatchPin", "dispatchCutoff", "codLimit", "codFee", "openCodOrdersPerContact", "shippingFee",
    "maxQuantityPerLine", "unpaidCopiesPerBuyer", "largeCodCopies", "sellerName", "sellerAddress", "sellerGstin"]) {
    if (changed(name)) body[name] = values[name].trim();
  }
  if (changed("freeShippingThreshold")) body.freeShippingThreshold = values.freeShippingThreshold.trim() || null;
  for (const name of CONTACT) {
    if (changed(name)) body[name] = values[name].trim();
  }
  // The profiles go together (the server keeps the ones sent, an empty one is removed).
  if (SOCIAL.some(([, name]) => changed(name))) {
    body.socialLinks = Object.fromEntries(SOCIAL.map(([key, name]) => [key, values[name].trim()]));
  }
  if (changed("holidays")) body.holidays = listItems(values.holidays);
  if (changed("unserviceablePins")) body.unserviceablePins = pinItems(values.unserviceablePins);
  if (changed("codOnPins") || changed("codOffPins")) {
    body.codPins = {};
    for (const pin of pinItems(values.codOnPins)) body.codPins[pin] = true;
    for (const pin of pinItems(values.codOffPins)) body.codPins[pin] = false;
  }
  const zones = ZONES.filter(({ key }) => ["minDays", "maxDays", "cod", "shippingFee"].some(
    (part) => values.zones[key][part] !== initial.zones[key][part]));
  if (zones.length > 0) {
    body.zones = Object.fromEntries(zones.map(({ key }) => {
      const rule = values.zones[key];
      // A blank fee is null: the zone pays the shop's flat shipping fee.
      return [key, { minDays: rule.minDays.trim(), maxDays: rule.maxDays.trim(), cod: rule.cod,
        shippingFee: rule.shippingFee.trim() || null }];
    }));
  }
  return body;
}

const joinMessages = (messages) => (Array.isArray(messages) ? messages.join(" ") : typeof messages === "string" ? messages
  : Object.values(messages ?? {}).map(joinMessages).join(" "));

/**
 * The server's 422 `errors` as {field: message} for the form's fields: zones by zone and field, a list's
 * bad item named with its value, a listed PIN on the box it was typed in.
 */
export function settingsProblems(errors, body) {
  const problems = {};
  if (!errors || typeof errors !== "object") return problems;
  const add = (name, message) => {
    problems[name] = problems[name] ? `${problems[name]} ${message}` : message;
  };
  for (const [name, messages] of Object.entries(errors)) {
    if (name === "zones" && messages && !Array.isArray(messages)) {
      for (const [zone, fields] of Object.entries(messages)) {
        if (fields && !Array.isArray(fields)) {
          for (const [field, message] of Object.entries(fields)) add(`zones.${zone}.${field}`, joinMessages(message));
        } else add("zones", joinMessages(fields));
      }
    } else if ((name === "holidays" || name === "unserviceablePins") && messages && !Array.isArray(messages)) {
      for (const [index, message] of Object.entries(messages)) {
        const item = body?.[name]?.[Number(index)];
        add(name, item === undefined ? joinMessages(message) : `“${item}”: ${joinMessages(message)}`);
      }
    } else if (name === "socialLinks" && messages && !Array.isArray(messages)) {
      for (const [key, message] of Object.entries(messages)) {
        add(SOCIAL.find(([platform]) => platform === key)?.[1] ?? "socialFacebook", joinMessages(message));
      }
    } else if (name === "codPins" && messages && !Array.isArray(messages)) {
      for (const [pin, message] of Object.entries(messages)) {
        add(body?.codPins?.[pin] === false ? "codOffPins" : "codOnPins", `“${pin}”: ${joinMessages(message)}`);
      }
    } else {
      add(name === "codPins" ? "codOnPins" : name, joinMessages(messages));
    }
  }
  return problems;
}
