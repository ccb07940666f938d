// Whom "Add a member" offers. The service adds to a project inside a Workspace only a member of
// that Workspace (the spec's project membership table); the Workspace is the project's topmost
// folder in the tree. Neither the spec nor the live service's user list says whether a user is
// active, so membership of the Workspace is what is read.
import type { PickerOption } from '../components/ui/Picker.svelte';

/**
 * The organization's users who can be added: not in the project, and members of its Workspace
 * when the Workspace's members are known (`workspace` undefined: the project is itself the top
 * of its tree, or its Workspace's members could not be read, so every user is offered and the
 * service's refusal says why one cannot be added).
 */
export function addableMembers(
  users: readonly PickerOption[],
  members: readonly { id: string }[],
  workspace: readonly { id: string }[] | undefined,
): PickerOption[] {
  const inProject = new Set(members.map((member) => member.id));
  const inWorkspace = workspace && new Set(workspace.map((member) => member.id));
  return users.filter((user) => !inProject.has(user.value) && (!inWorkspace || inWorkspace.has(user.value)));
}
