// What the test scripts use of Deno beyond what the package declares (src/deno-runtime.d.ts).
declare namespace Deno {
  const args: string[];
}
