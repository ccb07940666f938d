// Test-only builders of wire-shaped records (as the service answers them), for unit tests of
// the cache, sync and handlers. Each takes overrides for the fields a test cares about.
import type { Task } from '../../../shared/api/tasks';
import type { TaskMessage } from '../../../shared/api/messages';
import type { Project } from '../../../shared/api/projects';
import type { DocumentListItem } from '../../../shared/api/documents';
import type { CrmAccount, CrmContact } from '../../../shared/api/crm';
import type { CalendarEvent } from '../../../shared/api/events';

export function aProject(over: Partial<Project> & { id: string }): Project {
  return {
    name: `Project ${over.id}`,
    description: '',
    startDate: null,
    endDate: null,
    estimate: null,
    moment_created: '2026-01-01T09:00:00.000000',
    parentProjectId: null,
    priority: 1,
    progress: null,
    status: 'In Progress',
    statusComments: '',
    systemStatus: 2,
    customFieldsData: {},
    ...over,
  };
}

export function aTask(over: Partial<Task> & { id: string; projectId: string }): Task {
  return {
    shortId: over.id.toUpperCase(),
    name: `Task ${over.id}`,
    actionRequiredUserId: null,
    assignedToUserId: null,
    createdByUserId: 'u1',
    customFieldsData: {},
    deadline: null,
    startDate: null,
    endDate: null,
    scheduleDate: null,
    estimate: null,
    progress: null,
    priority: 1,
    reportedTime: null,
    momentCreated: '2026-01-01T09:00:00.000000',
    momentClosed: null,
    recentActivityMoment: '2026-01-01T09:00:00.000000',
    parentTaskId: null,
    status: { id: 's1', name: 'New' },
    systemStatus: 1,
    systemType: 1,
    scheduleStatus: 1,
    taskType: { id: 'tt1', name: 'Task' },
    users: [],
    todoList: null,
    ...over,
  };
}

export function aMessage(over: Partial<TaskMessage> & { id: string }): TaskMessage {
  return {
    dateCreated: '2026-01-02T09:00:00.000000',
    communicationFlow: 2,
    fromUserId: 'u1',
    toUserId: null,
    message: `Message ${over.id}`,
    messageRTF: {},
    editByUserId: null,
    editDate: null,
    taskStatusId: 's1',
    taskSystemStatusNew: null,
    timeReportId: null,
    ...over,
  };
}

export function aDocument(
  over: Partial<DocumentListItem> & { id: string; projectId: string },
): DocumentListItem {
  return {
    name: `Document ${over.id}`,
    createdByUserId: 'u1',
    momentCreated: '2026-01-01T09:00:00.000000',
    momentUpdated: '2026-01-01T09:00:00.000000',
    ...over,
  };
}

export function anEvent(over: Partial<CalendarEvent> & { id: string }): CalendarEvent {
  return {
    eventType: 'company-event',
    name: `Event ${over.id}`,
    notes: null,
    startDate: '2026-03-01',
    endDate: '2026-03-02',
    userId: null,
    projectId: null,
    assignedToUserId: null,
    momentCreated: '2026-01-01T09:00:00.000000',
    ...over,
  };
}

export function aContact(over: Partial<CrmContact> & { id: string }): CrmContact {
  return {
    companyId: 'c1',
    contactType: null,
    crmAccountId: null,
    contactOwnerUserId: 'u1',
    firstName: 'Ada',
    lastName: `Lovelace ${over.id}`,
    email: `${over.id}@example.com`,
    phone: '',
    notes: null,
    customFieldsData: {},
    userId: null,
    isDeleted: false,
    ...over,
  };
}

export function anAccount(over: Partial<CrmAccount> & { id: string }): CrmAccount {
  return {
    name: `Account ${over.id}`,
    email: '',
    phone: '',
    website: '',
    notes: null,
    accountOwnerUserId: 'u1',
    contacts: [],
    customFieldsData: {},
    isDeleted: false,
    ...over,
  };
}
