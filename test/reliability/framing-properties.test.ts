// Property tests of the NDJSON framing (fast-check): whatever the chunking — inside multi-byte
// UTF-8 characters, between CR and LF, one byte at a time — and whatever garbage, blank and
// oversize lines sit between the messages, every message comes out exactly once, in order, and
// every dropped line is reported with its size. RELIABILITY_LONG=1 runs ten times as many cases.
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import type { JsonRpcMessage, TransportDiagnostic } from "@codex-rpc/core";
import { NdjsonDecoder, type NdjsonDecoderOptions } from "@codex-rpc/core/transport";
import { RELIABILITY_LONG, recordReliability } from "./support/reliability-report.js";

const RUNS = { mixed: RELIABILITY_LONG ? 800_000 : 80_000, boundaries: RELIABILITY_LONG ? 200_000 : 20_000 };
/** About 10 s per 100 000 cases here; the long mode needs far more than vitest's default. */
const TEST_TIMEOUT_MS = RELIABILITY_LONG ? 600_000 : 60_000;
const utf8 = new TextEncoder();

/** One line of the generated stream, and what the decoder must make of it. */
type Line =
  | { readonly kind: "message"; readonly seq: number; readonly text: string }
  | { readonly kind: "garbage"; readonly text: string }
  | { readonly kind: "blank"; readonly text: string };

interface Stream {
  readonly lines: readonly { readonly line: Line; readonly crlf: boolean }[];
  readonly maxLineBytes: number;
}

/** A message line of exactly `bytes` bytes when possible (padded with ASCII), else its natural size. */
function messageOfSize(seq: number, body: string, bytes: number | undefined): string {
  const base = JSON.stringify({ seq, body, pad: "" });
  const missing = bytes === undefined ? 0 : bytes - utf8.encode(base).length;
  return missing > 0 ? JSON.stringify({ seq, body, pad: "p".repeat(missing) }) : base;
}

const CAP = 200;
/** Text with every UTF-8 width (1–4 bytes) and the characters the framing cares about. */
const lineText = fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", " ", "\r", "{", "}", '"', "\\", "\u2028", "\u0000"), maxLength: 40 });

const lineArb: fc.Arbitrary<Omit<Line, "seq"> & { size?: "at-cap" | "over-cap" | "natural" }> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("message" as const),
      text: lineText,
      size: fc.constantFrom("natural" as const, "natural" as const, "at-cap" as const, "over-cap" as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("garbage" as const),
      // Never a JSON object: an unclosable `{`, or a start no object can have. A CR inside would
      // read as a CRLF ending when it lands last.
      text: fc
        .constantFrom("not json", '{"truncated":', "[1,2]", "42", "null", '"str"', "}{")
        .chain((start) => lineText.map((t) => start + t.replaceAll("\r", "").replaceAll("}", ""))),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("blank" as const), text: fc.constantFrom("", " ", "  \t") }) },
);

const streamArb: fc.Arbitrary<Stream> = fc
  .record({ lines: fc.array(fc.record({ line: lineArb, crlf: fc.boolean() }), { maxLength: 12 }), maxLineBytes: fc.integer({ min: 48, max: CAP }) })
  .map(({ lines, maxLineBytes }) => {
    let seq = 0;
    return {
      maxLineBytes,
      lines: lines.map(({ line, crlf }) => {
        if (line.kind !== "message") return { line: line as Line, crlf };
        const target = line.size === "at-cap" ? maxLineBytes : line.size === "over-cap" ? maxLineBytes + 1 : undefined;
        return { line: { kind: "message" as const, seq: seq++, text: messageOfSize(seq - 1, line.text, target) }, crlf };
      }),
    };
  });

function encode(stream: Stream, finalNewline: boolean): Uint8Array {
  const text = stream.lines.map(({ line, crlf }, i) => line.text + (i < stream.lines.length - 1 || finalNewline ? (crlf ? "\r\n" : "\n") : "")).join("");
  return utf8.encode(text);
}

