import { AddMemberBody, RemoveMemberBody, UpdateMemberBody } from '../../shared/api/members';
import type { ServiceContext } from '../context';
import type { ProjectRow } from '../db/projects';
import { notFound, refused } from '../http/errors';
import type { Router } from '../http/router';
import { recordHistory } from './history';

/**
 * Hands the user's items in the project (tasks, milestones and other project events, owned
 * sub-projects) to the project owner, or unassigns them when the user is the owner or there is none.
 */
function reassignToOwner(ctx: ServiceContext, project: ProjectRow, userId: string): void {
  const to = project.owner_user_id && project.owner_user_id !== userId ? project.owner_user_id : null;
  ctx.tasks.reassignInProject(project.id, userId, to);
  ctx.events.reassignInProject(project.id, userId, to);
  ctx.projects.reassignSubprojects(project.id, userId, to);
}

export function memberRoutes(r: Router, ctx: ServiceContext): void {
  const load = (params: Record<string, string>) => {
    const project = ctx.projects.row(params['id']);
    if (!project) throw notFound('project', params['id']);
    const userId = params['userId'];
    if (userId !== undefined && !ctx.org.isUser(userId)) throw notFound('user', userId);
    return project;
  };
  /** The project and user a membership route names, once the acting user is known. */
  const target = (params: Record<string, string>, actingUserId: string) => {
    const project = load(params);
    const userId = params['userId'];
    ctx.requireUser('userId', actingUserId);
    return { project, userId };
  };
  /** The same, and that user's membership of the project, which must exist. */
  const membership = (params: Record<string, string>, actingUserId: string) => {
    const { project, userId } = target(params, actingUserId);
    const member = ctx.projects.member(project.id, userId);
    if (!member) throw notFound('project member', userId);
    return { project, userId, member };
  };

  r.get('/project/:id/users', {
    handle: ({ params }) => ({ json: ctx.projects.members(load(params).id) }),
  });

  r.post('/project/:id/user/:userId', {
    body: AddMemberBody,
    handle: ({ params, body }) => {
      const { project, userId } = target(params, body.userId);
      if (!project.is_workspace) {
        const workspace = ctx.projects.ancestors(project.id).find((a) => a.is_workspace === 1);
        if (workspace && !ctx.projects.member(workspace.id, userId)) {
          throw refused(
            `the user is not a member of the Workspace "${workspace.name}"; add them there first`,
          );
        }
      }
      ctx.projects.setMember({
        project_id: project.id,
        user_id: userId,
        access: body.access,
        watch_all: 0,
        inherited_from: null,
      });
      recordHistory(ctx, project.id, body.userId, 'USER_ADDED', { userId, access: body.access }, null);
      return 'OK';
    },
  });

  r.put('/project/:id/user/:userId', {
    body: UpdateMemberBody,
    handle: ({ params, body }) => {
      const { project, userId, member } = membership(params, body.userId);
      ctx.projects.setMember({ ...member, access: body.access });
      if (body.access < 0) reassignToOwner(ctx, project, userId);
      recordHistory(
        ctx,
        project.id,
        body.userId,
        'USER_ACCESS_UPDATED',
        { userId, access: body.access },
        { userId, access: member.access },
      );
      return 'OK';
    },
  });

  r.delete('/project/:id/user/:userId', {
    body: RemoveMemberBody,
    handle: ({ params, body }) => {
      const { project, userId, member } = membership(params, body.userId);
      if (project.owner_user_id === userId) {
        throw refused(
          'cannot remove the project owner; change the owner first (PUT /project/{id} with ownerUserId)',
        );
      }
      if (project.is_public) throw refused('cannot remove a user from a public project');
      if (member.inherited_from) {
        throw refused(`cannot remove a user whose membership is inherited (from ${member.inherited_from})`);
      }
      reassignToOwner(ctx, project, userId);
      ctx.projects.removeMember(project.id, userId);
      recordHistory(ctx, project.id, body.userId, 'USER_REMOVED', null, { userId, access: member.access });
      return 'OK';
    },
  });
}
