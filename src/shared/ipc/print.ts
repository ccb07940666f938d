import { z } from 'zod';
import { channel } from './channel';

export const printChannels = {
  /**
   * Desktop app only: the page as printed (its print style: the task's sheet) saved as a PDF where
   * the user says (null: cancelled). The browser's own print dialog offers the same in the web host.
   */
  'print.savePdf': channel(
    () => z.object({ name: z.string().min(1).max(200) }).strict(),
    () => z.object({ savedTo: z.string().nullable() }),
  ),
};
