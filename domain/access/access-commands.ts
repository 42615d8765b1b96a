/**
 * Grant and revoke commands for the same participant and item can race (two workflows). Each
 * command carries a sequence number taken when the API accepted it; a command older than the last
 * applied command of the opposite kind is stale and changes nothing, so the last request wins.
 */
export interface CommandMarks {
  grantedSeq: number;
  revokedSeq: number;
}

export function isStaleGrant(seq: number, marks: CommandMarks): boolean {
  return seq < marks.revokedSeq;
}

export function isStaleRevoke(seq: number, marks: CommandMarks): boolean {
  return seq < marks.grantedSeq;
}
