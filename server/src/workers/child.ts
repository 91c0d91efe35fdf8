/**
 * The child's side of a ProcessPool (process-pool.ts): answers the parent's tasks from a task
 * table, one at a time, and says when it is ready. A child whose parent goes away exits.
 */
import type { FromChild, TaskTable, ToChild } from './process-pool';

export function serveTasks(tasks: TaskTable): void {
  const send = (message: FromChild) => {
    try {
      process.send?.(message);
    } catch {
      process.exit(1);
    }
  };
  process.on('message', (message: ToChild) => {
    void (async () => {
      const task = Object.hasOwn(tasks, message.task) ? tasks[message.task] : undefined;
      try {
        if (!task) throw new Error(`no task ${message.task}`);
        const value = await task(message.input as never);
        send({ id: message.id, ok: true, value });
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        send({ id: message.id, ok: false, name: failure.name, message: failure.message });
      }
    })();
  });
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}
