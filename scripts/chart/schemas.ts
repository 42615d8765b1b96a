/**
 * Offline validation of rendered Kubernetes objects: each kind the chart renders is validated by its
 * `kubernetes-models` class (the API server's OpenAPI schema, as JSON Schema), KEDA's ScaledObject
 * by `@kubernetes-models/keda`. A kind not listed here is a problem: a new template adds its class.
 */
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; labels?: Record<string, string> };
  // The rendered document as Helm wrote it; the model class validates its shape.
  spec?: { template?: { metadata?: { labels?: Record<string, string> }; spec?: { containers?: unknown[] } } };
  [key: string]: unknown;
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'batch/v1 Job': Job,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
  'keda.sh/v1alpha1 ScaledObject': ScaledObject,
};

/** Null when the object is valid for its kind, else what is wrong. */
export function validateObject(object: K8sObject): string | null {
  const Model = MODELS[`${object.apiVersion} ${object.kind}`];
  if (!Model) return `no schema for ${object.apiVersion} ${object.kind} (scripts/chart/schemas.ts)`;
  try {
    new Model(object as never).validate();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
