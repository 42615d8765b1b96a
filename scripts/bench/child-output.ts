/**
 * Which lines of the api and worker processes the bench passes on: warnings and errors only (the
 * report is on stdout, progress on stderr; info lines of the children would drown both).
 * - pino JSON lines (the api, LOG_LEVEL=warn): level >= 40;
 * - the Temporal SDK's default logger (`<time> [LEVEL] message`, meta possibly on further
 *   lines): WARN and ERROR entries with their continuation lines;
 * - anything else: lines that read like a problem (stack traces, `Error: ...`, warnings of Node).
 */
const SDK_ENTRY = /^\S.*?\[(TRACE|DEBUG|INFO|WARN|ERROR)\] /;
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
