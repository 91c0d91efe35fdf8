/**
 * The request logger (`request.log`, `reply.log`), made when it is first written to. Fastify gives
 * every request a pino child with the request id bound; making one (bindings serialised, redaction
 * set up) cost more than any hook of an authenticated request, yet most requests log nothing at
 * the configured level. So each request gets this stand-in: a call at a level that is off does
 * nothing, and the first call at a level that is on makes the real child, with the same bindings
 * and options, and hands it every call from then on. What is written is exactly what the child
 * would have written.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Write = (...args: unknown[]) => void;

/** A pino logger: what the stand-in needs to tell whether a level is on. */
interface LevelAware extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

const isLevelAware = (logger: FastifyBaseLogger): logger is LevelAware =>
  typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';

class LazyChildLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  /** The real child, made on first use. */
  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: Level, args: unknown[]): void {
    const logger = this.made ?? this.parent;
    if (!(logger as LevelAware).isLevelEnabled(level)) return;
    (this.real()[level] as Write)(...args);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  /** A child of the request logger: made from the real one, so the request id is bound too. */
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: the stand-in above for a pino logger, the real child for
 * anything else (or when a route sets its own level or serialisers, which pino applies when the
 * child is made).
 */
export const lazyChildLoggerFactory: ChildLoggerFactory = function (logger, bindings, options) {
  if (!isLevelAware(logger) || options.level !== undefined || options.serializers !== undefined) {
    return logger.child(bindings, options);
  }
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
};
