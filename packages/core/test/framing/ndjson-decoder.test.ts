import { describe, expect, it } from "vitest";
import { randomSource } from "@codex-rpc/test-support/random-source.js";
import { NdjsonDecoder, type NdjsonDecoderOptions } from "../../src/framing/ndjson-decoder.js";
import { encodeNdjsonLine } from "../../src/framing/ndjson-encoder.js";
import type { JsonRpcMessage } from "../../src/framing/json-rpc-message.js";
import type { TransportDiagnostic } from "../../src/transport/transport.js";

const utf8 = new TextEncoder();

function bytesOf(text: string): Uint8Array {
  return utf8.encode(text);
}

/** Feeds the chunks to a fresh decoder and collects what comes out, in order. */
function decode(chunks: readonly Uint8Array[], options: Partial<NdjsonDecoderOptions> = {}, end = true) {
  const messages: JsonRpcMessage[] = [];
  const diagnostics: TransportDiagnostic[] = [];
  const events: Array<{ message: JsonRpcMessage } | { diagnostic: TransportDiagnostic }> = [];
  const decoder = new NdjsonDecoder({
    ...options,
    onMessage: (message) => {
      messages.push(message);
      events.push({ message });
    },
    onDiagnostic: (diagnostic) => {
      diagnostics.push(diagnostic);
      events.push({ diagnostic });
    },
  });
  for (const chunk of chunks) decoder.push(chunk);
  if (end) decoder.end();
  return { messages, diagnostics, events, decoder };
}

function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

function randomSplit(bytes: Uint8Array, random: () => number, maxChunks: number): Uint8Array[] {
  const count = Math.floor(random() * maxChunks);
  const cuts = Array.from({ length: count }, () => Math.floor(random() * (bytes.length + 1)));
  return splitAt(bytes, cuts);
}

// A stream with everything a real one can hold: multi-byte UTF-8 (2, 3 and 4 bytes), CRLF and
// LF endings, blank lines, garbage and non-object JSON between the messages.
const MIXED_STREAM = [
  '{"method":"item/agentMessage/delta","params":{"delta":"héllo wörld"}}\n',
  '{"id":1,"result":{"text":"日本語のテキスト"}}\r\n',
  "\n",
  "this is not json\n",
  '{"method":"emoji","params":{"text":"😀🎉 ok"}}\r\n',
  "[1,2,3]\n",
  "   \r\n",
  '{"id":"a","error":{"code":-32600,"message":"Not initialized"}}\n',
  '{"truncated":\n',
  '{"method":"last","params":{"s":"ß∂ƒ©"}}',
].join("");

const EXPECTED_MESSAGES = [
  { method: "item/agentMessage/delta", params: { delta: "héllo wörld" } },
  { id: 1, result: { text: "日本語のテキスト" } },
  { method: "emoji", params: { text: "😀🎉 ok" } },
  { id: "a", error: { code: -32600, message: "Not initialized" } },
  { method: "last", params: { s: "ß∂ƒ©" } },
];

/** What Node's `latin1Slice` does: one character per byte (correct for the ASCII it is given). */
const latin1 = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
const isAsciiRange = (bytes: Uint8Array, start: number, end: number) => bytes.subarray(start, end).every((byte) => byte < 0x80);

