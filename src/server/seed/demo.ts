import { formatLocalDate, formatLocalTimestamp } from '../../shared/api/common';
import { EVENT_TYPES } from '../../shared/api/events';
import { crmStore } from '../db/crm';
import { dependencyStore } from '../db/dependencies';
import { documentStore } from '../db/documents';
import { eventStore } from '../db/events';
import type { Db } from '../db/open';
import { taskStore } from '../db/tasks';
import { timeReportStore } from '../db/time-reports';
import { generateWorkspace, prng } from './generate';
import { SEED_IDS, WORKSPACE_MEMBERS } from './org';

/**
 * A believable organization: the set-up, folders and projects two levels deep, a few hundred
 * tasks with subtasks and messages, tags, CRM accounts and contacts linked to tasks, events of
 * every type, dependencies and documents. Deterministic for a given `now`.
 */
export function seedDemo(db: Db, now: Date): void {
  const ws = generateWorkspace(db, { projects: 14, tasks: 360, messagesPerTask: 2, seed: 7, now });
  const random = prng(99);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const stamp = formatLocalTimestamp(now);
  const day = (offset: number) => formatLocalDate(new Date(now.getTime() + offset * 86_400_000));
  const tasks = taskStore(db);
  const crm = crmStore(db);
  const events = eventStore(db);
  const deps = dependencyStore(db);
  const docs = documentStore(db);
  const { users } = SEED_IDS;

  db.transaction(() => {
    ws.taskIds.forEach((id, i) => {
      if (i % 7 === 0) tasks.addTag(id, pick(Object.values(SEED_IDS.tags)));
      if (i % 23 === 0) tasks.addTag(id, SEED_IDS.tags.urgent);
    });

    const accounts = [
      ['Northwind Traders', 'northwind.test'],
      ['Globex Corporation', 'globex.test'],
      ['Initech', 'initech.test'],
    ];
    accounts.forEach(([name, domain], i) => {
      const accountId = `demo-acc-${i}`;
      crm.saveAccount({
        id: accountId,
        company_id: SEED_IDS.companyId,
        name: name!,
        email: `hello@${domain}`,
        phone: `+1 555 010${i}`,
        website: `https://${domain}`,
        notes: i === 0 ? 'Key account, renewal in spring.' : null,
        owner_user_id: pick(WORKSPACE_MEMBERS),
        custom_fields_data: JSON.stringify({ [SEED_IDS.customFields.rag]: i % 3 }),
        is_deleted: 0,
        created_by_user_id: users.admin,
        moment_created: stamp,
      });
      for (let c = 0; c < 3; c++) {
        const contactId = `demo-con-${i}-${c}`;
        crm.saveContact({
          id: contactId,
          company_id: SEED_IDS.companyId,
          contact_type: pick(Object.values(SEED_IDS.contactTypes)),
          crm_account_id: accountId,
          owner_user_id: pick(WORKSPACE_MEMBERS),
          first_name: pick(['Maya', 'Jonas', 'Priya', 'Luis', 'Hana', 'Tom']),
          last_name: pick(['Keller', 'Novak', 'Rossi', 'Sato', 'Brown']),
          email: `contact${c}@${domain}`,
          phone: `+1 555 02${i}${c}`,
          notes: null,
          custom_fields_data: '{}',
          user_id: null,
          is_deleted: 0,
          created_by_user_id: users.admin,
          moment_created: stamp,
        });
        const taskId = ws.taskIds[(i * 3 + c) * 5];
        if (taskId) {
          tasks.setContacts(taskId, [contactId]);
          const row = tasks.row(taskId)!;
          tasks.update({ ...row, crm_account_id: accountId });
        }
      }
    });

    const project = (i: number) => ws.projectIds[i % ws.projectIds.length]!;
    EVENT_TYPES.forEach((type, i) => {
      const isProject = type.startsWith('project-');
      const isPersonal = type.startsWith('personal-');
      events.insert({
        id: `demo-ev-${i}`,
        event_type: type,
        name: `${type.replace(/-/g, ' ')} ${i + 1}`,
        notes: i % 2 ? 'Added by the demo seed.' : null,
        start_date: day(i * 3 - 5),
        end_date: type === 'project-milestone' ? null : day(i * 3 - 5 + 1 + (i % 3)),
        user_id: isPersonal ? pick(WORKSPACE_MEMBERS) : null,
        project_id: isProject ? project(i) : null,
        assigned_to_user_id: isProject ? pick(WORKSPACE_MEMBERS) : null,
        created_by_user_id: users.admin,
        moment_created: stamp,
      });
    });

    for (let i = 0; i < 12; i++) {
      const a = ws.taskIds[i * 11];
      const b = ws.taskIds[i * 11 + 3];
      if (!a || !b) break;
      deps.insert({
        id: `demo-dep-${i}`,
        type: 5 + (i % 3),
        predecessor_kind: 'Task',
        predecessor_id: a,
        successor_kind: i === 0 ? 'Event' : 'Task',
        successor_id: i === 0 ? 'demo-ev-0' : b,
        created_by_user_id: users.admin,
        moment_created: stamp,
      });
    }

    ws.projectIds.slice(0, 6).forEach((projectId, i) => {
      for (const [n, name] of ['Project brief', 'Meeting notes'].entries()) {
        docs.insert({
          id: `demo-doc-${i}-${n}`,
          project_id: projectId,
          name,
          created_by_user_id: pick(WORKSPACE_MEMBERS),
          moment_created: stamp,
          moment_updated: stamp,
          content: `# ${name}\n\nGoals, scope and owners of this project.\n`,
        });
      }
    });

    // A task that came in through a request form: no creator, the submitted fields kept.
    const formTask = ws.taskIds[1];
    if (formTask) {
      const row = tasks.row(formTask)!;
      tasks.update({
        ...row,
        name: 'Request: new laptop',
        created_by_user_id: null,
        task_type_id: SEED_IDS.taskTypes.request,
        form_submission: JSON.stringify({
          requestFormName: 'IT request',
          formFields: [
            {
              config: {
                fieldId: 'f1',
                label: 'Kind',
                type: 'dropdown',
                options: ['Hardware', 'Software'],
                isRequired: true,
                description: '',
              },
              value: 'Hardware',
            },
            {
              config: {
                fieldId: 'f2',
                label: 'Details',
                type: 'textarea',
                isRequired: false,
                description: 'What do you need?',
              },
              value: 'A 14-inch laptop for the new designer.',
            },
          ],
        }),
      });
    }

    // One public project, where removing members is refused.
    db.prepare('UPDATE projects SET is_public = 1 WHERE id = ?').run(project(1));
    // A membership that comes from a team (the API cannot remove it).
    db.prepare("UPDATE project_members SET inherited_from = 'team' WHERE project_id = ? AND user_id = ?").run(
      project(3),
      users.cleo,
    );

    seedTimeReports(db, ws.taskIds, now);
  })();
}

