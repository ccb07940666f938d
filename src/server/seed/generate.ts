import { formatLocalTimestamp, formatLocalDate } from '../../shared/api/common';
import { PROJECT_SYSTEM_STATUS } from '../../shared/api/org';
import { COMMUNICATION_FLOW } from '../../shared/api/messages';
import { messageStore } from '../db/messages';
import type { Db } from '../db/open';
import { projectStore } from '../db/projects';
import { taskStore, type TaskRow } from '../db/tasks';
import { PROJECT_TEMPLATE_SETTINGS, SEED_IDS, WORKSPACE_MEMBERS, seedOrganization } from './org';

export interface GenerateOptions {
  /** Projects to create; every tenth is a folder holding the projects after it (two levels). */
  projects: number;
  /** Tasks, spread evenly over the non-folder projects; one in five is a subtask. */
  tasks: number;
  messagesPerTask: number;
  /** Same seed, same workspace: ids, names, dates and assignments all follow from it. */
  seed: number;
  /** The moment the newest item was created; default 2026-01-15 09:00 local. */
  now?: Date;
}

export interface GeneratedWorkspace {
  folderIds: string[];
  projectIds: string[];
  taskIds: string[];
  messageCount: number;
}

/** mulberry32: a small, fast, seedable PRNG (deterministic across runs and machines). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS = ['Draft', 'Review', 'Fix', 'Ship', 'Plan', 'Test', 'Design', 'Migrate', 'Document', 'Refactor'];
const NOUNS = [
  'login flow',
  'invoice export',
  'search index',
  'onboarding email',
  'API limits',
  'dashboard',
  'sync engine',
  'billing page',
  'release notes',
  'audit log',
];
const PROJECTS = [
  'Website relaunch',
  'Mobile app',
  'Customer portal',
  'Data platform',
  'Support desk',
  'Q3 campaign',
  'Partner API',
  'Office move',
];
const LINES = [
  'Looks good to me.',
  'Can you take a look?',
  'I pushed a fix.',
  'Blocked on review.',
  'Done, please verify.',
  'Moved to next sprint.',
];

/**
 * Writes a deterministic workspace under the seed's Workspace folder in ONE transaction:
 * folders and projects two levels deep, tasks with subtasks, and messages. Fast enough for
 * 200 projects / 20,000 tasks / 60,000 messages in a few seconds (the sync benchmark uses it).
 */
