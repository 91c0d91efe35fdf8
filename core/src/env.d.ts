/**
 * The only host globals `core` may use. `core` runs in browsers and in Node, so it is compiled
 * without DOM or Node typings; anything it needs from the host is declared here explicitly.
 */
declare const console: {
  warn(...args: unknown[]): void;
};
