import { describeThrown } from "../util/describe-value.js";

/** How the client looks validators up: by method, each possibly missing (another version's table). */
export type ValidatorFunction = { (value: unknown): boolean; errors?: readonly unknown[] | null };
export interface ValidatorTables {
  readonly clientRequestValidators: Readonly<Record<string, { readonly result?: ValidatorFunction } | undefined>>;
  readonly serverRequestValidators: Readonly<Record<string, { readonly params?: ValidatorFunction } | undefined>>;
  readonly serverNotificationValidators: Readonly<Record<string, { readonly params?: ValidatorFunction } | undefined>>;
}

/** A validator's errors, or undefined when the value passes. A validator can overflow the stack on a deeply nested value: that is a failure too. */
export function validationErrors(validate: ValidatorFunction, value: unknown): readonly unknown[] | undefined {
  try {
    return validate(value) ? undefined : (validate.errors ?? []);
  } catch (error) {
    return [{ message: `the validator could not check it: ${describeThrown(error)}` }];
  }
}
