// A queued change in words a user recognises, e.g. "Status of 'Fix login' → Done". The payload
// is parsed with the same schemas the write channels use; an unknown kind falls back to the
// outbox's own label.
import type { z } from 'zod';
import { entityNoun } from '@shared/entities';
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
      if (typeof value === 'object' && 'name' in value) return String(value.name);
      return typeof value === 'string' ? (look.statusName(value) ?? value) : String(value);
    case 'customFieldsData': {
      const values = Object.entries(value as Record<string, unknown>);
      if (!values.length) return 'none';
      return values.map(([id, v]) => `${look.customField(id)?.name ?? id}: ${String(v)}`).join(', ');
    }
    case 'title':
    case 'name':
      return `'${String(value)}'`;
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** What a conflict is about, as its views and toasts say it. */
export interface ConflictFacts {
  entity: string;
  entityId: string;
  field: string;
  localValue: unknown;
  remoteValue: unknown;
  /** The item's name as the core's cache holds it (null when not cached, e.g. deleted here). */
  itemName?: string | null;
}

/** The field of a conflict about a whole item: a delete held over changes made since it was read. */
export const WHOLE_ITEM = '*';

/** `'Fix login'`, or "a task" when its name is not known. */
function itemWords(conflict: ConflictFacts, look: ChangeLookups): string {
  const remoteName =
    conflict.field === WHOLE_ITEM && conflict.remoteValue && typeof conflict.remoteValue === 'object'
      ? (conflict.remoteValue as { name?: unknown }).name
      : undefined;
  const named =
    conflict.itemName ??
    (typeof remoteName === 'string' ? remoteName : undefined) ??
    (conflict.entity === 'task'
      ? look.taskName(conflict.entityId)
      : conflict.entity === 'project'
        ? look.projectName(conflict.entityId)
        : undefined);
  return named ? `'${named}'` : entityNoun(conflict.entity);
}

/** A field's label in a conflict: a task's name is its title wherever the user edits it. */
function conflictFieldLabel(entity: string, field: string): string {
  return entity === 'task' && field === 'name' ? 'Title' : fieldLabel(field);
}

/** A conflict in words: which field of what, and both values. */
export function describeConflict(
  conflict: ConflictFacts,
  look: ChangeLookups,
): { line: string; mine: string; theirs: string } {
  if (conflict.field === WHOLE_ITEM) {
    const changed = Object.entries((conflict.remoteValue ?? {}) as Record<string, unknown>);
    return {
      line: `${itemWords(conflict, look)} was changed on the service since you deleted it`,
      mine: 'Deleted',
      theirs: changed
        .map(
          ([field, value]) =>
            `${conflictFieldLabel(conflict.entity, field)} ${describeValue(field, value, look)}`,
        )
        .join(', '),
    };
  }
  return {
    line: `${conflictFieldLabel(conflict.entity, conflict.field)} of ${itemWords(conflict, look)}`,
    mine: describeValue(conflict.field, conflict.localValue, look),
    theirs: describeValue(conflict.field, conflict.remoteValue, look),
  };
}

/**
 * The toast a new conflict gets, e.g. "Priority of 'X' was also changed by Ada: kept yours".
 * `who` is the user who changed it on the service (when the service says), `when` how long ago,
 * `asked` whether the change waits for the user (the "ask me" policy, or a delete).
 */
export function conflictNotice(
  conflict: ConflictFacts,
  look: ChangeLookups,
  context: { who?: string | undefined; when?: string | undefined; asked: boolean },
): string {
  const who = context.who ?? 'someone else';
  if (conflict.field === WHOLE_ITEM) {
    const noun = entityNoun(conflict.entity).replace(/^an? /, 'this ');
    const Who = who.charAt(0).toUpperCase() + who.slice(1);
    return `${Who} changed ${noun} ${itemWords(conflict, look)}${context.when ? ` ${context.when}` : ''}: delete anyway?`;
  }
  const line = `${conflictFieldLabel(conflict.entity, conflict.field)} of ${itemWords(conflict, look)}`;
  return `${line} was also changed by ${who}: ${context.asked ? 'waiting for your decision' : 'kept yours'}`;
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
