/** The entry of a compute worker process (content-workers.ts; dist/compute-worker.js). */
import { computeTasks } from './compute-tasks';
import { serveTasks } from './child';

serveTasks(computeTasks);
