import type { K8sObject } from './k8s.ts';

interface Model {
  validate(): void;
}

/**
 * Each object checked against its Kubernetes schema by kubernetes-models (offline). These schemas
 * accept unknown fields, so a misspelt field passes here: the rules of manifest-rules.ts name the
 * fields that matter. An object of a kind the package does not know is a problem too.
 */
export async function schemaProblems(objects: K8sObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const object of objects) {
    const name = `${object.kind}/${object.metadata.name}`;
    let Model: new (data: unknown) => Model;
    try {
      ({ [object.kind]: Model } = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`)) as Record<string, new (data: unknown) => Model>);
    } catch {
      problems.push(`${name}: kubernetes-models has no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}
