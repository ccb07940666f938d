// Every change the project overview makes (fields, members) goes through the one write path
// (`runWrite`), with a toast naming the field when the core refuses it. The core applies the
// change to the cache at once and queues it, so the overview updates through cache events.
// (Creating and moving projects is the tree's `project-writes.ts`.)
import type { ChannelInput } from '@shared/ipc/contract';
import { fieldLabel } from '../lib/field-labels';
import { quoted } from '../lib/undo';
import { tree } from './app';
import { runWrite } from './writes';

/** The fields of Update project (null resets where the service allows it). */
export type ProjectPatch = ChannelInput<'projects.update'>['changes'];

/** Access levels in requests: -10 read only, -5 read only + comment, 1 limited, 2 standard, 3 full. */
export type AccessLevel = ChannelInput<'members.setAccess'>['access'];

export const projectOverviewWrites = {
  /** A field edit: Ctrl/Cmd+Z takes it back (the core answers what it replaced). */
  update(projectId: string, changes: ProjectPatch) {
    const name = tree.node(projectId)?.name;
    const fields = Object.keys(changes);
    return runWrite(
      'projects.update',
      { projectId, changes },
      {
        failure: 'Could not change the project',
        undoLabel: `${fields.length === 1 ? fieldLabel(fields[0]!) : 'Fields'} of ${name ? quoted(name) : 'the project'} changed`,
      },
    );
  },

  /** One custom-field value; null resets it. */
  setCustomField(projectId: string, fieldId: string, value: unknown) {
    return runWrite(
      'projects.setCustomFields',
      { projectId, values: [{ id: fieldId, value }] },
      { failure: 'Could not change the custom field' },
    );
  },
  addMember(projectId: string, userId: string, access: ChannelInput<'members.add'>['access']) {
    return runWrite('members.add', { projectId, userId, access }, { failure: 'Could not add the member' });
  },
  setAccess(projectId: string, userId: string, access: AccessLevel) {
    return runWrite(
      'members.setAccess',
      { projectId, userId, access },
      { failure: 'Could not change the access' },
    );
  },
  removeMember(projectId: string, userId: string) {
    return runWrite('members.remove', { projectId, userId }, { failure: 'Could not remove the member' });
  },
};
