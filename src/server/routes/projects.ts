import { PROJECT_SYSTEM_STATUS } from '../../shared/api/org';
import {
  NewFolderBody,
  NewProjectBody,
  ProjectsQuery,
  UpdateProjectBody,
  WORK_ITEMS,
  type ProjectSettings,
} from '../../shared/api/projects';
import type { ProjectHistoryType } from '../../shared/api/history';
import type { ServiceContext } from '../context';
import type { ProjectRow } from '../db/projects';
import { badRequest, notFound, refused } from '../http/errors';
import { checkDateRange } from './date-range';
import type { Router } from '../http/router';
import { applyCustomFields, SetCustomFieldsRequest } from './custom-fields';
import { recordHistory } from './history';

const FOLDER_SETTINGS: ProjectSettings = {
  workItems: [...WORK_ITEMS],
  additionalTaskCustomFields: [],
  taskCustomWorkflow: [],
  taskTypes: [],
};

/** Throws unless `parentId` names a project or folder other than `selfId` and its descendants. */
export function checkParent(ctx: ServiceContext, parentId: string, selfId?: string): void {
  if (!ctx.projects.row(parentId))
    throw badRequest('parentProjectId', `no project or folder with id ${JSON.stringify(parentId)}`);
  if (selfId && (parentId === selfId || ctx.projects.descendants(selfId).includes(parentId))) {
    throw badRequest('parentProjectId', 'cannot move a project into itself or one of its sub-projects');
  }
}

/**
 * New project or folder: the creator and owner become Full members; the members of a parent
 * project or folder are inherited (a Workspace's are not: it only gates who may be added).
 */
function createProject(ctx: ServiceContext, row: ProjectRow): void {
  ctx.projects.insert(row);
  const parent = row.parent_project_id ? ctx.projects.row(row.parent_project_id) : undefined;
  if (parent && !parent.is_workspace) {
    for (const m of ctx.projects.memberRows(parent.id)) {
      ctx.projects.setMember({
        project_id: row.id,
        user_id: m.id,
        access: m.accessCode,
        watch_all: 0,
        inherited_from: 'parent',
      });
    }
  }
  for (const userId of new Set([row.created_by_user_id, row.owner_user_id])) {
    if (userId) {
      ctx.projects.setMember({
        project_id: row.id,
        user_id: userId,
        access: 3,
        watch_all: 0,
        inherited_from: null,
      });
    }
  }
  recordHistory(ctx, row.id, row.created_by_user_id ?? '', 'PROJECT_CREATED', row.name, null);
}

