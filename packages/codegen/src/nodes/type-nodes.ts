// The few TypeScript type and declaration forms the generator writes, as plain data.
// print/declaration-printer.ts prints them the way TypeScript's own printer would;
// print/module-printer.ts prints the ones module-nodes.ts uses in the hand-written style.

/**
 * Descriptions printed as JSDoc blocks before a node, in order. A list rather than one text
 * because a node can be described twice (a described `anyOf` member that is itself described).
 */
export interface Documented {
  readonly docs?: readonly string[];
}

export type TypeNode =
  | KeywordType
  | LiteralType
  | TypeReference
  | TupleType
  | UnionType
  | IntersectionType
  | TypeLiteral
  | MappedType
  | TypeOperator
  | TypeQuery
  | IndexedAccessType;

export interface KeywordType extends Documented {
  readonly kind: "keyword";
  readonly keyword: "string" | "number" | "boolean" | "undefined" | "never" | "unknown";
}

/** `"a"`, `1`, `-1`, `true`, `null`. Numbers must be finite. */
export interface LiteralType extends Documented {
  readonly kind: "literal";
  readonly value: string | number | boolean | null;
}

/** `Name`, `T.v1.Name`, `Array<T>`: `name` is dot-qualified when it lives in a namespace. */
export interface TypeReference extends Documented {
  readonly kind: "reference";
  readonly name: string;
  readonly typeArguments?: readonly TypeNode[];
}

export interface TupleType extends Documented {
  readonly kind: "tuple";
  readonly elements: readonly TypeNode[];
}

export interface UnionType extends Documented {
  readonly kind: "union";
  readonly members: readonly TypeNode[];
}

export interface IntersectionType extends Documented {
  readonly kind: "intersection";
  readonly members: readonly TypeNode[];
}

/** `{ a: T; "b/c"?: U; }` */
export interface TypeLiteral extends Documented {
  readonly kind: "typeLiteral";
  readonly members: readonly TypeMember[];
}

/** `{ [parameter in constraint]?: type; }`, `{ readonly [parameter in constraint]: type; }` */
export interface MappedType extends Documented {
  readonly kind: "mapped";
  /** Left out means false. */
  readonly readonly?: boolean;
  readonly parameter: string;
  readonly constraint: TypeNode;
  readonly optional: boolean;
  readonly type: TypeNode;
}

/** `keyof T`, `readonly [ … ]` */
export interface TypeOperator extends Documented {
  readonly kind: "operator";
  readonly operator: "keyof" | "readonly";
  readonly type: TypeNode;
}

/** `typeof name` */
export interface TypeQuery extends Documented {
  readonly kind: "typeQuery";
  readonly name: string;
}

/** `objectType[indexType]` */
export interface IndexedAccessType extends Documented {
  readonly kind: "indexedAccess";
  readonly objectType: TypeNode;
  readonly indexType: TypeNode;
}

export type TypeMember = PropertySignature | MethodSignature;

export interface PropertySignature extends Documented {
  readonly kind: "property";
  readonly name: string;
  /** Written as a string literal (`"thread/start": …`) rather than as an identifier. */
  readonly quoted: boolean;
  readonly optional: boolean;
  /** `readonly name: …`; left out means false. */
  readonly readonly?: boolean;
  readonly type: TypeNode;
}

/** `name(): returnType;` — the generated methods take no parameters. */
export interface MethodSignature extends Documented {
  readonly kind: "method";
  readonly name: string;
  readonly returnType: TypeNode;
}

/** Top-level (or namespace-level) statements. Every one the generator writes is exported. */
export type Declaration = TypeAliasDeclaration | InterfaceDeclaration | NamespaceDeclaration | DeclareConstDeclaration | ImportTypeNamespace;

/** `export type Name = type;` */
export interface TypeAliasDeclaration extends Documented {
  readonly kind: "typeAlias";
  readonly name: string;
  readonly type: TypeNode;
}

/** `export interface Name { … }` */
export interface InterfaceDeclaration extends Documented {
  readonly kind: "interface";
  readonly name: string;
  readonly members: readonly TypeMember[];
}

/** `export namespace Name { … }` */
export interface NamespaceDeclaration extends Documented {
  readonly kind: "namespace";
  readonly name: string;
  readonly body: readonly Declaration[];
}

/** `export declare const Name: type;` */
export interface DeclareConstDeclaration extends Documented {
  readonly kind: "declareConst";
  readonly name: string;
  readonly type: TypeNode;
}

/** `import type * as alias from "from";` */
export interface ImportTypeNamespace extends Documented {
  readonly kind: "importTypeNamespace";
  readonly alias: string;
  readonly from: string;
}

export type Node = TypeNode | TypeMember | Declaration;

export function keyword(name: KeywordType["keyword"]): KeywordType {
  return { kind: "keyword", keyword: name };
}

export function literal(value: LiteralType["value"]): LiteralType {
  return { kind: "literal", value };
}

/** No type arguments and an empty list are the same reference (`Name`), as in TypeScript's factory. */
export function reference(name: string, typeArguments?: readonly TypeNode[]): TypeReference {
  return typeArguments && typeArguments.length > 0 ? { kind: "reference", name, typeArguments } : { kind: "reference", name };
}

export function property(name: string, type: TypeNode, options: { quoted?: boolean; optional?: boolean; readonly?: boolean } = {}): PropertySignature {
  const signature: PropertySignature = { kind: "property", name, quoted: options.quoted ?? false, optional: options.optional ?? false, type };
  return options.readonly ? { ...signature, readonly: true } : signature;
}
