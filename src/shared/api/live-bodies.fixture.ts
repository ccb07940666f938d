// Test-only: response bodies shaped as GoodDay's live service sends them, written from
// ../shared/spec/live-service-notes.md (saved live lists of 2022-2023, the documentation's
// samples, clients tested against the live service): nulls where the spec has strings, fields
// left out, 6-character ids, UTC moments with trimmed microseconds. Ids and names are made up.

export const LIVE_USERS = [
  {
    id: 'Ua1B2c',
    name: 'Ada Lovelace',
    primaryEmail: 'ada@example.com',
    companyRole: 'Manager',
    reportsToUserId: null,
    isAdmin: true,
    momentCreated: '2019-03-04T10:11:12.5',
    hourlyRate: null,
    skills: [],
  },
  {
    id: 'Ub3C4d',
    name: 'Bob Brown',
    primaryEmail: 'bob@example.com',
    companyRole: 'User',
    reportsToUserId: 'Ua1B2c',
    isAdmin: false,
    momentCreated: '2021-06-01T08:00:00',
  },
];

/** Documented items: no open/closed flag. */
export const LIVE_STATUSES = [
  { id: 'S1xxxx', name: 'Not started', color: 1, description: '', systemStatus: 1 },
  { id: 'S2xxxx', name: 'In progress', color: 2, description: '', systemStatus: 2 },
  { id: 'S3xxxx', name: 'On hold', color: 3, description: '', systemStatus: 3 },
  { id: 'S4xxxx', name: 'Closed', color: 4, description: '', systemStatus: 4 },
  { id: 'S5xxxx', name: 'Cancelled', color: 5, description: '', systemStatus: 5 },
];

export const LIVE_TASK_TYPES = [
  { id: 'TTask1', name: 'Task', icon: 'task', settings: {}, requiredFields: [] },
  { id: 'TBug01', name: 'Bug', icon: 'bug', settings: null, requiredFields: ['deadline'] },
];

/**
 * A project list: `status` and `statusComments` null in most items, no `customFieldsData`, no
 * `isFolder` (`systemType` instead), a parent missing from the list, systemStatus 1 to 5.
 */
export const LIVE_PROJECTS = [
  {
    id: 'FoLd01',
    name: 'Client Projects',
    description: '',
    endDate: null,
    estimate: null,
    moment_created: '2015-11-14T14:52:57.26943',
    parentProjectId: null,
    priority: 5,
    progress: null,
    startDate: null,
    status: null,
    statusComments: null,
    systemStatus: 2,
    systemType: 'FOLDER',
  },
  {
    id: 'PrJ001',
    name: 'Website relaunch',
    description: 'New site',
    endDate: '2023-12-01',
    estimate: null,
    moment_created: '2023-01-10T08:00:00',
    parentProjectId: 'FoLd01',
    priority: 5,
    progress: 40,
    startDate: '2023-01-10',
    status: 'In Progress',
    statusComments: null,
    systemStatus: 2,
    systemType: 'PROJECT',
  },
  {
    id: 'PrJ002',
    name: 'Orphan project',
    description: '',
    endDate: null,
    estimate: null,
    moment_created: '2022-05-05T05:05:05.1',
    // Its parent is not in the list: read as a root.
    parentProjectId: 'GoNe99',
    priority: 3,
    progress: null,
    startDate: null,
    status: null,
    statusComments: null,
    systemStatus: 4,
    systemType: 'PROJECT',
  },
];

/** GET /project/{id}: documentation samples carry no `settings`. */
export const LIVE_PROJECT = {
  id: 'PrJ001',
  name: 'Website relaunch',
  description: 'New site',
  endDate: '2023-12-01',
  estimate: null,
  moment_created: '2023-01-10T08:00:00',
  parentProjectId: 'FoLd01',
  priority: 5,
  progress: 40,
  startDate: '2023-01-10',
  status: 'In Progress',
  statusComments: '',
  systemStatus: 2,
  customFieldsData: {},
};

function liveTask(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    shortId: String(over['shortId'] ?? '75'),
    actionRequiredUserId: 'Ua1B2c',
    assignedToUserId: 'Ub3C4d',
    createdByUserId: 'Ua1B2c',
    customFieldsData: {},
    deadline: null,
    endDate: null,
    estimate: null,
    momentClosed: null,
    momentCreated: '2023-10-06T07:53:47.04146',
    name: `Task ${id}`,
    parentTaskId: null,
    priority: 5,
    progress: null,
    projectId: 'PrJ001',
    recentActivityMoment: '2023-10-06T08:00:01',
    reportedTime: null,
    scheduleDate: null,
    scheduleStatus: 0,
    startDate: null,
    status: { id: 'S1xxxx', name: 'Not started' },
    systemStatus: 1,
    systemType: 1,
    taskType: { id: 'TTask1', name: 'Task' },
    users: ['Ua1B2c', 'Ub3C4d'],
    ...over,
  };
}

export const LIVE_TASKS = [
  liveTask('TaSk01', { shortId: '75' }),
  liveTask('TaSk02', { shortId: '76', parentTaskId: 'TaSk01', systemType: 2 }),
  liveTask('TaSk03', {
    shortId: '77',
    status: { id: 'S4xxxx', name: 'Closed' },
    systemStatus: 4,
    momentClosed: '2023-10-07T09:00:00',
  }),
];

/** Messages as clients of the live service read them: four fields, more on a status change. */
export const LIVE_MESSAGES = [
  { id: 'MsG001', dateCreated: '2023-10-06T07:53:47.04146', message: 'Please review', fromUserId: 'Ua1B2c' },
  {
    id: 'MsG002',
    dateCreated: '2023-10-06T09:00:00',
    message: '',
    fromUserId: 'Ub3C4d',
    taskStatusId: 'S2xxxx',
    taskSystemStatusNew: 2,
  },
];

/** CRM contact list items have no `userId`. */
export const LIVE_CONTACTS = [
  {
    id: 'CoN001',
    companyId: 'CoMp01',
    contactType: null,
    crmAccountId: null,
    contactOwnerUserId: 'Ua1B2c',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.com',
    phone: '',
    notes: null,
    customFieldsData: {},
    isDeleted: false,
  },
];

export const LIVE_ACCOUNTS = [
  {
    id: 'AcC001',
    name: 'Navy',
    email: '',
    phone: '',
    website: 'https://navy.example',
    notes: null,
    accountOwnerUserId: 'Ua1B2c',
    contacts: ['CoN001'],
    customFieldsData: {},
    isDeleted: false,
  },
];

export const LIVE_CUSTOM_FIELDS = [{ id: 'CuF001', name: 'Budget', type: 5 }];
