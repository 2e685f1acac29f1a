/**
 * The `write` of an NDJSON transport for a web WritableStream (Deno's and Bun's process stdin,
 * a WebSocket stream): holds the stream's writer and waits for each write, so lines keep their order
 * and back-pressure reaches the sender.
 */
export function streamWriter(stream: WritableStream<Uint8Array>): (bytes: Uint8Array) => Promise<void> {
  const writer = stream.getWriter();
  return (bytes) => writer.write(bytes);
}
