import { isSchemaObject, pointerSegment } from "../read/json-schema.js";

/** Calls `onRef` for every `$ref` inside a schema, with the pointer where it stands. */
export function visitRefs(schema: unknown, pointer: string, onRef: (ref: string, at: string) => void): void {
  if (!isSchemaObject(schema)) return;
  if (typeof schema.$ref === "string") onRef(schema.$ref, `${pointer}/$ref`);
  for (const key of ["properties", "definitions"] as const) {
    const map = schema[key];
    if (!isSchemaObject(map)) continue;
    for (const [name, child] of Object.entries(map)) visitRefs(child, `${pointer}/${key}/${pointerSegment(name)}`, onRef);
  }
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    schema[key]?.forEach((child, index) => {
      visitRefs(child, `${pointer}/${key}/${index}`, onRef);
    });
  }
  if (Array.isArray(schema.items)) {
    for (const [index, child] of schema.items.entries()) visitRefs(child, `${pointer}/items/${index}`, onRef);
  } else visitRefs(schema.items, `${pointer}/items`, onRef);
  visitRefs(schema.additionalProperties, `${pointer}/additionalProperties`, onRef);
}
