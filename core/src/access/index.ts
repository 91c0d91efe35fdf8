/**
 * The permission model (spec §3, §6): catalogue, system roles, context roles, resolution, checks
 * with exact denial reasons, and the audit ring. Both the server and the web client use it.
 */
export * from './catalogue';
export * from './roles';
export * from './context';
export * from './check';
export * from './audit';
export * from './engine';
export * from './nav';
export * from './grants';
export * from './announce';