describe("NdjsonDecoder", () => {
  it("decodes a mixed stream in one chunk: messages in order, bad lines reported, blank lines skipped", () => {
    const { messages, diagnostics } = decode([bytesOf(MIXED_STREAM)]);
    expect(messages).toEqual(EXPECTED_MESSAGES);
    expect(diagnostics.map((d) => d.kind)).toEqual(["invalid-json", "not-an-object", "invalid-json"]);
    expect(diagnostics[0]).toMatchObject({ excerpt: "this is not json", bytes: 16 });
    expect(diagnostics[1]).toMatchObject({ excerpt: "[1,2,3]", bytes: 7 });
    expect(diagnostics[1]!.message).toContain("array");
    expect(diagnostics[2]).toMatchObject({ excerpt: '{"truncated":' });
  });

  it("gives the same result for every two-chunk split, including inside multi-byte characters and between CR and LF", () => {
    const bytes = bytesOf(MIXED_STREAM);
    const whole = decode([bytes]).events;
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(decode(splitAt(bytes, [cut])).events, `cut at byte ${cut}`).toEqual(whole);
    }
  });

  it("gives the same result for random chunkings (seeded), down to one byte per chunk", () => {
    const bytes = bytesOf(MIXED_STREAM.repeat(5));
    const whole = decode([bytes]).events;
    const random = randomSource(20261122);
    for (let run = 0; run < 300; run++) {
      expect(decode(randomSplit(bytes, random, 40)).events, `run ${run}`).toEqual(whole);
    }
    const oneByteChunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(decode(oneByteChunks).events).toEqual(whole);
  });

  it("gives the same result whichever way a run is decoded: whole, line by line (non-ASCII), with or without an ASCII check", () => {
    const asciiOnly = MIXED_STREAM.replace(/[^\x00-\x7f]/g, "?");
    const isAscii = isAsciiRange;
    let checks = 0;
    const counting = (bytes: Uint8Array, start: number, end: number) => (checks++, isAscii(bytes, start, end));
    for (const stream of [MIXED_STREAM, asciiOnly]) {
      const bytes = bytesOf(stream.repeat(3));
      const plain = decode([bytes]).events;
      expect(decode([bytes], { isAscii: counting }).events).toEqual(plain);
      const random = randomSource(7);
      for (let run = 0; run < 50; run++) {
        const chunks = randomSplit(bytes, random, 20);
        expect(decode(chunks, { isAscii }).events).toEqual(plain);
        expect(decode(chunks, { isAscii, decodeAscii: latin1 }).events).toEqual(plain);
      }
    }
    expect(checks).toBeGreaterThan(0);
  });

  it("handles a 4-byte character split into four chunks", () => {
    const bytes = bytesOf('{"e":"😀"}\n');
    const start = bytes.indexOf(0xf0);
    const chunks = splitAt(bytes, [start + 1, start + 2, start + 3]);
    expect(decode(chunks).messages).toEqual([{ e: "😀" }]);
  });

  it("strips CR only at the end of a line: a CR inside a JSON string escape survives", () => {
    const { messages } = decode([bytesOf('{"s":"a\\rb"}\r\n{"s":"c"}\r\n')]);
    expect(messages).toEqual([{ s: "a\rb" }, { s: "c" }]);
  });

  it("decodes a final line without a newline only on end()", () => {
    const { messages, decoder } = decode([bytesOf('{"id":1,"result":null}\n{"id":2,"result":null}')], {}, false);
    expect(messages).toEqual([{ id: 1, result: null }]);
    decoder.end();
    expect(messages).toEqual([
      { id: 1, result: null },
      { id: 2, result: null },
    ]);
    decoder.end(); // nothing left: a second end is a no-op
    expect(messages).toHaveLength(2);
  });

  it("reports each kind of non-object JSON", () => {
    const { messages, diagnostics } = decode([bytesOf('42\n"text"\nnull\ntrue\n[]\n{"ok":1}\n')]);
    expect(messages).toEqual([{ ok: 1 }]);
    expect(diagnostics.map((d) => [d.kind, d.excerpt])).toEqual([
      ["not-an-object", "42"],
      ["not-an-object", '"text"'],
      ["not-an-object", "null"],
      ["not-an-object", "true"],
      ["not-an-object", "[]"],
    ]);
  });

  it("limits an excerpt to 200 characters and redacts secrets in it", () => {
    const garbage = `oops {"token": "abcdefghijklmnop1234", ${"x".repeat(500)}`;
    const { diagnostics } = decode([bytesOf(`${garbage}\n`)]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.excerpt!.length).toBe(200);
    expect(diagnostics[0]!.excerpt).not.toContain("abcdefghijklmnop1234");
    expect(diagnostics[0]!.excerpt).toContain("[REDACTED]");
    expect(diagnostics[0]!.message).not.toContain("abcdefghijklmnop1234");
  });

  describe("line size limit", () => {
    /** A JSON object line of exactly `size` bytes (without its newline). */
    function lineOfSize(size: number): string {
      const skeleton = '{"pad":""}';
      const line = `{"pad":"${"a".repeat(size - skeleton.length)}"}`;
      expect(bytesOf(line).length).toBe(size);
      return line;
    }
    const LIMIT = 64;

    it("accepts a line at the limit and drops one a byte over, reporting its size; the next line still decodes", () => {
      const input = `${lineOfSize(LIMIT)}\n${lineOfSize(LIMIT + 1)}\n{"id":7,"result":"next"}\n`;
      const { messages, diagnostics } = decode([bytesOf(input)], { maxLineBytes: LIMIT });
      expect(messages).toEqual([JSON.parse(lineOfSize(LIMIT)), { id: 7, result: "next" }]);
      expect(diagnostics).toEqual([expect.objectContaining({ kind: "oversize-line", bytes: LIMIT + 1 })]);
      expect(diagnostics[0]!.message).toContain(`${LIMIT + 1} bytes`);
    });

    it("does not count the CR of a CRLF line at the limit", () => {
      const input = `${lineOfSize(LIMIT)}\r\n${lineOfSize(LIMIT + 1)}\r\n{"id":7,"result":"next"}\r\n`;
      const { messages, diagnostics } = decode([bytesOf(input)], { maxLineBytes: LIMIT });
      expect(messages).toHaveLength(2);
      expect(diagnostics).toEqual([expect.objectContaining({ kind: "oversize-line", bytes: LIMIT + 1 })]);
    });

    it("drops a long line that arrives in many chunks, reports its full size, and resumes after its newline", () => {
      const long = lineOfSize(10_000);
      const bytes = bytesOf(`{"id":1,"result":1}\n${long}\r\n{"id":2,"result":2}\n`);
      const whole = decode([bytes], { maxLineBytes: LIMIT }).events;
      expect(whole).toEqual([
        { message: { id: 1, result: 1 } },
        { diagnostic: expect.objectContaining({ kind: "oversize-line", bytes: 10_000 }) },
        { message: { id: 2, result: 2 } },
      ]);
      const random = randomSource(7);
      for (let run = 0; run < 100; run++) {
        expect(decode(randomSplit(bytes, random, 200), { maxLineBytes: LIMIT }).events, `run ${run}`).toEqual(whole);
      }
    });

    it("treats lines at, under and over the limit alike on every decoding path and chunking, ASCII or not", () => {
      // Lines of LIMIT-1, LIMIT and LIMIT+1 bytes, some with 2-byte characters, some CRLF: the
      // limit must count bytes, not characters, whichever path (text or bytes) a chunk takes.
      const lines: string[] = [];
      for (const size of [LIMIT - 1, LIMIT, LIMIT + 1]) {
        const ascii = lineOfSize(size);
        const accented = ascii.replace("aa", "é"); // same byte length
        lines.push(`${ascii}\n`, `${accented}\r\n`, `${ascii}\r\n`, `${accented}\n`);
      }
      const bytes = bytesOf(lines.join("").repeat(3));
      const whole = decode([bytes], { maxLineBytes: LIMIT }).events;
      expect(whole.filter((e) => "message" in e)).toHaveLength(24);
      expect(whole.filter((e) => "diagnostic" in e)).toEqual(
        Array(12).fill({ diagnostic: expect.objectContaining({ kind: "oversize-line", bytes: LIMIT + 1 }) }),
      );
      const random = randomSource(11);
      for (let run = 0; run < 100; run++) {
        const chunks = randomSplit(bytes, random, 60);
        expect(decode(chunks, { maxLineBytes: LIMIT }).events, `run ${run}`).toEqual(whole);
        expect(decode(chunks, { maxLineBytes: LIMIT, isAscii: isAsciiRange, decodeAscii: latin1 }).events, `run ${run}`).toEqual(whole);
      }
    });

    it("reports an oversize final line without a newline on end()", () => {
      const { diagnostics } = decode([bytesOf(lineOfSize(100))], { maxLineBytes: LIMIT });
      expect(diagnostics).toEqual([expect.objectContaining({ kind: "oversize-line", bytes: 100 })]);
    });
  });

  describe("lines longer than a decoding block (2 MiB)", () => {
    const BLOCK = 2 * 1024 * 1024;
    const PREFIX = '{"method":"item/agentMessage/delta","params":{"delta":"';
    /** ASCII filler, then `bytes` at line offset `at`, then more filler: one JSON line of about 4.5 MiB. */
    function lineWith(bytes: readonly number[], at: number, ending = "\n"): Uint8Array {
      const head = bytesOf(PREFIX);
      const tail = bytesOf(`"}}${ending}`);
      const line = new Uint8Array(BLOCK * 2 + 300_000 + tail.length).fill(0x61);
      line.set(head, 0);
      line.set(bytes, at);
      line.set(tail, line.length - tail.length);
      return line;
    }
    /** 64 KiB chunks, as a pipe delivers them. */
    const piped = (bytes: Uint8Array) => Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536));
    const latin1Decoder = new TextDecoder("latin1");
    const nodeLike: Partial<NdjsonDecoderOptions> = {
      isAscii: isAsciiRange,
      decodeAscii: (bytes, start, end) => latin1Decoder.decode(bytes.subarray(start, end)),
    };

    it("decodes a character cut by a block's end whole, for 2-, 3- and 4-byte characters and every cut", () => {
      for (const character of ["é", "€", "😀"]) {
        const encoded = [...bytesOf(character)];
        for (let before = 1; before < encoded.length; before++) {
          for (const block of [BLOCK, BLOCK * 2]) {
            const line = lineWith(encoded, block - before);
            const expected = JSON.parse(new TextDecoder().decode(line));
            expect(expected.params.delta).toContain(character);
            for (const options of [{}, nodeLike, { retainChunks: true }]) {
              const { messages, diagnostics } = decode(piped(line), options);
              expect(diagnostics, `${character} cut after ${before} of ${encoded.length} bytes`).toEqual([]);
              expect(messages, `${character} cut after ${before} of ${encoded.length} bytes`).toEqual([expected]);
            }
          }
        }
      }
    });

    it("decodes bytes that are not UTF-8 at a block's end as the whole line decodes them (seeded)", () => {
      const random = randomSource(20261124);
      for (let run = 0; run < 40; run++) {
        // up to 6 bytes from the lead and continuation ranges and beyond, over the boundary
        const noise = Array.from(
          { length: 1 + Math.floor(random() * 6) },
          () => [0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xf8, 0xff, 0x82, 0x41][Math.floor(random() * 12)]!,
        );
        const line = lineWith(noise, BLOCK - Math.floor(random() * (noise.length + 1)));
        const whole = decode([line]).events;
        expect(whole).toHaveLength(1);
        expect(decode(piped(line)).events, `run ${run}: ${noise.map((b) => b.toString(16)).join(" ")}`).toEqual(whole);
        expect(decode(piped(line), nodeLike).events, `run ${run}`).toEqual(whole);
      }
    });

    it("strips the CR of a long CRLF line, also when the CR ends a chunk of its own, and honours the size limit", () => {
      const line = lineWith([], PREFIX.length, "\r\n");
      const expected = JSON.parse(new TextDecoder().decode(line));
      const body = line.subarray(0, line.length - 2);
      const apart = [...piped(body), bytesOf("\r"), bytesOf("\n")];
      expect(decode(piped(line)).messages).toEqual([expected]);
      expect(decode(apart).messages).toEqual([expected]);
      const atLimit = decode(apart, { maxLineBytes: body.length });
      expect(atLimit.messages).toEqual([expected]);
      const over = decode(apart, { maxLineBytes: body.length - 1 });
      expect(over.messages).toEqual([]);
      expect(over.diagnostics).toEqual([expect.objectContaining({ kind: "oversize-line", bytes: body.length })]);
    });
  });

  it("decodes 10 000 messages pushed in one chunk, in order", () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `{"method":"item/agentMessage/delta","params":{"i":${i},"delta":"tök ${i}"}}\n`);
    const { messages, diagnostics } = decode([bytesOf(lines.join(""))]);
    expect(diagnostics).toEqual([]);
    expect(messages).toHaveLength(10_000);
    expect(messages.every((m, i) => (m as { params: { i: number } }).params.i === i)).toBe(true);
    expect(messages[9_999]).toEqual({ method: "item/agentMessage/delta", params: { i: 9_999, delta: "tök 9999" } });
  });

  it("copies the partial line it keeps, so the caller may reuse its chunk buffer", () => {
    const buffer = new Uint8Array(64);
    const messages: JsonRpcMessage[] = [];
    const decoder = new NdjsonDecoder({ onMessage: (m) => messages.push(m) });
    const first = bytesOf('{"id":1,"res');
    buffer.set(first);
    decoder.push(buffer.subarray(0, first.length));
    buffer.fill(0x7a); // the caller overwrites its buffer
    const second = bytesOf('ult":"ok"}\n');
    buffer.set(second);
    decoder.push(buffer.subarray(0, second.length));
    expect(messages).toEqual([{ id: 1, result: "ok" }]);
  });

  it("treats a line that starts with a byte order mark alike on every decoding path: not JSON", () => {
    // TextDecoder strips a BOM at the start of each decode by default; Node's slicers keep it.
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf('{"id":1,"result":{}}\n{"id":2,"result":{}}\n')]);
    const slicers = { decodeUtf8: (b: Uint8Array, start: number, end: number) => Buffer.from(b.buffer, b.byteOffset + start, end - start).toString("utf8") };
    for (const options of [{}, slicers, { isAscii: isAsciiRange, decodeAscii: latin1, ...slicers }]) {
      const { messages, diagnostics } = decode([bytes], options);
      expect(messages).toEqual([{ id: 2, result: {} }]);
      expect(diagnostics.map((d) => d.kind)).toEqual(["invalid-json"]);
    }
  });

  it("keeps decoding the rest of a chunk when a callback throws, then rethrows the first error", () => {
    const seen: unknown[] = [];
    const decoder = new NdjsonDecoder({
      onMessage: (message) => {
        seen.push(message);
        if ((message as { id: number }).id === 1) throw new Error("consumer bug");
      },
    });
    expect(() => decoder.push(bytesOf('{"id":1,"result":0}\n{"id":2,"result":0}\n'))).toThrow("consumer bug");
    expect(seen).toHaveLength(2);
    decoder.push(bytesOf('{"id":3,"result":0}\n'));
    expect(seen).toHaveLength(3);
  });
});

