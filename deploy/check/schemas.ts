import type { K8sObject } from './k8s.ts';

interface Model {
  validate(): void;
}

/** The custom resources deploy/ uses, by API group: prometheus-operator, KEDA, External Secrets. */
const CRD_MODELS: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
  'external-secrets.io': '@kubernetes-models/external-secrets',
};

const modelPackage = (apiVersion: string) => CRD_MODELS[apiVersion.split('/')[0]] ?? 'kubernetes-models';

/**
 * Each object checked against its Kubernetes schema by kubernetes-models (offline). These schemas
 * accept unknown fields, so a misspelt field passes here: the rules of manifest-rules.ts name the
 * fields that matter. An object of a kind these packages do not know is a problem too.
 */
export async function schemaProblems(objects: K8sObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const object of objects) {
    const name = `${object.kind}/${object.metadata.name}`;
    let Model: new (data: unknown) => Model;
    try {
      ({ [object.kind]: Model } = (await import(
        `${modelPackage(object.apiVersion)}/${object.apiVersion}/${object.kind}`
      )) as Record<string, new (data: unknown) => Model>);
    } catch {
      problems.push(`${name}: kubernetes-models has no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(withUnwrappedSecretData(object)).validate();
    } catch (error) {
      problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

/**
 * kustomize wraps a long generated Secret value's base64 over several lines; the API server decodes
 * it ignoring line breaks, the schema's "byte" format does not: validate the unwrapped value.
 */
function withUnwrappedSecretData(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  return {
    ...object,
    data: Object.fromEntries(Object.entries(object.data).map(([key, value]) => [key, value.replace(/\s+/g, '')])),
  };
}
