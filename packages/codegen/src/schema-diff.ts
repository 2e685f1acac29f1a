import { readProtocolMethods, type MethodKind } from "./protocol-methods.js";
import { readSchemaDirectory, type SchemaBundle } from "./schema-bundle.js";

export interface FlavorDiff {
  readonly flavor: string;
  readonly methodsAdded: readonly string[];
  readonly methodsRemoved: readonly string[];
  readonly definitionsAdded: readonly string[];
  readonly definitionsRemoved: readonly string[];
  readonly definitionsChanged: readonly string[];
}

export interface SchemaDiff {
  readonly from: string;
  readonly to: string;
  readonly flavors: readonly FlavorDiff[];
}

/** What changed between two vendored schema directories (e.g. two codex versions). */
export function diffSchemaDirectories(fromDir: string, toDir: string): SchemaDiff {
  const from = readSchemaDirectory(fromDir);
  const to = readSchemaDirectory(toDir);
  const flavors: FlavorDiff[] = [];
  for (const after of to.bundles) {
    const before = from.bundles.find((bundle) => bundle.flavor === after.flavor);
    if (!before) continue;
    const methodsBefore = methodKeys(before);
    const methodsAfter = methodKeys(after);
    const defsBefore = definitionShapes(before);
    const defsAfter = definitionShapes(after);
    flavors.push({
      flavor: after.flavor,
      methodsAdded: [...methodsAfter].filter((m) => !methodsBefore.has(m)),
      methodsRemoved: [...methodsBefore].filter((m) => !methodsAfter.has(m)),
      definitionsAdded: [...defsAfter.keys()].filter((d) => !defsBefore.has(d)),
      definitionsRemoved: [...defsBefore.keys()].filter((d) => !defsAfter.has(d)),
      definitionsChanged: [...defsAfter].filter(([d, shape]) => defsBefore.has(d) && defsBefore.get(d) !== shape).map(([d]) => d),
    });
  }
  return { from: from.codexVersion, to: to.codexVersion, flavors };
}

export function formatSchemaDiff(diff: SchemaDiff): string[] {
  const lines = [`codex ${diff.from} → ${diff.to}`];
  for (const flavor of diff.flavors) {
    lines.push(`${flavor.flavor}:`);
    const section = (label: string, items: readonly string[]) => {
      lines.push(`  ${label}: ${items.length}`);
      for (const item of items) lines.push(`    ${item}`);
    };
    section("methods added", flavor.methodsAdded);
    section("methods removed", flavor.methodsRemoved);
    section("definitions added", flavor.definitionsAdded);
    section("definitions removed", flavor.definitionsRemoved);
    section("definitions changed", flavor.definitionsChanged);
  }
  return lines;
}

function methodKeys(bundle: SchemaBundle): Set<string> {
  const labels: Record<MethodKind, string> = {
    clientRequest: "client request",
    serverRequest: "server request",
    serverNotification: "server notification",
    clientNotification: "client notification",
  };
  return new Set(readProtocolMethods(bundle).all.map((m) => `${labels[m.kind]} ${m.method}`));
}

function definitionShapes(bundle: SchemaBundle): Map<string, string> {
  return new Map(
    bundle.definitions.map((def) => [def.namespace ? `${def.namespace}.${def.name}` : def.name, JSON.stringify(def.schema)]),
  );
}
