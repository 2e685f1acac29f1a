/** What a refused option was, for its message (a string quoted, so that "8M" reads as given). */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 100));
  try {
    return String(value).slice(0, 100);
  } catch {
    return `a value of type ${typeof value}`; // Object.create(null), a throwing toString
  }
}

/**
 * `value` if it is a whole number from 1 to `max`; otherwise a RangeError naming the option
 * (`startRelay: maxMessageBytes must be …`). NaN, 0, negatives and strings are refused: `ws` and the
 * rate limit would take them as no limit at all.
 */
export function wholeAbove0(where: string, name: string, value: unknown, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0 && value <= max) return value;
  // A number past the largest names it (2 ** 53 is whole, above 0, and still refused).
  const bound = max !== Number.MAX_SAFE_INTEGER || (typeof value === "number" && value > max) ? ` and at most ${max}` : "";
  throw new RangeError(`${where}: ${name} must be a whole number above 0${bound}, not ${describeValue(value)}`);
}

/** A plain object (`{ … }`, or one with no prototype): not an array, a Map, a Date or a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
