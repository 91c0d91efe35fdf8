/** Learning Hub core: isomorphic model, tables, contracts, errors and constants. */
// First: zod must be configured before any schema below is built (see zod-config.ts).
import './zod-config';
export * from './access';
export * from './routes';
export * from './errors';
export * from './constants';
export * from './contracts/common';
export * from './contracts/access';
export * from './contracts/auth';
export * from './contracts/admin';
export * from './contracts/auth-providers';
export * from './contracts/sign-in-texts';
export * from './contracts/files';
export * from './contracts/course';
export * from './contracts/learning';
export * from './contracts/classroom';
export * from './contracts/jobs';
export * from './contracts/search';
export * from './contracts/library';
export * from './contracts/wiki';
export * from './contracts/departments';
export * from './contracts/notifications';
export * from './contracts/schema-names';
export * from './wiki-templates';
export * from './link-url';
export * from './notification-kinds';
export * from './settings';
export * from './contracts/settings';
