/**
 * The Helm chart's checks, offline: `helm lint` and `helm template` for each values file of
 * `deploy/helm/coursehub/ci/`, every rendered object validated against the Kubernetes schemas
 * (`kubernetes-models`, KEDA's from `@kubernetes-models/keda`), and the chart held against
 * `docker-compose.yml`: the same image, the same commands, every variable compose sets settable in
 * the chart and every variable the chart sets one the api and worker read.
 *
 * Usage: `npm run chart:check` (prints each problem, exits 1 on any).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { CONFIG_VARIABLES } from '../../domain/shared/config.ts';
import { ensureHelm } from '../stack/helm.ts';
import { REPO_ROOT } from '../stack/postgres.ts';
import { validateObject, type K8sObject } from './schemas.ts';

const run = promisify(execFile);
export const CHART_DIR = path.join(REPO_ROOT, 'deploy', 'helm', 'coursehub');

export interface Rendered {
  valuesFile: string;
  objects: K8sObject[];
}

/** `helm template` of the chart with one values file, as objects. */
export async function renderChart(helm: string, valuesFile: string, extraArgs: string[] = []): Promise<K8sObject[]> {
  const { stdout } = await run(helm, ['template', 'release', CHART_DIR, '--values', valuesFile, ...extraArgs], { maxBuffer: 16 * 1024 * 1024 });
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

export function ciValuesFiles(): string[] {
  const dir = path.join(CHART_DIR, 'ci');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => path.join(dir, name));
}

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, unknown>;
}

/** What the chart must agree with in docker-compose.yml (its `x-app` anchor and three services). */
export function composeFacts(): { image: string; commands: Record<'api' | 'worker' | 'migrate', string[]>; variables: string[] } {
  const compose = parseYaml(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const service = (name: 'api' | 'worker' | 'migrate') => {
    const found = compose.services[name];
    if (!found?.command || !found.image) throw new Error(`docker-compose.yml: service ${name} has no image or command`);
    return found;
  };
  const variables = new Set<string>();
  for (const name of ['api', 'worker', 'migrate'] as const) for (const key of Object.keys(service(name).environment ?? {})) variables.add(key);
  return {
    image: service('api').image!,
    commands: { api: service('api').command!, worker: service('worker').command!, migrate: service('migrate').command! },
    variables: [...variables].sort(),
  };
}

function containersOf(objects: K8sObject[], kind: string, component: string) {
  const found = objects.find((o) => o.kind === kind && (o.metadata?.labels?.['app.kubernetes.io/component'] === component || o.spec?.template?.metadata?.labels?.['app.kubernetes.io/component'] === component));
  return (found?.spec?.template?.spec?.containers ?? []) as { image: string; command?: string[]; envFrom?: unknown[] }[];
}

/** The problems of one rendering: invalid objects and disagreements with docker-compose.yml. */
export function renderedProblems(objects: K8sObject[], compose: ReturnType<typeof composeFacts>): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const problem = validateObject(object);
    if (problem) problems.push(`${object.kind}/${object.metadata?.name}: ${problem}`);
  }
  const expected = { api: ['Deployment', 'api'], worker: ['Deployment', 'worker'], migrate: ['Job', 'migrate'] } as const;
  for (const [name, [kind, component]] of Object.entries(expected) as [keyof typeof expected, (typeof expected)[keyof typeof expected]][]) {
    const [container] = containersOf(objects, kind, component);
    if (!container) {
      problems.push(`no ${kind} for the ${name}`);
      continue;
    }
    if (container.image.split(':')[0] !== compose.image) problems.push(`the ${name} runs ${container.image}, docker-compose.yml ${compose.image}`);
    if (JSON.stringify(container.command) !== JSON.stringify(compose.commands[name])) {
      problems.push(`the ${name}'s command ${JSON.stringify(container.command)} differs from docker-compose.yml's ${JSON.stringify(compose.commands[name])}`);
    }
  }
  return problems;
}

/** Every variable compose sets is one the chart sets or takes; every one the chart names is read by the app. */
export function variableProblems(compose: ReturnType<typeof composeFacts>): string[] {
  const values = parseYaml(readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8')) as { config: Record<string, unknown>; secrets: Record<string, unknown> };
  const fixed = ['HOST', 'PORT', 'BETA_PORT', 'STORAGE_DIR', 'WORKER_METRICS_HOST', 'WORKER_METRICS_PORT'];
  const chart = new Set([...Object.keys(values.config), ...Object.keys(values.secrets), ...fixed]);
  const known = new Set(CONFIG_VARIABLES);
  return [
    ...compose.variables.filter((name) => !chart.has(name)).map((name) => `docker-compose.yml sets ${name}, which the chart's values cannot`),
    ...[...chart].filter((name) => !known.has(name)).map((name) => `the chart sets ${name}, which the api and worker do not read (domain/shared/config.ts)`),
  ];
}

export async function checkChart(log: (line: string) => void = console.log): Promise<string[]> {
  const helm = await ensureHelm();
  const compose = composeFacts();
  const problems = variableProblems(compose);
  for (const valuesFile of ciValuesFiles()) {
    const name = path.relative(REPO_ROOT, valuesFile);
    const lint = await run(helm, ['lint', CHART_DIR, '--strict', '--values', valuesFile]).then(
      () => null,
      (error: { stdout?: string; message: string }) => error.stdout ?? error.message,
    );
    if (lint) problems.push(`helm lint with ${name}:\n${lint}`);
    const objects = await renderChart(helm, valuesFile);
    log(`${name}: ${objects.length} objects (${objects.map((o) => o.kind).join(', ')})`);
    problems.push(...renderedProblems(objects, compose).map((problem) => `${name}: ${problem}`));
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const problems = await checkChart();
  for (const problem of problems) console.error(`- ${problem}`);
  console.log(problems.length ? `chart: ${problems.length} problem(s)` : 'chart: lint, template and schemas clean; agrees with docker-compose.yml');
  process.exit(problems.length ? 1 : 0);
}
