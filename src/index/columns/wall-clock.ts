// Wall-clock dates (`Y-m-d H:i:s`, as TEC stores them) as numbers that order as the strings do.
//
// The rows keep dates as these keys, the order sorts by them, and snapshots store them.

/** The key of an absent or unreadable date: before every date, and never inside a bound. */
export const NO_DATE = Number.NEGATIVE_INFINITY;

/**
 * A wall-clock `Y-m-d H:i:s` as a number that orders as the string does (`YYYYMMDDhhmmss`; a bare date sorts just
 * before its midnight, as the shorter string does). Anything else is {@link NO_DATE}: TEC always stores this form.
 */
export function wallKey(s: string): number {
  // By character codes: this runs for every date of every event loaded.
  if (s.length !== 19 && s.length !== 10) return NO_DATE;
  const day = digitsOf(s, 0, 10, 45); // YYYY-MM-DD
  if (day < 0) return NO_DATE;
  if (s.length === 10) return day * 1e6 - 0.5;
  if (s.charCodeAt(10) !== 32) return NO_DATE;
  const time = digitsOf(s, 11, 8, 58); // hh:mm:ss
  return time < 0 ? NO_DATE : day * 1e6 + time;
}

/**
 * The field `s[from, from + length)` read as one number: digits, with `sep` (a character code) before each of its
 * last two pairs (`YYYY-MM-DD`, `hh:mm:ss`); -1 when anything else is there.
 */
function digitsOf(s: string, from: number, length: number, sep: number): number {
  const end = from + length;
  let n = 0;
  for (let i = from; i < end; i++) {
    const c = s.charCodeAt(i);
    if (i === end - 6 || i === end - 3) {
      if (c !== sep) return -1;
    } else if (c >= 48 && c <= 57) n = n * 10 + (c - 48);
    else return -1;
  }
  return n;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** The string {@link wallKey} came from (`''` for {@link NO_DATE}). */
export function wallText(key: number): string {
  if (key === NO_DATE) return '';
  const whole = Math.ceil(key);
  const day = Math.floor(whole / 1e6);
  const date = `${String(Math.floor(day / 1e4)).padStart(4, '0')}-${two(Math.floor(day / 100) % 100)}-${two(day % 100)}`;
  if (whole !== key) return date;
  const t = whole % 1e6;
  return `${date} ${two(Math.floor(t / 1e4))}:${two(Math.floor(t / 100) % 100)}:${two(t % 100)}`;
}
