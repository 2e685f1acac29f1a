/** Whether `promise` settles within `ms`; the timer is cleared either way, so nothing is left pending. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settled = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settled, settled);
  });
}
