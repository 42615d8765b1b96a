/**
 * Which lines of the api and worker processes the bench passes on: warnings and errors only (the
 * report is on stdout, progress on stderr; info lines of the children would drown both).
 * - pino JSON lines (the api, LOG_LEVEL=warn): level >= 40;
 * - the Temporal SDK's default logger (`<time> [LEVEL] message`, meta possibly on further
 *   lines) and its core (`<time>  LEVEL target: message`, colours taken off first): WARN and
 *   ERROR entries with their continuation lines;
 * - anything else: lines that read like a problem (stack traces, `Error: ...`, warnings of Node).
 */
const SDK_ENTRY = /^\d{4}-\d\d-\d\dT[\d:.]+Z\s+\[?(TRACE|DEBUG|INFO|WARN|ERROR)\]?\s/;
const PROBLEM = /warn|error|fail|exception|unhandled|^\s+at /i;
const PINO_WARN = 40;

/** A filter for one stream of one child; it keeps the level of the last SDK entry for continuation lines. */
export function warningsOnly(): (line: string) => boolean {
  let sdkEntryShown: boolean | undefined;
  return (line) => {
    if (!line.trim()) return false;
    if (line.startsWith('{')) {
      try {
        const level = (JSON.parse(line) as { level?: unknown }).level;
        if (typeof level === 'number') return level >= PINO_WARN;
      } catch {
        // not JSON after all
      }
    }
    const entry = SDK_ENTRY.exec(line);
    if (entry) {
      sdkEntryShown = entry[1] === 'WARN' || entry[1] === 'ERROR';
      return sdkEntryShown;
    }
    if (sdkEntryShown !== undefined && /^[\s}\]]/.test(line)) return sdkEntryShown;
    sdkEntryShown = undefined;
    return PROBLEM.test(line);
  };
}

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The line without terminal colours (the SDK's core colours its log lines even into a pipe). */
export const plain = (line: string): string => line.replace(ANSI_COLOUR, '');

/**
 * A kind of line: from a Temporal warning's code to the end of its sentence, else the line without
 * its time stamp; the values of `key=value` fields, numbers and ids left out.
 */
const kindOf = (line: string): string =>
  (/\[TMPRL\d+\][^.]*/.exec(line)?.[0] ?? line.replace(/^\d{4}-\d\d-\d\dT\S+\s+/, ''))
    .replace(/=("[^"]*"|'[^']*'|\S+)/g, '=_')
    .replace(/[0-9a-f-]{8,}|\d+/gi, '#')
    .slice(0, 100);

/**
 * Counts lines by kind so that a warning repeated for every workflow (a slow workflow task under
 * load) shows `limit` times and then only as a count.
 */
export function repeatsCounted(limit = 3) {
  const counts = new Map<string, number>();
  return {
    /** 'show', 'last' (the last one shown of its kind) or 'hide'. */
    take(line: string): 'show' | 'last' | 'hide' {
      const kind = kindOf(line);
      const seen = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, seen);
      return seen < limit ? 'show' : seen === limit ? 'last' : 'hide';
    },
    /** Each kind with lines not shown, and how many. */
    hidden(): { kind: string; count: number }[] {
      return [...counts].filter(([, seen]) => seen > limit).map(([kind, seen]) => ({ kind, count: seen - limit }));
    },
  };
}
