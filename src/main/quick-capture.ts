// Quick capture: a system-wide shortcut (a setting, off by default) that brings Workdesk forward
// with its New task dialog, from any application. The dialog is the main window's own: the task
// is created through the outbox like any other.
import type { GlobalShortcut } from 'electron';

export interface QuickCaptureDeps {
  globalShortcut: Pick<GlobalShortcut, 'register' | 'unregister'>;
  accelerator: string;
  /** Shows the main window and opens its New task dialog. */
  capture(): void;
  log(message: string): void;
}

export interface QuickCapture {
  /** Turns the shortcut on or off; answers whether it is on (another app may hold it). */
  apply(enabled: boolean): boolean;
  dispose(): void;
}

export function createQuickCapture(deps: QuickCaptureDeps): QuickCapture {
  let on = false;
  const off = (): void => {
    if (!on) return;
    deps.globalShortcut.unregister(deps.accelerator);
    on = false;
  };
  return {
    apply(enabled) {
      if (!enabled) {
        off();
        return false;
      }
      if (on) return true;
      on = deps.globalShortcut.register(deps.accelerator, () => deps.capture());
      if (!on) deps.log(`quick capture: ${deps.accelerator} is taken by another application`);
      return on;
    },
    dispose: off,
  };
}
