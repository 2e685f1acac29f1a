// Types of live-turn.mjs (plain JavaScript, shared with tools/malformed-turns.mjs).
import type { FakeAppServer } from "@codex-rpc/testing";
import type { Catalogue } from "./protocol-catalogue.mjs";
import type { LiveIds } from "./malformed-messages.mjs";

export declare function liveIds(threadId: string, turnId: string, text?: string): LiveIds & { readonly item: string };
export declare function answerThreadRequests(fake: FakeAppServer, catalogue: Catalogue): void;
export declare function answerTurnStart(fake: FakeAppServer, catalogue: Catalogue): { replaceNext(make: (ids: LiveIds) => unknown): void };
export declare function validNotificationLine(catalogue: Catalogue, method: string, ids: LiveIds, seq: number, adjust?: (params: unknown) => unknown): string;
export declare function openingLines(catalogue: Catalogue, ids: LiveIds, firstSeq: number): string[];
export declare function closingLine(catalogue: Catalogue, ids: LiveIds, seq: number): string;
