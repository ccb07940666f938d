// The first-screen record's answers handed to the web page inside its index.html (the host's
// side: core/web-host.ts; the page's: renderer lib/bridge.ts), so the page draws its first
// screen as its script runs, without waiting for its socket to open and a round trip. Only
// while the host would answer the same calls from the record (see
// main/core/accounts/first-screen.ts); the page takes each answer once, and none after it sent a
// call that is not a read. No schema here: the host's own thread and the page's first script
// use it.

/** The id of the element of index.html holding the answers (a JSON script, never run). */
export const FIRST_SCREEN_ELEMENT = 'workdesk-first-screen';

/**
 * Added to the page's socket address when its first reads came from the html: a page whose
 * socket connects after the core opened is told then to read again from the core.
 */
export const FIRST_SCREEN_PARAM = 'firstScreen';

/** One answer the window asks for at start, as the core gave it when it closed. */
export interface RecordedAnswer {
  channel: string;
  arg: Record<string, unknown>;
  value: unknown;
}

export interface PageFirstScreen {
  answers: RecordedAnswer[];
  /** The channels that change nothing: any other call ends the answers. */
  reads: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answers as the element's text: JSON with every `<` escaped, so no text in them ends the element. */
export function pageFirstScreenText(screen: PageFirstScreen): string {
  return JSON.stringify(screen).replace(/</g, '\\u003c');
}

/** A record's `answers`, checked; throws naming the field. */
export function readRecordedAnswers(answers: unknown): RecordedAnswer[] {
  if (!Array.isArray(answers)) throw new Error('answers: expected a list');
  answers.forEach((answer: unknown, i) => {
    if (
      !isObject(answer) ||
      typeof answer['channel'] !== 'string' ||
      !isObject(answer['arg']) ||
      !('value' in answer)
    )
      throw new Error(`answers[${i}]: expected { channel, arg, value }`);
  });
  return answers as RecordedAnswer[];
}

/** A record's `reads`, checked; throws naming the field. */
export function readReads(reads: unknown): string[] {
  if (!Array.isArray(reads) || !reads.every((r) => typeof r === 'string'))
    throw new Error('reads: expected a list of channel names');
  return reads;
}

/** The element's text read back, checked field by field; throws naming the field. */
export function readPageFirstScreen(text: string): PageFirstScreen {
  const raw: unknown = JSON.parse(text);
  if (!isObject(raw)) throw new Error('not a JSON object');
  return { answers: readRecordedAnswers(raw['answers']), reads: readReads(raw['reads']) };
}
