import { describe, expect, it } from 'vitest';
import { CustomFieldsResponse } from './custom-fields';
import { StatusesResponse, TaskTypesResponse, UsersResponse, statusIsClosed } from './org';
import { TasksResponse } from './tasks';
import { TaskMessagesResponse, COMMUNICATION_FLOW } from './messages';
import { ProjectDetail, ProjectsResponse } from './projects';
import { CrmAccountsResponse, CrmContactsResponse } from './crm';
import { CalendarEvent } from './events';
import {
  LIVE_ACCOUNTS,
  LIVE_CONTACTS,
  LIVE_CUSTOM_FIELDS,
  LIVE_MESSAGES,
  LIVE_PROJECT,
  LIVE_PROJECTS,
  LIVE_STATUSES,
  LIVE_TASK_TYPES,
  LIVE_TASKS,
  LIVE_USERS,
} from './live-bodies.fixture';

describe('response schemas read what the live service answers', () => {
  it('statuses without isClosed: closed-ness from systemStatus', () => {
    const statuses = StatusesResponse.parse(LIVE_STATUSES);
    expect(statuses.map((s) => [s.name, s.isClosed])).toEqual([
      ['Not started', false],
      ['In progress', false],
      ['On hold', false],
      ['Closed', true],
      ['Cancelled', true],
    ]);
    // Extra fields stay (color, description).
    expect(statuses[0]).toMatchObject({ color: 1, description: '' });
  });

  it("keeps our service's own isClosed over the derived one", () => {
    const [open] = StatusesResponse.parse([{ id: 's', name: 'Parked', systemStatus: 5, isClosed: false }]);
    expect(open?.isClosed).toBe(false);
    expect(statusIsClosed({ systemStatus: 1, isClosed: true })).toBe(true);
  });

  it('a project list with null status and comments, no custom fields, folders by systemType', () => {
    const projects = ProjectsResponse.parse(LIVE_PROJECTS);
    expect(projects.map((p) => [p.id, p.isFolder, p.status, p.statusComments, p.customFieldsData])).toEqual([
      ['FoLd01', true, '', '', {}],
      ['PrJ001', false, 'In Progress', '', {}],
      ['PrJ002', false, '', '', {}],
    ]);
    expect(projects[0]?.systemType).toBe('FOLDER');
  });

  it("keeps our service's isFolder, and leaves it unknown when neither flag is sent", () => {
    const [ours, bare] = ProjectsResponse.parse([
      { ...LIVE_PROJECTS[0], isFolder: false },
      { ...LIVE_PROJECTS[1], systemType: undefined },
    ]);
    expect(ours?.isFolder).toBe(false);
    expect(bare?.isFolder).toBeUndefined();
  });

  it('a single project without settings', () => {
    const project = ProjectDetail.parse(LIVE_PROJECT);
    expect(project.settings).toBeNull();
    expect(project.name).toBe('Website relaunch');
  });

  it('tasks with reportedTime null, subtasks by systemType, 6-character ids and trimmed microseconds', () => {
    const tasks = TasksResponse.parse(LIVE_TASKS);
    expect(tasks.map((t) => [t.id, t.systemType, t.parentTaskId])).toEqual([
      ['TaSk01', 1, null],
      ['TaSk02', 2, 'TaSk01'],
      ['TaSk03', 1, null],
    ]);
    expect(tasks[0]?.momentCreated).toBe('2023-10-06T07:53:47.04146');
  });

  it('a task without the fields a view can do without reads with their defaults', () => {
    const [first] = LIVE_TASKS;
    const { users: _u, customFieldsData: _c, scheduleStatus: _s, shortId: _id, ...bare } = first ?? {};
    const [task] = TasksResponse.parse([bare]);
    expect(task).toMatchObject({ users: [], customFieldsData: {}, scheduleStatus: 0, shortId: '' });
  });

  it('messages with only id, dateCreated, message and fromUserId; a status change by its new status', () => {
    const [comment, change] = TaskMessagesResponse.parse(LIVE_MESSAGES);
    expect(comment).toMatchObject({
      id: 'MsG001',
      message: 'Please review',
      toUserId: null,
      taskStatusId: '',
      taskSystemStatusNew: null,
      communicationFlow: COMMUNICATION_FLOW.comment,
      messageRTF: {},
      editDate: null,
    });
    expect(change).toMatchObject({
      taskStatusId: 'S2xxxx',
      taskSystemStatusNew: 2,
      communicationFlow: COMMUNICATION_FLOW.statusChange,
    });
  });

  it('users with extra fields keep them; CRM contacts without userId', () => {
    const users = UsersResponse.parse(LIVE_USERS);
    expect(users[0]).toMatchObject({ name: 'Ada Lovelace', companyRole: 'Manager', isAdmin: true });
    const [contact] = CrmContactsResponse.parse(LIVE_CONTACTS);
    expect(contact?.userId).toBeNull();
    expect(CrmAccountsResponse.parse(LIVE_ACCOUNTS)[0]?.contacts).toEqual(['CoN001']);
  });

  it('task types with icon, settings and required fields; custom fields with only id, name, type', () => {
    expect(TaskTypesResponse.parse(LIVE_TASK_TYPES).map((t) => t.name)).toEqual(['Task', 'Bug']);
    expect(CustomFieldsResponse.parse(LIVE_CUSTOM_FIELDS)[0]).toMatchObject({
      params: {},
      access: 0,
      sortPosition: 0,
    });
  });

  it('an event with its optional parts null', () => {
    const event = CalendarEvent.parse({
      id: 'EvT001',
      eventType: 'company-event',
      name: 'Offsite',
      startDate: '2023-11-02',
      endDate: '2023-11-03',
      momentCreated: '2023-10-01T10:00:00',
      notes: null,
    });
    expect(event).toMatchObject({ notes: null, userId: null, projectId: null, assignedToUserId: null });
  });

  it('still names the field when what the client needs is missing', () => {
    const result = TasksResponse.safeParse([{ ...LIVE_TASKS[0], status: null }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([0, 'status']);
  });
});