export function projectRoutes(r: Router, ctx: ServiceContext): void {
  const inProgress = () => ctx.org.statusByName('In Progress')?.id ?? null;

  r.get('/projects', {
    query: ProjectsQuery,
    handle: ({ query }) => ({
      json: ctx.projects.list(query.archived, query.rootOnly).map((p) => ctx.projects.withCustomFields(p)),
    }),
  });

  r.get('/project/:id', {
    handle: ({ params }) => {
      const p = ctx.projects.row(params['id']);
      if (!p) throw notFound('project', params['id']);
      return { json: { ...ctx.projects.withCustomFields(p), settings: ctx.projects.settings(p) } };
    },
  });

  r.post('/projects/new-folder', {
    body: NewFolderBody,
    handle: ({ body }) => {
      ctx.requireUser('createdByUserId', body.createdByUserId);
      if (body.parentProjectId) checkParent(ctx, body.parentProjectId);
      const id = ctx.newId();
      createProject(ctx, {
        ...emptyProject(ctx, id, body.name, body.createdByUserId),
        is_folder: 1,
        parent_project_id: body.parentProjectId ?? null,
        color: body.color ?? null,
        status_id: inProgress(),
        owner_user_id: body.createdByUserId,
        settings: JSON.stringify(FOLDER_SETTINGS),
      });
      return { json: ctx.projects.base(ctx.projects.row(id)!) };
    },
  });

  r.post('/projects/new-project', {
    body: NewProjectBody,
    handle: ({ body }) => {
      ctx.requireUser('createdByUserId', body.createdByUserId);
      const template = ctx.org.template(body.projectTemplateId);
      if (!template)
        throw badRequest(
          'projectTemplateId',
          `no project template with id ${JSON.stringify(body.projectTemplateId)}`,
        );
      if (body.parentProjectId) checkParent(ctx, body.parentProjectId);
      if (body.projectOwnerUserId) ctx.requireUser('projectOwnerUserId', body.projectOwnerUserId);
      checkDateRange(body.startDate ?? null, body.endDate ?? null);
      const id = ctx.newId();
      createProject(ctx, {
        ...emptyProject(ctx, id, body.name, body.createdByUserId),
        parent_project_id: body.parentProjectId ?? null,
        template_id: template.id,
        color: body.color ?? null,
        start_date: body.startDate ?? null,
        end_date: body.endDate ?? null,
        deadline: body.deadline ?? null,
        status_id: inProgress(),
        owner_user_id: body.projectOwnerUserId ?? body.createdByUserId,
        settings: template.settings,
      });
      return { json: ctx.projects.base(ctx.projects.row(id)!) };
    },
  });

  r.put('/project/:id', {
    body: UpdateProjectBody,
    handle: ({ params, body }) => {
      const p = ctx.projects.row(params['id']);
      if (!p) throw notFound('project', params['id']);
      ctx.requireUser('userId', body.userId);
      const next: ProjectRow = { ...p };
      const changes: [ProjectHistoryType, unknown, unknown][] = [];
      const set = <K extends keyof ProjectRow>(
        key: K,
        value: ProjectRow[K] | undefined,
        type: ProjectHistoryType,
      ) => {
        if (value === undefined || value === next[key]) return;
        changes.push([type, value, next[key]]);
        next[key] = value;
      };
      set('name', body.name, 'NAME_UPDATED');
      set('description', body.description, 'DESCRIPTION_UPDATED');
      set('color', body.color, 'COLOR_UPDATED');
      set('health', body.health, 'HEALTH_UPDATED');
      set('status_comments', body.statusComments, 'STATUS_COMMENTS_UPDATED');
      if (body.parentProjectId !== undefined) checkParent(ctx, body.parentProjectId, p.id);
      set('parent_project_id', body.parentProjectId, 'PARENT_UPDATED');
      if (body.ownerUserId) {
        ctx.requireUser('ownerUserId', body.ownerUserId);
        if (!ctx.projects.member(p.id, body.ownerUserId)) {
          throw refused('ownerUserId: the new owner must already be a project member');
        }
      }
      set('owner_user_id', body.ownerUserId, 'OWNER_UPDATED');
      set('start_date', body.startDate, 'START_DATE_UPDATED');
      set('end_date', body.endDate, 'END_DATE_UPDATED');
      checkDateRange(next.start_date, next.end_date);
      set('priority', body.priority, 'PRIORITY_UPDATED');
      set('estimate', body.estimate, 'ESTIMATE_UPDATED');
      set('progress', body.progress, 'PROGRESS_UPDATED');
      if (body.statusId !== undefined) {
        // statusId wins over systemStatus; the system status follows the chosen status.
        if (p.is_folder) throw badRequest('statusId', 'is not supported for folders');
        const status = ctx.org.status(body.statusId);
        if (!status) throw badRequest('statusId', `no status with id ${JSON.stringify(body.statusId)}`);
        set('status_id', status.id, 'STATUS_UPDATED');
        const system = status.is_closed ? PROJECT_SYSTEM_STATUS.archived : PROJECT_SYSTEM_STATUS.open;
        set('system_status', system, 'SYSTEM_STATUS_UPDATED');
      } else {
        set('system_status', body.systemStatus, 'SYSTEM_STATUS_UPDATED');
      }
      if (changes.length > 0) {
        ctx.projects.update(next);
        for (const [type, newValue, oldValue] of changes)
          recordHistory(ctx, p.id, body.userId, type, newValue, oldValue);
      }
      return 'OK';
    },
  });

  r.put('/project/:id/custom-fields', {
    body: SetCustomFieldsRequest,
    handle: ({ params, body }) => {
      const p = ctx.projects.row(params['id']);
      if (!p) throw notFound('project', params['id']);
      if (body.userId) ctx.requireUser('userId', body.userId);
      const result = applyCustomFields(
        ctx,
        p.custom_fields_data,
        body.customFields,
        (i) => `customFields.${i}`,
      );
      ctx.projects.update({ ...p, custom_fields_data: result.json });
      for (const c of result.changed) {
        recordHistory(
          ctx,
          p.id,
          body.userId ?? '',
          'CUSTOM_FIELD_UPDATED',
          { [c.id]: c.newValue },
          { [c.id]: c.oldValue },
        );
      }
      return 'OK';
    },
  });
}

function emptyProject(ctx: ServiceContext, id: string, name: string, createdBy: string): ProjectRow {
  return {
    id,
    name,
    description: '',
    is_folder: 0,
    is_workspace: 0,
    is_public: 0,
    parent_project_id: null,
    template_id: null,
    start_date: null,
    end_date: null,
    deadline: null,
    estimate: null,
    priority: 1,
    progress: null,
    status_id: null,
    status_comments: '',
    system_status: PROJECT_SYSTEM_STATUS.open,
    color: null,
    health: null,
    owner_user_id: null,
    created_by_user_id: createdBy,
    moment_created: ctx.now(),
    custom_fields_data: '{}',
    settings: JSON.stringify(FOLDER_SETTINGS),
  };
}
