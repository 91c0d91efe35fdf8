/**
 * The only host globals `core` may use. `core` runs in browsers and in Node, so it is compiled
 * without DOM or Node typings; anything it needs from the host is declared here explicitly.
 */
declare const console: {
  warn(...args: unknown[]): void;
};

/** WHATWG URL parsing (browsers and Node have it): the link rule (link-url.ts) reads its parts. */
declare class URL {
  constructor(url: string, base?: string);
  readonly href: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}
