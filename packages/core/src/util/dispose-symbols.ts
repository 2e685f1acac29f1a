/// <reference lib="esnext.disposable" preserve="true" />
// Kept in the declarations: a program whose `lib` lacks ESNext.Disposable (a browser project's
// ES2022 + DOM) still type-checks them, `skipLibCheck` off.
/**
 * `Symbol.asyncDispose` and `Symbol.dispose`, so `await using client = …` and `using handler = …`
 * work. Node ≥ 20, Deno and Bun have both; on a runtime without them this falls back to the
 * registered symbols TypeScript's own down-levelled `using` looks up, so compiled code still
 * finds the method.
 */
export const asyncDisposeSymbol: typeof Symbol.asyncDispose = (Symbol.asyncDispose ?? Symbol.for("Symbol.asyncDispose")) as typeof Symbol.asyncDispose;
export const disposeSymbol: typeof Symbol.dispose = (Symbol.dispose ?? Symbol.for("Symbol.dispose")) as typeof Symbol.dispose;

/** A function that undoes something, callable as before and disposable with `using`. */
export type Disposer = (() => void) & Disposable;

/** Makes `undo` a Disposer: calling it and disposing it do the same. */
export function disposer(undo: () => void): Disposer {
  return Object.assign(() => undo(), { [disposeSymbol]: () => undo() }) as Disposer;
}
