import { z } from 'zod';
import { Id } from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

/** Access levels in requests, and the names responses give them. */
export const ACCESS_LEVELS = {
  '-10': 'Read only',
  '-5': 'Read only + comment',
  '1': 'Limited',
  '2': 'Standard',
  '3': 'Full',
} as const;

export const ProjectUser = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    primaryEmail: z.string(),
    access: z.string(),
    watchAll: z.boolean(),
  }),
);
export type ProjectUser = z.infer<typeof ProjectUser>;
export const ProjectUsersResponse = lazySchema(() => z.array(ProjectUser));

/** POST /project/{id}/user/{userId} */
export const AddMemberBody = lazySchema(() =>
  z.object({
    userId: Id,
    access: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'must be 1, 2 or 3' }),
  }),
);
export type AddMemberBody = z.infer<typeof AddMemberBody>;

/** PUT /project/{id}/user/{userId} */
export const UpdateMemberBody = lazySchema(() =>
  z.object({
    userId: Id,
    access: z.union([z.literal(-10), z.literal(-5), z.literal(1), z.literal(2), z.literal(3)], {
      message: 'must be -10, -5, 1, 2 or 3',
    }),
  }),
);
export type UpdateMemberBody = z.infer<typeof UpdateMemberBody>;

/** DELETE /project/{id}/user/{userId}; `userId` in the body. */
export const RemoveMemberBody = lazySchema(() => z.object({ userId: Id }));
export type RemoveMemberBody = z.infer<typeof RemoveMemberBody>;

export const MemberParams = lazySchema(() => z.object({ id: Id, userId: Id }));

/** The service's endpoints of a project's members. */
export const memberEndpoints = endpoints({
  projectUsers: endpoint({
    method: 'GET',
    path: '/project/{id}/users',
    read: 'list',
    response: ProjectUsersResponse,
  }),
  addProjectUser: endpoint({
    method: 'POST',
    path: '/project/{projectId}/user/{userId}',
    read: 'none',
    body: AddMemberBody,
  }),
  updateProjectUser: endpoint({
    method: 'PUT',
    path: '/project/{projectId}/user/{userId}',
    read: 'none',
    body: UpdateMemberBody,
  }),
  removeProjectUser: endpoint({
    method: 'DELETE',
    path: '/project/{projectId}/user/{userId}',
    read: 'none',
    body: RemoveMemberBody,
  }),
});