/**
 * Four weeks of logged time, up to today: on each weekday every workspace member logs two or
 * three reports (15 minutes to 4 hours) on tasks of their own, the odd one with a note or billable.
 */
function seedTimeReports(db: Db, taskIds: readonly string[], now: Date): void {
  const random = prng(31);
  const reports = timeReportStore(db);
  const notes = ['Review & fixes', 'Call with the customer', '', '', 'Planning <next> steps', ''];
  let n = 0;
  for (let back = 27; back >= 0; back--) {
    const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - back, 17, 30);
    if (day.getDay() === 0 || day.getDay() === 6) continue;
    WORKSPACE_MEMBERS.forEach((userId, u) => {
      const count = 2 + Math.floor(random() * 2);
      for (let i = 0; i < count; i++) {
        // Each user works on a band of tasks, so a week has a few rows, not dozens.
        const taskId = taskIds[(u * 11 + Math.floor(random() * 6) * 3) % taskIds.length]!;
        reports.insert({
          id: `demo-tr-${++n}`,
          task_id: taskId,
          user_id: userId,
          report_date: formatLocalDate(day),
          reported: 15 * (1 + Math.floor(random() * 16)),
          message: notes[Math.floor(random() * notes.length)]!,
          is_billable: random() < 0.3 ? 1 : 0,
          moment_created: formatLocalTimestamp(new Date(day.getTime() + i * 60_000)),
        });
      }
    });
  }
}
