/**
 * CPU time by process over a stretch of a bench part (issue 26 item 6): what one operation costs
 * each process of the stack, read from /proc (Linux only; elsewhere the figures are empty).
 *
 * A group names the processes it sums, chosen from the process table at each reading: the
 * processes under a root pid (the api, a worker: `setpriv` execs node, so the pid is node's), the
 * Temporal dev server by its port on its command line, the PostgreSQL backends of the run's
 * database by theirs (`postgres: <cluster>: <user> <database> <host> <state>`). A process's
 * utime + stime covers all its threads. A process that ends inside the stretch takes its time with
 * it (a pool's connections live as long as the run, so this is rare); one that starts inside it
 * counts from zero. `machine` is every core's busy time (/proc/stat), so `other` (machine minus
 * the groups) shows what the rest of a shared machine did meanwhile.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { median } from './stats.ts';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Clock ticks of user + system time, all threads. */
  ticks: number;
  /** argv joined by spaces (what `ps` shows; PostgreSQL rewrites its own). */
  commandLine: string;
}

/** Which processes a group sums, decided from the whole table (so that trees can be followed). */
export type ProcessSelector = (processes: readonly ProcessInfo[]) => number[];

export type CpuGroups = Record<string, ProcessSelector>;

interface Reading {
  atMs: number;
  /** Group -> pid -> ticks. */
  groups: Record<string, Map<number, number>>;
  machineBusyTicks: number;
}

/** CPU milliseconds over a stretch, by group, plus the machine's busy time and the wall time. */
export interface CpuSpan {
  wall_ms: number;
  /** Group -> CPU ms. */
  cpu_ms: Record<string, number>;
  /** The groups' sum. */
  total_ms: number;
  /** All cores' busy time; NaN where /proc/stat is not readable. */
  machine_ms: number;
}

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
  return clockTicks;
}

/** One line of /proc/<pid>/stat: the command is in parentheses and may hold spaces and parentheses. */
function parseStat(text: string): { ppid: number; ticks: number } | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the command: state(0) ppid(1) ... utime(11) stime(12).
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? { ppid, ticks } : undefined;
}

/** Every process this user can see (a process gone while read is left out). */
export function processTable(): ProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (!stat) return [];
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      return [{ pid: Number(entry), ...stat, commandLine }];
    } catch {
      return [];
    }
  });
}

function machineBusyTicks(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
    return user + nice + system + irq + softirq + steal;
  } catch {
    return Number.NaN;
  }
}

/** The processes under each root (the roots included). */
export function treesOf(roots: readonly (number | undefined)[]): ProcessSelector {
  return (processes) => {
    const children = new Map<number, number[]>();
    for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
    const alive = new Set(processes.map((p) => p.pid));
    const found: number[] = [];
    const queue = roots.filter((pid): pid is number => pid !== undefined && alive.has(pid));
    while (queue.length > 0) {
      const pid = queue.pop()!;
      found.push(pid);
      queue.push(...(children.get(pid) ?? []));
    }
    return found;
  };
}

/** The processes whose command line matches. */
export function commandLines(pattern: RegExp): ProcessSelector {
  return (processes) => processes.filter((p) => pattern.test(p.commandLine)).map((p) => p.pid);
}

/** A PostgreSQL cluster's backends connected to one database. */
export function postgresBackendsOf(database: string): ProcessSelector {
  const escaped = database.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return commandLines(new RegExp(`^postgres: (?:.*: )?\\S+ ${escaped} `));
}

function read(groups: CpuGroups): Reading {
  const table = processTable();
  const ticks = new Map(table.map((p) => [p.pid, p.ticks]));
  const chosen = Object.fromEntries(
    Object.entries(groups).map(([name, select]) => [name, new Map(select(table).map((pid) => [pid, ticks.get(pid) ?? 0]))]),
  );
  return { atMs: performance.now(), groups: chosen, machineBusyTicks: machineBusyTicks() };
}

/** Starts a stretch; stop() reads again and gives the CPU time each group used in between. */
export function cpuStretch(groups: CpuGroups): { stop(): CpuSpan } {
  const before = read(groups);
  return {
    stop() {
      const after = read(groups);
      const msPerTick = 1000 / ticksPerSecond();
      const cpu_ms = Object.fromEntries(
        Object.entries(after.groups).map(([name, pids]) => {
          let ticks = 0;
          for (const [pid, now] of pids) ticks += now - (before.groups[name]?.get(pid) ?? 0);
          return [name, ticks * msPerTick];
        }),
      );
      return {
        wall_ms: after.atMs - before.atMs,
        cpu_ms,
        total_ms: Object.values(cpu_ms).reduce((sum, ms) => sum + ms, 0),
        machine_ms: (after.machineBusyTicks - before.machineBusyTicks) * msPerTick,
      };
    },
  };
}

/** What a batch of operations cost: CPU ms per operation by group, and how many cores were busy. */
export interface CpuFigures {
  /** Group -> CPU ms per operation, with `total` (the groups) and `other` (the rest of the machine). */
  ms_per_op: Record<string, number>;
  /** CPU time over wall time: the groups', and the whole machine's. */
  cores_busy: { ours: number; machine: number };
}

export function cpuFigures(span: CpuSpan, ops: number): CpuFigures {
  const per = (ms: number) => (ops > 0 ? ms / ops : Number.NaN);
  return {
    ms_per_op: {
      ...Object.fromEntries(Object.entries(span.cpu_ms).map(([name, ms]) => [name, per(ms)])),
      total: per(span.total_ms),
      other: per(span.machine_ms - span.total_ms),
    },
    cores_busy: { ours: span.total_ms / span.wall_ms, machine: span.machine_ms / span.wall_ms },
  };
}

/** The median of each figure over the rounds. */
export function medianCpuFigures(rounds: readonly CpuFigures[]): CpuFigures {
  const medians = (records: readonly Record<string, number>[]) => {
    const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
    return Object.fromEntries(keys.map((key) => [key, median(records.map((r) => r[key] ?? Number.NaN).filter(Number.isFinite))]));
  };
  const busy = medians(rounds.map((r) => r.cores_busy));
  return { ms_per_op: medians(rounds.map((r) => r.ms_per_op)), cores_busy: { ours: busy.ours ?? Number.NaN, machine: busy.machine ?? Number.NaN } };
}