describe("encodeNdjsonLine", () => {
  it("writes one line of UTF-8 JSON that the decoder reads back, even with newlines inside strings", () => {
    const message = { id: 5, method: "turn/start", params: { input: "line one\nline two\r\n日本 😀 \u2028" } };
    const bytes = encodeNdjsonLine(message);
    expect(bytes.filter((b) => b === 0x0a)).toHaveLength(1);
    expect(bytes[bytes.length - 1]).toBe(0x0a);
    expect(decode([bytes]).messages).toEqual([message]);
  });

  it("throws on a message JSON cannot encode", () => {
    expect(() => encodeNdjsonLine({ method: "x", params: { n: 1n } })).toThrow(TypeError);
  });

  it("writes a lone surrogate as U+FFFD, as UTF-8 does: codex refuses the escape JSON.stringify writes and drops the line", () => {
    // A string cut inside an emoji, an escaped backslash before a surrogate escape's text, a pair.
    const message = { id: 1, method: "turn/start", params: { input: "cut \ud83d", text: "\\ud83d kept", pair: "😀", low: "\udc00" } };
    const line = new TextDecoder().decode(encodeNdjsonLine(message));
    expect(line).not.toMatch(/(?<!\\)(?:\\\\)*\\ud[89a-f]/);
    expect(decode([bytesOf(line)]).messages).toEqual([
      { id: 1, method: "turn/start", params: { input: "cut \ufffd", text: "\\ud83d kept", pair: "😀", low: "\ufffd" } },
    ]);
  });
});
