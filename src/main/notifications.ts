import { Notification } from 'electron';
import type { Notifier } from './core/notifier';

/** System notifications through the OS; clicking one brings the app's window forward. */
export function createSystemNotifier(focusApp: () => void): Notifier {
  return {
    notify({ title, body }) {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body, silent: false });
      notification.on('click', focusApp);
      notification.show();
    },
  };
}
