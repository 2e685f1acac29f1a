// What the declarations need of ESNext.Disposable, declared as that lib and @types/node declare it:
// interfaces, which merge with both and with a project's own polyfill declarations, so a project
// without that lib (a page's ES2022 + DOM, no Node types, `skipLibCheck` off) type-checks them. A
// `/// <reference lib>` here would also pull in DisposableStack and SuppressedError, which clash
// with a polyfill declared as classes.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
  interface Disposable {
    [Symbol.dispose](): void;
  }
  interface AsyncDisposable {
    [Symbol.asyncDispose](): PromiseLike<void>;
  }
}

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
