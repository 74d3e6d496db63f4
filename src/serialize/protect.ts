// TEC's password blanking (§8): protected keys replaced wherever they occur, recursively; title and dates stay.

/**
 * TEC 6.17 `Validator/Base.php::PASSWORD_PROTECTED_FIELDS` with its replacement values (TEC writes the string
 * `'null'` to mean a JSON null).
 */
export const PASSWORD_PROTECTED_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({
  description: '',
  excerpt: '',
  image: false,
  all_day: null,
  cost: '',
  cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
  website: '',
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
  ticketed: null,
  is_virtual: null,
  virtual_url: '',
  virtual_video_source: '',
  attendance: { total_attendees: null, checked_in: null, not_checked_in: null },
  email: '',
  phone: '',
  stateprovince: '',
  // Not in TEC's list (which leaves a protected venue's state readable); blanked with the rest of the address.
  state: '',
  zip: '',
  province: '',
  country: '',
  city: '',
  address: '',
  geo_lat: 0,
  geo_lng: 0,
});

const fresh = (v: unknown): unknown => (v !== null && typeof v === 'object' ? structuredClone(v) : v);

/**
 * Returns a copy with every protected key blanked at any depth. Like TEC's `remove_password_protected_content`,
 * a protected key is replaced (not descended into) and every other object or array is descended into.
 */
export function blankProtected<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => blankProtected(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // Deliberate difference: TEC's list holds `venue`/`organizer` (an event's links), so it also blanks a
    // protected venue's or organizer's own name (a string). A name is a title, and titles stay visible.
    if ((key === 'venue' || key === 'organizer') && typeof v === 'string') {
      out[key] = v;
      continue;
    }
    out[key] = Object.hasOwn(PASSWORD_PROTECTED_FIELDS, key)
      ? fresh(PASSWORD_PROTECTED_FIELDS[key])
      : blankProtected(v);
  }
  return out as T;
}