/** What a correct decoder reports, in order: messages by seq, and dropped lines by kind and size. */
function expected(stream: Stream): string[] {
  const out: string[] = [];
  for (const { line } of stream.lines) {
    const bytes = utf8.encode(line.text).length;
    if (bytes > stream.maxLineBytes) out.push(`oversize-line:${bytes}`);
    else if (line.kind === "message") out.push(`message:${line.seq}`);
    else if (line.kind === "garbage") out.push(line.text.trim() === "" ? "" : `${classify(line.text)}:${bytes}`);
  }
  return out.filter((entry) => entry !== "");
}

function classify(text: string): "invalid-json" | "not-an-object" {
  try {
    JSON.parse(text);
    return "not-an-object";
  } catch {
    return "invalid-json";
  }
}

function cut(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const positions = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const position of positions) {
    chunks.push(bytes.slice(start, position));
    start = position;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

const isAscii: NdjsonDecoderOptions["isAscii"] = (bytes, start, end) => {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
};
const latin1: NdjsonDecoderOptions["decodeAscii"] = (bytes, start, end) => String.fromCharCode(...bytes.subarray(start, end));
const DECODER_VARIANTS: Readonly<Record<string, Partial<NdjsonDecoderOptions>>> = {
  portable: {},
  "ascii-check": { isAscii },
  "ascii-check+latin1": { isAscii, decodeAscii: latin1 },
  // The chunks below are fresh copies never written to again, as a pipe's are.
  "retained chunks": { retainChunks: true },
  "retained chunks, ascii-check+latin1": { isAscii, decodeAscii: latin1, retainChunks: true },
};

function decode(chunks: readonly Uint8Array[], maxLineBytes: number, variant: Partial<NdjsonDecoderOptions>): string[] {
  const out: string[] = [];
  const decoder = new NdjsonDecoder({
    ...variant,
    maxLineBytes,
    onMessage: (message: JsonRpcMessage) => out.push(`message:${(message as unknown as { seq: number }).seq}`),
    onDiagnostic: (diagnostic: TransportDiagnostic) => out.push(`${diagnostic.kind}:${diagnostic.bytes}`),
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return out;
}

let casesRun = 0;
let messagesChecked = 0;
/** Messages a failing case did not get out (counted before the assertion fails it). */
let messagesLost = 0;
afterAll(() => recordReliability({ area: "framing properties (fast-check)", cases: casesRun, messagesChecked, messagesLost: messagesLost }));

function count(want: readonly string[], got: readonly string[]): void {
  const delivered = new Set(got);
  for (const entry of want) {
    if (!entry.startsWith("message:")) continue;
    messagesChecked++;
    if (!delivered.has(entry)) messagesLost++;
  }
}

it(
  `random streams and random chunkings: nothing lost, duplicated or reordered (${RUNS.mixed.toLocaleString("en")} cases)`,
  () => {
    fc.assert(
      fc.property(
        streamArb,
        fc.array(fc.nat(), { maxLength: 16 }),
        fc.boolean(),
        fc.constantFrom(...Object.keys(DECODER_VARIANTS)),
        (stream, cuts, finalNewline, variant) => {
          casesRun++;
          const want = expected(stream);
          const got = decode(cut(encode(stream, finalNewline), cuts), stream.maxLineBytes, DECODER_VARIANTS[variant]!);
          count(want, got);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: RUNS.mixed },
    );
  },
  TEST_TIMEOUT_MS,
);

it(
  `every cut inside a multi-byte character or between CR and LF, down to one byte per chunk (${RUNS.boundaries.toLocaleString("en")} cases)`,
  () => {
    fc.assert(
      fc.property(streamArb, fc.constantFrom(...Object.keys(DECODER_VARIANTS)), fc.integer({ min: 1, max: 3 }), (stream, variant, step) => {
        casesRun++;
        const bytes = encode(stream, true);
        // Cut at every byte that continues a character or is the LF of a CRLF, and every `step` bytes.
        const cuts: number[] = [];
        for (let i = 1; i < bytes.length; i++) if ((bytes[i]! & 0xc0) === 0x80 || (bytes[i] === 0x0a && bytes[i - 1] === 0x0d) || i % step === 0) cuts.push(i);
        const want = expected(stream);
        const got = decode(cut(bytes, cuts), stream.maxLineBytes, DECODER_VARIANTS[variant]!);
        count(want, got);
        expect(got).toEqual(want);
      }),
      { numRuns: RUNS.boundaries },
    );
  },
  TEST_TIMEOUT_MS,
);
