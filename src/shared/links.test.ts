import { describe, expect, it } from 'vitest';
import { appLink, linkInArgv, parseLink, serviceTaskLink } from './links';

describe('links to tasks and projects', () => {
  it('reads the app’s links and the service’s task web links', () => {
    expect(parseLink('workdesk://task/GfPrjC')).toEqual({ kind: 'task', id: 'GfPrjC' });
    expect(parseLink('  <workdesk://project/p-1>  ')).toEqual({ kind: 'project', id: 'p-1' });
    expect(parseLink('https://www.goodday.work/t/RRaDG3')).toEqual({ kind: 'task', id: 'RRaDG3' });
    expect(parseLink('goodday.work/t/6lyyHw')).toEqual({ kind: 'task', id: '6lyyHw' });
    expect(parseLink('https://acme.goodday.work/t/6lyyHw/')).toEqual({ kind: 'task', id: '6lyyHw' });
    // A number there is a short id (looked up in the cache).
    expect(parseLink('https://www.goodday.work/t/14297')).toEqual({ kind: 'task', shortId: '14297' });
  });

  it('makes the links a task’s "Copy link" gives, which read back', () => {
    expect(appLink('task', 'GfPrjC')).toBe('workdesk://task/GfPrjC');
    expect(serviceTaskLink('GfPrjC')).toBe('https://www.goodday.work/t/GfPrjC');
    expect(parseLink(appLink('project', 'tmp-3'))).toEqual({ kind: 'project', id: 'tmp-3' });
    expect(parseLink(serviceTaskLink('GfPrjC'))).toEqual({ kind: 'task', id: 'GfPrjC' });
  });

  it('says what is wrong with anything else', () => {
    const cases: [string, string][] = [
      ['', 'The link is empty'],
      ['hello', 'Not a link: "hello"'],
      ['file:///etc/passwd', 'Links of the file kind are not opened'],
      ['javascript:alert(1)', 'Links of the javascript kind are not opened'],
      ['https://evil.example/t/abc', "Not a link to a task: evil.example is not the service's site"],
      ['https://www.goodday.work/p/abc', 'Not a link to a task: expected https://www.goodday.work/t/<id>'],
      ['https://user:pw@www.goodday.work/t/abc', 'A link with credentials is not opened'],
      ['workdesk://task/%E0%A4%A', 'The task id in the link is not readable'],
      ['workdesk://task/a b', 'The task id in the link is not an id: "a b"'],
      [
        'workdesk://folder/x',
        'Not a Workdesk link: expected workdesk://task/<id> or workdesk://project/<id>',
      ],
      [`workdesk://task/${'a'.repeat(3000)}`, 'The link is too long'],
    ];
    for (const [input, message] of cases) expect(() => parseLink(input), input).toThrow(message);
  });

  it('finds the link in a command line', () => {
    expect(linkInArgv(['app.exe', '--flag', 'WORKDESK://task/x'])).toBe('WORKDESK://task/x');
    expect(linkInArgv(['app.exe', 'https://www.goodday.work/t/x'])).toBeUndefined();
  });
});
