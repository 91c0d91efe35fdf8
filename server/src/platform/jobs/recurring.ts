/**
 * Work that runs again and again (docs/jobs.md, "Recurring jobs"): a kind of job whose run first
 * sends the next one (`startAfter` one interval on, under the kind's singleton key), so that there
 * is always exactly one run waiting, whatever the number of instances. Each instance sends one at
 * start; while a run waits, the singleton key makes that a no-op. The handler must be idempotent
 * (a run may repeat after a crash): the notices it sends take a once-only mark.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineJob, type JobOptions, type JobType } from './types';

type Empty = Record<string, never>;

/** A recurring kind of job (its data is empty). */
export function defineRecurringJob(name: string): JobType<Empty> {
  return defineJob(name, z.object({}).strict() as unknown as z.ZodType<Empty>);
}

export function registerRecurring(
  app: FastifyInstance,
  type: JobType<Empty>,
  run: () => Promise<void>,
  options: { everyMs: number; now: () => number } & JobOptions,
): void {
  const { everyMs, now, ...jobOptions } = options;
  const singletonKey = type.name;
  app.jobs.register(
    type,
    async () => {
      await app.jobs.send(type, {}, { startAfter: now() + everyMs, singletonKey });
      await run();
    },
    { ...jobOptions, oneWaiting: true },
  );
  app.addHook('onListen', async () => {
    await app.jobs.send(type, {}, { singletonKey });
  });
}
