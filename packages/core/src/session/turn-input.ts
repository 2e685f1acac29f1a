// What a turn takes as input: a string or user input items.
/** A string is one text input, as `run()` takes it. */
export function userInputOf(input: string | readonly unknown[]): unknown[] {
  return typeof input === "string" ? [{ type: "text", text: input }] : [...input];
}
