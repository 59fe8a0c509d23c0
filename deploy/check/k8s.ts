import type { IObjectMeta } from '@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta';
import type { ILabelSelector } from '@kubernetes-models/apimachinery/apis/meta/v1/LabelSelector';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';

/** One object of a rendered overlay, as parsed from `kubectl kustomize`. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: IObjectMeta & { name: string };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** The pod template of a workload, with the object that owns it. */
export interface Workload {
  object: K8sObject;
  template: IPodTemplateSpec;
  containers: IContainer[];
}

export const nameOf = (object: K8sObject) => `${object.kind}/${object.metadata.name}`;

export function workloads(objects: K8sObject[]): Workload[] {
  return objects.flatMap((object) => {
    const template =
      (object.kind === 'Deployment' || object.kind === 'Job') &&
      (object.spec?.template as IPodTemplateSpec | undefined);
    if (!template) return [];
    return [
      {
        object,
        template,
        containers: [...(template.spec?.initContainers ?? []), ...(template.spec?.containers ?? [])],
      },
    ];
  });
}

export const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);

/** Whether a label selector (matchLabels and matchExpressions) selects these labels. */
export function selects(selector: ILabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
      default:
        return false;
    }
  });
  return byLabels && byExpressions;
}

/** A Secret's or ConfigMap's values as text (a Secret's `data` is base64); none for an ExternalSecret. */
export function valuesOf(object: K8sObject): Record<string, string> {
  if (object.kind === 'ExternalSecret') return {};
  const decoded =
    object.kind === 'Secret'
      ? Object.fromEntries(
          Object.entries(object.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
        )
      : (object.data ?? {});
  return { ...decoded, ...(object.stringData ?? {}) };
}

/** An ExternalSecret's Secret name (its target, else its own name) and the keys it writes. */
export function externalSecretOf(object: K8sObject): { secretName: string; keys: string[] } {
  const spec = (object.spec ?? {}) as { target?: { name?: string }; data?: { secretKey?: string }[] };
  return {
    secretName: spec.target?.name ?? object.metadata.name,
    keys: (spec.data ?? []).flatMap((d) => (d.secretKey ? [d.secretKey] : [])),
  };
}

/** The ExternalSecret that makes Secret `name` in the cluster, if the overlay renders one. */
const externalSecretFor = (objects: K8sObject[], name: string) =>
  objects.find((o) => o.kind === 'ExternalSecret' && externalSecretOf(o).secretName === name);

/**
 * The objects a container's envFrom names, or the names that are missing. A Secret made in the
 * cluster by an ExternalSecret counts as found: the ExternalSecret stands for it (its keys known,
 * its values not).
 */
export function envSources(container: IContainer, objects: K8sObject[]): { found: K8sObject[]; missing: string[] } {
  const found: K8sObject[] = [];
  const missing: string[] = [];
  for (const source of container.envFrom ?? []) {
    const [kind, name] = source.configMapRef
      ? ['ConfigMap', source.configMapRef.name]
      : ['Secret', source.secretRef?.name];
    const object = name
      ? (find(objects, kind, name) ?? (kind === 'Secret' ? externalSecretFor(objects, name) : undefined))
      : undefined;
    if (object) found.push(object);
    else missing.push(`${kind}/${name}`);
  }
  return { found, missing };
}

/** Names whose values come from an ExternalSecret: set in the cluster, unknown offline. */
export function externallySetNames(container: IContainer, objects: K8sObject[]): string[] {
  return envSources(container, objects)
    .found.filter((o) => o.kind === 'ExternalSecret')
    .flatMap((o) => externalSecretOf(o).keys);
}

/**
 * What the process sees: the app's defaults, then envFrom sources in order, then `env` (literal
 * values only; a valueFrom entry is known to be set, not to what).
 */
export function effectiveEnv(
  container: IContainer,
  objects: K8sObject[],
  defaults: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = { ...defaults };
  for (const source of envSources(container, objects).found) Object.assign(env, valuesOf(source));
  for (const variable of container.env ?? []) env[variable.name] = variable.value ?? '';
  return env;
}

/** Names a container sets: `env` entries and every key of its envFrom sources. */
export function envNames(container: IContainer, objects: K8sObject[]): string[] {
  const fromSources = envSources(container, objects).found.flatMap((source) =>
    source.kind === 'ExternalSecret' ? externalSecretOf(source).keys : Object.keys(valuesOf(source)),
  );
  return [...new Set([...fromSources, ...(container.env ?? []).map((v) => v.name)])];
}
