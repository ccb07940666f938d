// Changes to the folder/project tree: create a folder or project, move one under a folder.
// Like task writes, each is applied to the cache at once and queued for the service.
import type { ChannelInput } from '@shared/ipc/contract';
import { runWrite } from './writes';

export const projectWrites = {
  /** Creates a folder; a refusal is answered (naming the field) for the form to show. */
  createFolder(input: ChannelInput<'projects.createFolder'>) {
    return runWrite('projects.createFolder', input);
  },
  /** Creates a project from a template; a refusal is answered for the form to show. */
  createProject(input: ChannelInput<'projects.create'>) {
    return runWrite('projects.create', input);
  },
  move(project: { id: string; name: string }, parent: { id: string; name: string }) {
    return runWrite(
      'projects.update',
      { projectId: project.id, changes: { parentProjectId: parent.id } },
      {
        success: `Moved '${project.name}' into '${parent.name}'`,
        failure: `Could not move '${project.name}'`,
      },
    );
  },
};
