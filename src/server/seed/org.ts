import { formatLocalTimestamp } from '../../shared/api/common';
import { CUSTOM_FIELD_TYPES } from '../../shared/api/custom-fields';
import { WORK_ITEMS, type ProjectSettings } from '../../shared/api/projects';
import type { Db } from '../db/open';

/**
 * Fixed ids of the organization set-up both seeds write, so tests and the demo can name them.
 * The API cannot write any of this (users, statuses, task types, tags, templates, custom-field
 * definitions, CRM contact types, the Workspace).
 */
export const SEED_IDS = {
  companyId: 'company-1',
  users: { admin: 'u-ada', bob: 'u-bob', cleo: 'u-cleo', dan: 'u-dan', guest: 'u-guest' },
  statuses: {
    new: 's-new',
    notStarted: 's-not-started',
    inProgress: 's-in-progress',
    onHold: 's-on-hold',
    done: 's-done',
    cancelled: 's-cancelled',
  },
  taskTypes: { task: 'tt-task', bug: 'tt-bug', feature: 'tt-feature', request: 'tt-request' },
  tags: { urgent: 'tag-urgent', customer: 'tag-customer', backend: 'tag-backend', frontend: 'tag-frontend' },
  templates: { project: 'pt-project', kanban: 'pt-kanban' },
  contactTypes: { customer: 'ct-customer', partner: 'ct-partner', lead: 'ct-lead' },
  workspace: 'p-workspace',
  customFields: Object.fromEntries(
    Object.keys(CUSTOM_FIELD_TYPES).map((name) => [name, `cf-${name}`]),
  ) as Record<keyof typeof CUSTOM_FIELD_TYPES, string>,
} as const;

const USERS: [string, string, string][] = [
  [SEED_IDS.users.admin, 'Ada Lindqvist', 'ada@example.test'],
  [SEED_IDS.users.bob, 'Bob Okafor', 'bob@example.test'],
  [SEED_IDS.users.cleo, 'Cleo Martins', 'cleo@example.test'],
  [SEED_IDS.users.dan, 'Dan Whitfield', 'dan@example.test'],
  [SEED_IDS.users.guest, 'Gita Guest', 'gita@partner.test'],
];

const STATUSES: [string, string, number, number][] = [
  [SEED_IDS.statuses.new, 'New', 1, 0],
  [SEED_IDS.statuses.notStarted, 'Not started', 1, 0],
  [SEED_IDS.statuses.inProgress, 'In Progress', 2, 0],
  [SEED_IDS.statuses.onHold, 'On Hold', 3, 0],
  [SEED_IDS.statuses.done, 'Done', 4, 1],
  [SEED_IDS.statuses.cancelled, 'Cancelled', 5, 1],
];

const FIELD_PARAMS: Partial<Record<keyof typeof CUSTOM_FIELD_TYPES, Record<string, unknown>>> = {
  currency: { decimalPlaces: 2, symbol: '€' },
  percentage: { decimalPlaces: 0, symbol: '%' },
  number: { decimalPlaces: null, symbol: '' },
  dropdown: { listItems: { '1': 'Low', '2': 'Medium', '3': 'High' } },
  multiSelect: { listItems: { '1': 'Web', '2': 'Desktop', '3': 'Mobile', '4': 'API' } },
  rating: { max: 5 },
};
const FIELD_NAMES: Record<keyof typeof CUSTOM_FIELD_TYPES, string> = {
  text: 'Customer reference',
  textarea: 'Acceptance notes',
  checkbox: 'Billable',
  number: 'Units',
  currency: 'Budget',
  percentage: 'Discount',
  date: 'Go-live date',
  dropdown: 'Impact',
  multiSelect: 'Platforms',
  rating: 'Satisfaction',
  email: 'Contact email',
  phone: 'Contact phone',
  url: 'Spec link',
  user: 'Reviewer',
  rag: 'RAG',
};

export const PROJECT_TEMPLATE_SETTINGS: ProjectSettings = {
  workItems: [...WORK_ITEMS],
  additionalTaskCustomFields: [SEED_IDS.customFields.dropdown, SEED_IDS.customFields.rag],
  taskCustomWorkflow: [],
  taskTypes: [
    SEED_IDS.taskTypes.task,
    SEED_IDS.taskTypes.bug,
    SEED_IDS.taskTypes.feature,
    SEED_IDS.taskTypes.request,
  ],
};
const KANBAN_SETTINGS: ProjectSettings = {
  workItems: ['TASK', 'DISCUSSION', 'ATTACHMENT'],
  additionalTaskCustomFields: [],
  taskCustomWorkflow: [
    SEED_IDS.statuses.new,
    SEED_IDS.statuses.inProgress,
    SEED_IDS.statuses.done,
    SEED_IDS.statuses.cancelled,
  ],
  taskTypes: [SEED_IDS.taskTypes.task],
};

