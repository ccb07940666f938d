import { Notification } from 'electron';
import type { Notifier } from './core/notifier';

/**
 * System notifications through the OS. Clicking one brings the app's window forward and, when it
 * is about a task, asks the renderer to open that task (`openTask`).
 */
export function createSystemNotifier(focusApp: () => void, openTask: (taskId: string) => void): Notifier {
  return {
    notify({ title, body, taskId }) {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body, silent: false });
      notification.on('click', () => {
        focusApp();
        if (taskId) openTask(taskId);
      });
      notification.show();
    },
  };
}
