// Changes to the folder/project tree: create a folder or project, move one under a folder.
// Like task writes, each is applied to the cache at once and queued for the service.
import { bridge, type Bridge } from '../lib/bridge';
import { toasts } from '../lib/toasts.svelte';
import type { ChannelInput } from '@shared/ipc/contract';

export class ProjectWrites {
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** Creates a folder; throws (naming the field) for the form to show. */
  async createFolder(input: ChannelInput<'projects.createFolder'>): Promise<string> {
    return (await this.#bridge.invoke('projects.createFolder', input)).id;
  }

  /** Creates a project from a template; throws (naming the field) for the form to show. */
  async createProject(input: ChannelInput<'projects.create'>): Promise<string> {
    return (await this.#bridge.invoke('projects.create', input)).id;
  }

  async move(project: { id: string; name: string }, parent: { id: string; name: string }): Promise<boolean> {
    try {
      await this.#bridge.invoke('projects.update', {
        projectId: project.id,
        changes: { parentProjectId: parent.id },
      });
      toasts.show(`Moved '${project.name}' into '${parent.name}'`, 'success');
      return true;
    } catch (err) {
      toasts.error(`Could not move '${project.name}'`, err);
      return false;
    }
  }
}

export const projectWrites = new ProjectWrites(bridge);
