// The admin's calls about projects (with the admin token).
import type { Api } from '../../shared/api/client.ts';

/** The projects (the first 100: the switcher and the projects page show them all). */
export const listProjects = (admin: Api) => admin.get('/admin/projects', { query: { limit: 100 } });

/** A new project; the answer carries its secret and public keys, shown once. */
export const createProject = (admin: Api, name: string) => admin.post('/admin/projects', { body: { name } });

/** The cache key of the instance's projects: they belong to no project (the switcher and this page read them). */
export const PROJECTS_KEY = ['admin', 'projects'] as const;