export function generateWorkspace(db: Db, o: GenerateOptions): GeneratedWorkspace {
  const now = o.now ?? new Date(2026, 0, 15, 9, 0, 0);
  seedOrganization(db, now);
  const random = prng(o.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const projects = projectStore(db);
  const tasks = taskStore(db);
  const messages = messageStore(db);
  const prefix = `g${o.seed}`;
  const stamp = (minutesAgo: number) => formatLocalTimestamp(new Date(now.getTime() - minutesAgo * 60_000));
  const day = (offsetDays: number) => formatLocalDate(new Date(now.getTime() + offsetDays * 86_400_000));
  const settings = JSON.stringify(PROJECT_TEMPLATE_SETTINGS);
  const statuses = Object.values(SEED_IDS.statuses);
  const closed = new Set<string>([SEED_IDS.statuses.done, SEED_IDS.statuses.cancelled]);
  const types = Object.values(SEED_IDS.taskTypes);
  const out: GeneratedWorkspace = { folderIds: [], projectIds: [], taskIds: [], messageCount: 0 };

  db.transaction(() => {
    let folder: string = SEED_IDS.workspace;
    for (let i = 0; i < o.projects; i++) {
      const isFolder = o.projects > 1 && i % 10 === 0;
      const id = `${prefix}-p${i}`;
      const owner = pick(WORKSPACE_MEMBERS);
      projects.insert({
        id,
        // The end-to-end tests name generated folders and projects ("Website relaunch area 1",
        // "Support desk 1"): keep this naming and the order of random draws stable.
        name: isFolder ? `${pick(PROJECTS)} area ${i / 10 + 1}` : `${pick(PROJECTS)} ${i}`,
        description: isFolder ? '' : `Generated project ${i}.`,
        is_folder: isFolder ? 1 : 0,
        is_workspace: 0,
        is_public: 0,
        parent_project_id: isFolder ? SEED_IDS.workspace : folder,
        template_id: isFolder ? null : SEED_IDS.templates.project,
        start_date: isFolder ? null : day(-60 + (i % 30)),
        end_date: isFolder ? null : day(30 + (i % 60)),
        deadline: null,
        estimate: null,
        priority: 1 + Math.floor(random() * 10),
        progress: isFolder ? null : Math.floor(random() * 101),
        status_id: SEED_IDS.statuses.inProgress,
        status_comments: '',
        system_status: PROJECT_SYSTEM_STATUS.open,
        color: 1 + (i % 24),
        health: isFolder ? null : i % 3,
        owner_user_id: owner,
        created_by_user_id: owner,
        moment_created: stamp(100_000 - i),
        custom_fields_data: '{}',
        settings,
      });
      for (const userId of WORKSPACE_MEMBERS) {
        projects.setMember({
          project_id: id,
          user_id: userId,
          access: userId === owner ? 3 : 2,
          watch_all: 0,
          inherited_from: null,
        });
      }
      projects.addHistory({
        id: `${id}-h0`,
        project_id: id,
        event_type: 'PROJECT_CREATED',
        moment_created: stamp(100_000 - i),
        user_id: owner,
        new_value: JSON.stringify(`Project ${i}`),
        old_value: null,
      });
      if (isFolder) {
        folder = id;
        out.folderIds.push(id);
      } else {
        out.projectIds.push(id);
      }
    }
    if (out.projectIds.length === 0) return;

    const recentInProject = new Map<string, string[]>();
    for (let i = 0; i < o.tasks; i++) {
      const projectId = out.projectIds[i % out.projectIds.length]!;
      const recent = recentInProject.get(projectId) ?? [];
      const parent = i % 5 === 4 && recent.length > 0 ? recent[recent.length - 1]! : null;
      const status = pick(statuses);
      const creator = pick(WORKSPACE_MEMBERS);
      const assignee = random() < 0.8 ? pick(WORKSPACE_MEMBERS) : null;
      const created = stamp(o.tasks - i + 10);
      const id = `${prefix}-t${i}`;
      const row: TaskRow = {
        id,
        short_id: tasks.nextShortId(),
        project_id: projectId,
        parent_task_id: parent,
        name: `${pick(VERBS)} ${pick(NOUNS)}`,
        created_by_user_id: creator,
        assigned_to_user_id: assignee,
        action_required_user_id: assignee,
        status_id: status,
        task_type_id: pick(types),
        priority: random() < 0.05 ? 50 : 1 + Math.floor(random() * 10),
        start_date: null,
        end_date: null,
        deadline: random() < 0.3 ? day(Math.floor(random() * 40) - 10) : null,
        schedule_date: random() < 0.2 ? day(Math.floor(random() * 20)) : null,
        schedule_status: 0,
        estimate: random() < 0.4 ? 30 * (1 + Math.floor(random() * 16)) : null,
        progress: random() < 0.4 ? Math.floor(random() * 101) : null,
        story_points: null,
        todo_list: null,
        crm_account_id: null,
        custom_fields_data:
          random() < 0.2
            ? JSON.stringify({ [SEED_IDS.customFields.dropdown]: 1 + Math.floor(random() * 3) })
            : '{}',
        form_submission: null,
        users: JSON.stringify(assignee && assignee !== creator ? [creator, assignee] : [creator]),
        moment_created: created,
        moment_closed: closed.has(status) ? created : null,
        recent_activity_moment: created,
      };
      tasks.insert(row);
      out.taskIds.push(id);
      if (!parent) {
        recent.push(id);
        recentInProject.set(projectId, recent.slice(-3));
      }
      for (let m = 0; m < o.messagesPerTask; m++) {
        messages.insert({
          id: `${id}-m${m}`,
          task_id: id,
          date_created: created,
          communication_flow: m === 0 ? COMMUNICATION_FLOW.created : COMMUNICATION_FLOW.comment,
          from_user_id: m === 0 ? creator : pick(WORKSPACE_MEMBERS),
          to_user_id: assignee,
          message: m === 0 ? `Please ${row.name.toLowerCase()}.` : pick(LINES),
          edit_by_user_id: null,
          edit_date: null,
          task_status_id: status,
          task_system_status_new: null,
          attachments: null,
        });
        out.messageCount++;
      }
    }
  })();
  return out;
}
