/**
 * The announcements' background job (docs/jobs.md, docs/announcements.md "Scheduling"): publishing
 * a scheduled announcement at its time. Idempotent: it publishes only while the announcement is
 * still scheduled for the time the job was sent for, in one conditional update, so a job run
 * twice, on two instances, or after the time was changed publishes it once or not at all.
 */
import type { FastifyInstance } from 'fastify';
import {
  publishScheduled,
  PublishAnnouncement,
  type AnnouncementDeps,
} from './announcement-service';

export { PublishAnnouncement };

export function registerAnnouncementJobs(app: FastifyInstance, deps: AnnouncementDeps): void {
  app.jobs.register(
    PublishAnnouncement,
    async ({ announcementId, publishAt }) => {
      await publishScheduled(deps, announcementId, publishAt);
    },
    { retryLimit: 5, retryDelaySeconds: 15, timeoutSeconds: 120 },
  );
}
