/**
 * A child of the process pool's tests (process-pool.test.ts): tasks that answer, throw, hold
 * memory outside the V8 heap, run forever or die.
 */
import { serveTasks } from './child';

const held: Buffer[] = [];

export const testTasks = {
  'test.echo': async (input: { bytes: Uint8Array; text: string }) => ({
    length: input.bytes.length,
    text: input.text.toUpperCase(),
  }),
  'test.throw': async (input: { message: string }) => {
    throw new RangeError(input.message);
  },
  /** Grows by 16 MB of (touched) ArrayBuffer memory every 10 ms, for ever. */
  'test.grow': async (_input: object) => {
    for (;;) {
      held.push(Buffer.alloc(16 * 1024 * 1024, 1));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  },
  /** Spins on the CPU for ever (no awaits: the child's own event loop is stuck too). */
  'test.spin': async (_input: object) => {
    for (;;) {
      /* nothing */
    }
  },
  'test.exit': async (_input: object) => {
    process.exit(3);
  },
};

serveTasks(testTasks);
