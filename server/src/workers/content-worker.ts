/** The entry of a content worker process (content-workers.ts; dist/content-worker.js). */
import { contentTasks } from './content-tasks';
import { serveTasks } from './child';

serveTasks(contentTasks);
