/**
 * Ids the app-server chooses in its answer, naming something a connection started: `importId`
 * (`externalAgentConfig/import`, its `…/import/progress|completed`), `loginId`
 * (`account/login/start`, `account/login/completed`, `account/gatewayOAuth/*`). The relay remembers
 * which connection each belongs to. (Ids a page chooses itself are scoped per connection instead:
 * page-ids.ts.)
 */
export const RESOURCE_KEYS = ["importId", "loginId"] as const;

/** The resource ids (`key:value`) a message's params or result name at top level. */
export function resourcesOf(record: unknown): string[] {
  if (typeof record !== "object" || record === null) return [];
  const fields = record as Record<string, unknown>;
  return RESOURCE_KEYS.filter((key) => typeof fields[key] === "string").map((key) => `${key}:${fields[key] as string}`);
}

/** Which connection owns each resource id. */
export class ResourceOwners<Owner> {
  readonly #owners = new Map<string, Owner>();

  /** The first of `resources` another connection owns, if any. */
  takenByOther(resources: readonly string[], owner: Owner): string | undefined {
    return resources.find((resource) => {
      const current = this.#owners.get(resource);
      return current !== undefined && current !== owner;
    });
  }

  /** Makes `owner` the owner of each of `resources` no one owns yet. */
  claim(resources: readonly string[], owner: Owner): void {
    for (const resource of resources) if (!this.#owners.has(resource)) this.#owners.set(resource, owner);
  }

  /**
   * Where a notification naming `resources` goes: the owner of the first one owned, "nobody" when
   * it names some but no one owns them (the relay drops it), "none" when it names none.
   */
  ownerOf(resources: readonly string[]): Owner | "nobody" | "none" {
    if (resources.length === 0) return "none";
    for (const resource of resources) {
      const owner = this.#owners.get(resource);
      if (owner !== undefined) return owner;
    }
    return "nobody";
  }

  /** Forgets everything `owner` had (it left). */
  release(owner: Owner): void {
    for (const [resource, current] of this.#owners) if (current === owner) this.#owners.delete(resource);
  }
}