/** Writes the organization set-up unless it is already there. Idempotent. */
export function seedOrganization(db: Db, now: Date): void {
  const exists = db.prepare('SELECT 1 FROM users LIMIT 1').get();
  if (exists) return;
  const created = formatLocalTimestamp(now);
  db.transaction(() => {
    db.prepare("INSERT INTO meta (key, value) VALUES ('company_id', ?)").run(SEED_IDS.companyId);
    const user = db.prepare('INSERT INTO users (id, name, primary_email, sort) VALUES (?, ?, ?, ?)');
    USERS.forEach(([id, name, email], i) => user.run(id, name, email, i));
    const status = db.prepare(
      'INSERT INTO statuses (id, name, system_status, is_closed, sort) VALUES (?, ?, ?, ?, ?)',
    );
    STATUSES.forEach(([id, name, system, closed], i) => status.run(id, name, system, closed, i));
    const type = db.prepare('INSERT INTO task_types (id, name, system_type, sort) VALUES (?, ?, ?, ?)');
    [
      [SEED_IDS.taskTypes.task, 'Task', 1],
      [SEED_IDS.taskTypes.bug, 'Bug', 2],
      [SEED_IDS.taskTypes.feature, 'Feature', 3],
      [SEED_IDS.taskTypes.request, 'Request', 4],
    ].forEach(([id, name, system], i) => type.run(id, name, system, i));
    const tag = db.prepare('INSERT INTO tags (id, name, color) VALUES (?, ?, ?)');
    tag.run(SEED_IDS.tags.urgent, 'Urgent', 1);
    tag.run(SEED_IDS.tags.customer, 'Customer', 5);
    tag.run(SEED_IDS.tags.backend, 'Backend', 9);
    tag.run(SEED_IDS.tags.frontend, 'Frontend', null);
    const template = db.prepare('INSERT INTO project_templates (id, name, settings) VALUES (?, ?, ?)');
    template.run(SEED_IDS.templates.project, 'Standard project', JSON.stringify(PROJECT_TEMPLATE_SETTINGS));
    template.run(SEED_IDS.templates.kanban, 'Kanban board', JSON.stringify(KANBAN_SETTINGS));
    const field = db.prepare(
      'INSERT INTO custom_fields (id, name, type, access, params, sort_position) VALUES (?, ?, ?, ?, ?, ?)',
    );
    (Object.keys(CUSTOM_FIELD_TYPES) as (keyof typeof CUSTOM_FIELD_TYPES)[]).forEach((name, i) => {
      field.run(
        SEED_IDS.customFields[name],
        FIELD_NAMES[name],
        CUSTOM_FIELD_TYPES[name],
        1,
        JSON.stringify(FIELD_PARAMS[name] ?? {}),
        i + 1,
      );
    });
    const contactType = db.prepare('INSERT INTO crm_contact_types (id, name) VALUES (?, ?)');
    contactType.run(SEED_IDS.contactTypes.customer, 'Customer');
    contactType.run(SEED_IDS.contactTypes.partner, 'Partner');
    contactType.run(SEED_IDS.contactTypes.lead, 'Lead');
    // The Workspace: a root folder whose members may be added to the projects inside it.
    db.prepare(
      `INSERT INTO projects (id, name, description, is_folder, is_workspace, status_id, system_status, owner_user_id,
         created_by_user_id, moment_created, settings)
       VALUES (?, 'Company Workspace', 'Everything the company works on.', 1, 1, ?, 2, ?, ?, ?, ?)`,
    ).run(
      SEED_IDS.workspace,
      SEED_IDS.statuses.inProgress,
      SEED_IDS.users.admin,
      SEED_IDS.users.admin,
      created,
      JSON.stringify({ ...PROJECT_TEMPLATE_SETTINGS, additionalTaskCustomFields: [] }),
    );
    const member = db.prepare(
      'INSERT INTO project_members (project_id, user_id, access, watch_all, inherited_from) VALUES (?, ?, ?, 0, ?)',
    );
    member.run(SEED_IDS.workspace, SEED_IDS.users.admin, 3, 'company');
    for (const id of [SEED_IDS.users.bob, SEED_IDS.users.cleo, SEED_IDS.users.dan])
      member.run(SEED_IDS.workspace, id, 2, null);
  })();
}

/** The workspace members new generated projects get (everyone but the guest). */
export const WORKSPACE_MEMBERS: readonly string[] = [
  SEED_IDS.users.admin,
  SEED_IDS.users.bob,
  SEED_IDS.users.cleo,
  SEED_IDS.users.dan,
];
