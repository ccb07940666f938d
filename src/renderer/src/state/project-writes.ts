// Changes to the folder/project tree: create a folder or project, move one under a folder.
// Like task writes, each is applied to the cache at once and queued for the service, and each
// can be undone (Ctrl/Cmd+Z; a move also from its toast).
import type { ChannelInput } from '@shared/ipc/contract';
import { quoted } from '../lib/undo';
import { runWrite } from './writes';

export const projectWrites = {
  /** Creates a folder; a refusal is answered (naming the field) for the form to show. */
  createFolder(input: ChannelInput<'projects.createFolder'>) {
    return runWrite('projects.createFolder', input, {
      undoLabel: `Created the folder ${quoted(input.name)}`,
    });
  },
  /** Creates a project from a template; a refusal is answered for the form to show. */
  createProject(input: ChannelInput<'projects.create'>) {
    return runWrite('projects.create', input, { undoLabel: `Created the project ${quoted(input.name)}` });
  },
  move(project: { id: string; name: string }, parent: { id: string; name: string }) {
    return runWrite(
      'projects.update',
      { projectId: project.id, changes: { parentProjectId: parent.id } },
      {
        failure: `Could not move '${project.name}'`,
        undoLabel: `Moved ${quoted(project.name)} into ${quoted(parent.name)}`,
        undoToast: true,
      },
    );
  },
};
