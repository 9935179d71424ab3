/**
 * `true` when A and B are the same type, else `false`: `const x: Same<A, B> = true` fails to compile
 * when two declarations that must agree (a list and a type, routes and definitions) drift apart.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
