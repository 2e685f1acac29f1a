/**
 * The `format`s codex's schemas put on numbers: Rust's integer widths and `double`. They are all
 * `number` in TypeScript; the validators check that a value is whole and within the width.
 * 64-bit bounds are approximate: JSON numbers past 2^53 are already rounded by JSON.parse.
 */
export const NUMBER_FORMATS: Readonly<Record<string, { readonly integer: boolean; readonly min: number; readonly max: number }>> = {
  int32: { integer: true, min: -(2 ** 31), max: 2 ** 31 - 1 },
  int64: { integer: true, min: -(2 ** 63), max: 2 ** 63 },
  uint: { integer: true, min: 0, max: 2 ** 64 },
  uint16: { integer: true, min: 0, max: 2 ** 16 - 1 },
  uint32: { integer: true, min: 0, max: 2 ** 32 - 1 },
  uint64: { integer: true, min: 0, max: 2 ** 64 },
  double: { integer: false, min: -Number.MAX_VALUE, max: Number.MAX_VALUE },
};

/** The name the validators module gives its table of format checks. */
export const NUMBER_FORMATS_IDENTIFIER = "numberFormats";

/** The check ajv runs for one format, as a function (for generation) … */
export function numberFormatCheck(name: string): (value: number) => boolean {
  const { integer, min, max } = NUMBER_FORMATS[name] as (typeof NUMBER_FORMATS)[string];
  return (value) => (integer ? Number.isInteger(value) : Number.isFinite(value)) && value >= min && value <= max;
}

/** … and as source, so the standalone validators carry the same table without importing ajv. */
export function numberFormatsSource(): string {
  const entries = Object.entries(NUMBER_FORMATS).map(([name, { integer, min, max }]) => {
    const whole = integer ? "Number.isInteger(value)" : "Number.isFinite(value)";
    return `  ${name}: { type: "number", validate: (value) => ${whole} && value >= ${min} && value <= ${max} },`;
  });
  return `const ${NUMBER_FORMATS_IDENTIFIER} = {\n${entries.join("\n")}\n};\n`;
}
