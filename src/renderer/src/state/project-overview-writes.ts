// Every change the project overview makes (fields, members) goes through the one write path
// (`runWrite`), with a toast naming the field when the core refuses it. The core applies the
// change to the cache at once and queues it, so the overview updates through cache events.
// (Creating and moving projects is the tree's `project-writes.ts`.)
import type { ChannelInput } from '@shared/ipc/contract';
import { fieldLabel } from '../lib/field-labels';
import { quoted } from '../lib/undo';
import { org, tree } from './app';
import { runWrite } from './writes';

/** The fields of Update project (null resets where the service allows it). */
export type ProjectPatch = ChannelInput<'projects.update'>['changes'];

/** Access levels in requests: -10 read only, -5 read only + comment, 1 limited, 2 standard, 3 full. */
export type AccessLevel = ChannelInput<'members.setAccess'>['access'];

/** The project as an undo's words name it. */
function projectName(projectId: string): string {
  const name = tree.node(projectId)?.name;
  return name ? quoted(name) : 'the project';
}

export const projectOverviewWrites = {
  /** A field edit: Ctrl/Cmd+Z takes it back (the core answers what it replaced). */
  update(projectId: string, changes: ProjectPatch) {
    const fields = Object.keys(changes);
    return runWrite(
      'projects.update',
      { projectId, changes },
      {
        failure: 'Could not change the project',
        undoLabel: `${fields.length === 1 ? fieldLabel(fields[0]!) : 'Fields'} of ${projectName(projectId)} changed`,
      },
    );
  },

  /** One custom-field value; null resets it. Ctrl/Cmd+Z puts back the value it replaced. */
  setCustomField(projectId: string, fieldId: string, value: unknown) {
    return runWrite(
      'projects.setCustomFields',
      { projectId, values: [{ id: fieldId, value }] },
      {
        failure: 'Could not change the custom field',
        undoLabel: `Custom field of ${projectName(projectId)} changed`,
      },
    );
  },
  /** Membership changes undo too: an add by a remove, a remove by an add with the old access. */
  addMember(projectId: string, userId: string, access: ChannelInput<'members.add'>['access']) {
    return runWrite(
      'members.add',
      { projectId, userId, access },
      {
        failure: 'Could not add the member',
        undoLabel: `Added ${org.userName(userId)} to ${projectName(projectId)}`,
      },
    );
  },
  setAccess(projectId: string, userId: string, access: AccessLevel) {
    return runWrite(
      'members.setAccess',
      { projectId, userId, access },
      {
        failure: 'Could not change the access',
        undoLabel: `Access of ${org.userName(userId)} to ${projectName(projectId)} changed`,
        undoToast: true,
      },
    );
  },
  removeMember(projectId: string, userId: string) {
    return runWrite(
      'members.remove',
      { projectId, userId },
      {
        failure: 'Could not remove the member',
        undoLabel: `Removed ${org.userName(userId)} from ${projectName(projectId)}`,
        undoToast: true,
      },
    );
  },
};
