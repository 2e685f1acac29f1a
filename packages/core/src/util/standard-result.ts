/**
 * What a Standard Schema validator's result says, read defensively: its `issues` (a failure), its
 * `value` (a success), or undefined when it is neither — not an object, an array without issues,
 * `{}` — which no caller may take for a success. Any object is read: arktype's failure is an array
 * (its ArkErrors) that carries `issues`. A getter may throw: the caller catches.
 */
export function readStandardResult(result: unknown): { readonly issues: unknown } | { readonly value: unknown } | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const { issues } = result as { issues?: unknown };
  if (issues !== undefined) return { issues };
  if (Array.isArray(result) || !("value" in result)) return undefined;
  return { value: (result as { value: unknown }).value };
}
