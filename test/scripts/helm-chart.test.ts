/**
 * Issue 43, item 5: the Helm chart lints, renders and validates offline against the Kubernetes
 * schemas, and names the same image, commands and variables as docker-compose.yml.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHART_DIR, checkChart, composeFacts, renderChart, renderedProblems } from '../../scripts/chart/check.ts';
import { validateObject, type K8sObject } from '../../scripts/chart/schemas.ts';
import { ensureHelm } from '../../scripts/stack/helm.ts';

let helm: string;
// The first run on a machine builds Helm with Go (a few minutes).
beforeAll(async () => {
  helm = await ensureHelm();
}, 900_000);

const ci = (name: string) => path.join(CHART_DIR, 'ci', name);

describe('the Helm chart', () => {
  it('passes helm lint --strict, helm template and the schemas with every ci values file, and agrees with docker-compose.yml', async () => {
    const lines: string[] = [];
    expect(await checkChart((line) => lines.push(line))).toEqual([]);
    expect(lines).toHaveLength(2);
  });

  it('renders the api, the worker, their disruption budgets and the migration hook', async () => {
    const objects = await renderChart(helm, ci('default-values.yaml'));
    const names = objects.map((o) => `${o.kind}/${o.metadata?.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'Deployment/release-coursehub-api',
        'Deployment/release-coursehub-worker',
        'Service/release-coursehub-api',
        'PodDisruptionBudget/release-coursehub-api',
        'PodDisruptionBudget/release-coursehub-worker',
        'Job/release-coursehub-migrate',
        'ConfigMap/release-coursehub',
        'Secret/release-coursehub',
      ]),
    );
    expect(names.some((n) => n.startsWith('ScaledObject/'))).toBe(false);
    const api = objects.find((o) => o.metadata?.name === 'release-coursehub-api' && o.kind === 'Deployment')!;
    const container = (api.spec as { template: { spec: { containers: { readinessProbe: { httpGet: { path: string } } }[] } } }).template.spec.containers[0]!;
    expect(container.readinessProbe.httpGet.path).toBe('/health');
  });

  it('with KEDA on, scales the worker on the task queue and leaves its replica count to KEDA', async () => {
    const objects = await renderChart(helm, ci('scaled-values.yaml'));
    const scaled = objects.find((o) => o.kind === 'ScaledObject') as K8sObject & { spec: { scaleTargetRef: { name: string }; triggers: { type: string; metadata: Record<string, string> }[] } };
    expect(scaled.spec.scaleTargetRef.name).toBe('release-coursehub-worker');
    expect(scaled.spec.triggers[0]).toMatchObject({ type: 'temporal', metadata: { taskQueue: 'coursehub', namespace: 'default' } });
    const worker = objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === 'release-coursehub-worker') as K8sObject & { spec: { replicas?: number } };
    expect(worker.spec.replicas).toBeUndefined();
    expect(objects.some((o) => o.kind === 'Secret')).toBe(false); // existingSecret
  });

  it('refuses to render without the required secrets, naming the value', async () => {
    await expect(renderChart(helm, ci('default-values.yaml'), ['--set', 'secrets.SECRETS_KEY='])).rejects.toThrow(/secrets\.SECRETS_KEY is required/);
  });

  it('finds an object the schema refuses, a kind it has no schema for, and a command that drifted from compose', async () => {
    const objects = await renderChart(helm, ci('default-values.yaml'));
    const broken = structuredClone(objects);
    const worker = broken.find((o) => o.kind === 'Deployment' && o.metadata?.name === 'release-coursehub-worker')!;
    const container = (worker.spec!.template!.spec!.containers as { command: string[]; ports: { containerPort: unknown }[] }[])[0]!;
    container.ports[0]!.containerPort = 'metrics-port';
    container.command = ['node', 'worker/main.js'];
    const problems = renderedProblems(broken, composeFacts());
    expect(problems).toEqual([
      expect.stringMatching(/^Deployment\/release-coursehub-worker: .*containerPort must be integer/),
      expect.stringMatching(/^the worker's command \["node","worker\/main.js"\] differs from docker-compose.yml's/),
    ]);
    expect(validateObject({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'x' } })).toMatch(/no schema/);
  });
});
