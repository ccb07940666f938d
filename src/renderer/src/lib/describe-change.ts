// A queued change in words a user recognises, e.g. "Status of 'Fix login' → Done". The payload
// is parsed with the same schemas the write channels use; an unknown kind falls back to the
// outbox's own label.
import type { z } from 'zod';
import {
  TaskCommentInput,
  TaskCreateInput,
  TaskCustomFieldsInput,
  TaskDeleteInput,
  TaskReplyInput,
  TaskStatusInput,
  TaskTagInput,
  TaskUpdateInput,
} from '@shared/ipc/tasks-write';
import { fieldLabel, inFieldWords } from './field-labels';
import { formatDay, formatMinutes, priorityLabel } from './format';
import { formatFieldValue } from './custom-fields';

export interface ChangeLookups {
  taskName(id: string): string | undefined;
  statusName(id: string): string | undefined;
  userName(id: string): string | undefined;
  tagName(id: string): string | undefined;
  projectName(id: string): string | undefined;
  customField(id: string): { name: string; type: number; params: unknown } | undefined;
}

/** Accepts the extra bookkeeping the outbox keeps in a payload (draft ids, snapshots). */
function parse<T extends z.ZodObject>(schema: T, payload: unknown): z.infer<T> | undefined {
  const result = schema.loose().safeParse(payload);
  return result.success ? (result.data as z.infer<T>) : undefined;
}

function quote(text: string, max = 60): string {
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `“${short}”`;
}

export function describeValue(field: string, value: unknown, look: ChangeLookups): string {
  if (value === null || value === undefined) return 'none';
  switch (field) {
    case 'startDate':
    case 'endDate':
    case 'deadline':
    case 'scheduleDate':
      return typeof value === 'string' ? formatDay(value) : String(value);
    case 'priority':
      return priorityLabel(Number(value));
    case 'estimate':
      return formatMinutes(Number(value));
    case 'progress':
      return `${String(value)}%`;
    case 'assignedToUserId':
      return typeof value === 'string' ? (look.userName(value) ?? `unknown user ${value}`) : String(value);
    case 'projectId':
      return typeof value === 'string' ? (look.projectName(value) ?? 'another project') : String(value);
    case 'parentTaskId':
      return typeof value === 'string' ? `'${look.taskName(value) ?? 'another task'}'` : String(value);
    case 'statusId':
    case 'status':
      return typeof value === 'string' ? (look.statusName(value) ?? value) : String(value);
    case 'title':
    case 'name':
      return `'${String(value)}'`;
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

const ENTITY_NOUNS: Record<string, string> = {
  task: 'a task',
  project: 'a project',
  event: 'an event',
  crmContact: 'a contact',
  crmAccount: 'an account',
};

/** A conflict in words: which field of what, and both values. */
export function describeConflict(
  conflict: { entity: string; entityId: string; field: string; localValue: unknown; remoteValue: unknown },
  look: ChangeLookups,
): { line: string; mine: string; theirs: string } {
  const task = conflict.entity === 'task';
  // A task's name is its title wherever the user edits it (and in the pending changes).
  const label = task && conflict.field === 'name' ? 'Title' : fieldLabel(conflict.field);
  const named =
    conflict.entity === 'task'
      ? look.taskName(conflict.entityId)
      : conflict.entity === 'project'
        ? look.projectName(conflict.entityId)
        : undefined;
  const what = named ? `'${named}'` : (ENTITY_NOUNS[conflict.entity] ?? 'an item');
  return {
    line: `${label} of ${what}`,
    mine: describeValue(conflict.field, conflict.localValue, look),
    theirs: describeValue(conflict.field, conflict.remoteValue, look),
  };
}

/** One line per change an entry makes. */
export function describeChange(
  entry: { kind: string; label: string; entityKey: string; payload: unknown },
  look: ChangeLookups,
): string[] {
  const taskId = entry.entityKey.startsWith('task:') ? entry.entityKey.slice(5) : undefined;
  const name = (id: string | undefined): string => `'${(id && look.taskName(id)) ?? 'a task'}'`;
  switch (entry.kind) {
    case 'task.create': {
      const p = parse(TaskCreateInput, (entry.payload as { input?: unknown } | null)?.input);
      if (!p) break;
      const where = look.projectName(p.projectId);
      return [`New ${p.parentTaskId ? 'subtask' : 'task'} '${p.title}'${where ? ` in ${where}` : ''}`];
    }
    case 'task.update': {
      const p = parse(TaskUpdateInput, entry.payload);
      if (!p) break;
      return Object.entries(p.changes).map(([field, value]) =>
        // The cache already holds the new title, so "Title of 'New' → 'New'" would say nothing.
        field === 'title' && value === look.taskName(p.taskId)
          ? `Rename to ${describeValue(field, value, look)}`
          : `${fieldLabel(field)} of ${name(p.taskId)} → ${describeValue(field, value, look)}`,
      );
    }
    case 'task.setStatus': {
      const p = parse(TaskStatusInput, entry.payload);
      if (!p) break;
      const line = `Status of ${name(p.taskId)} → ${look.statusName(p.statusId) ?? 'another status'}`;
      return [p.message ? `${line}, with the message ${quote(p.message)}` : line];
    }
    case 'task.comment': {
      const p = parse(TaskCommentInput, entry.payload);
      if (!p) break;
      return [`Comment on ${name(p.taskId)}: ${quote(p.message)}`];
    }
    case 'task.reply': {
      const p = parse(TaskReplyInput, entry.payload);
      if (!p) break;
      const to = look.userName(p.actionRequiredUserId) ?? 'another user';
      return [`Reply on ${name(p.taskId)}, handed to ${to}${p.message ? `: ${quote(p.message)}` : ''}`];
    }
    case 'task.addTag':
    case 'task.removeTag': {
      const p = parse(TaskTagInput, entry.payload);
      if (!p) break;
      const tag = look.tagName(p.tagId) ?? 'a tag';
      return [
        entry.kind === 'task.addTag'
          ? `Tag ${tag} added to ${name(p.taskId)}`
          : `Tag ${tag} removed from ${name(p.taskId)}`,
      ];
    }
    case 'task.setCustomFields': {
      const p = parse(TaskCustomFieldsInput, entry.payload);
      if (!p) break;
      return p.values.map(({ id, value }) => {
        const def = look.customField(id);
        const shown = def
          ? formatFieldValue(def, value, (user) => look.userName(user) ?? user) || 'none'
          : JSON.stringify(value);
        return `${def?.name ?? 'A custom field'} of ${name(p.taskId)} → ${shown}`;
      });
    }
    case 'task.delete': {
      const p = parse(TaskDeleteInput, entry.payload);
      if (!p) break;
      const subtasks = (entry.payload as { subtaskIds?: unknown[] } | null)?.subtaskIds?.length ?? 0;
      return [`Delete ${name(p.taskId)}${subtasks ? ` and its ${subtasks} subtasks` : ''}`];
    }
  }
  // The core's label of other kinds names fields by id: "Edit project (endDate)".
  if (!taskId) return [inFieldWords(entry.label)];
  // The core's own words for these ("Attached 2 files", "Comment with 2 files") say what was done
  // to the task, not what of it changed.
  if (entry.kind === 'task.commentWithFiles' || entry.kind === 'task.replyWithFiles') {
    return [`${entry.label} ${entry.label.startsWith('Attached') ? 'to' : 'on'} ${name(taskId)}`];
  }
  return [`${entry.label} of ${name(taskId)}`];
}
