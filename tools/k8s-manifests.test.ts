/**
 * The Kubernetes manifests (deploy/k8s) against the Kubernetes API's schemas (the
 * `kubernetes-models` package validates each object with the API's OpenAPI schema), and against
 * what the product needs of them: every file the kustomization lists exists, selectors match their
 * pods, the graceful shutdown fits in terminationGracePeriodSeconds, probes reach the server's
 * health check, and every ConfigMap key is a setting the server knows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { loadConfig } from '../apps/server/src/config.js';

const DIR = fileURLToPath(new URL('../deploy/k8s/', import.meta.url));

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: unknown };
type Validator = (data: Manifest) => { validate(): void };

const MODELS: Record<string, Validator> = {
  'v1/ConfigMap': (d) => new ConfigMap(d as never),
  'v1/Secret': (d) => new Secret(d as never),
  'v1/Service': (d) => new Service(d as never),
  'v1/Namespace': (d) => new Namespace(d as never),
  'apps/v1/Deployment': (d) => new Deployment(d as never),
  'policy/v1/PodDisruptionBudget': (d) => new PodDisruptionBudget(d as never),
  'networking.k8s.io/v1/Ingress': (d) => new Ingress(d as never),
};

function documents(file: string): Manifest[] {
  const docs = parseAllDocuments(fs.readFileSync(path.join(DIR, file), 'utf8'));
  return docs.map((doc) => {
    expect(doc.errors, `${file}: YAML errors`).toEqual([]);
    return doc.toJS() as Manifest;
  });
}

const kustomization = documents('kustomization.yaml')[0] as unknown as {
  kind: string;
  resources: string[];
  images: { name: string }[];
};
const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
const all = files.flatMap((file) => documents(file).map((m) => ({ file, m })));
const applied = all.filter(({ file }) => kustomization.resources.includes(file)).map(({ m }) => m);
const byKind = (kind: string) => applied.filter((m) => m.kind === kind);

interface PodSpec {
  terminationGracePeriodSeconds?: number;
  containers: {
    name: string;
    image: string;
    command?: string[];
    envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
    readinessProbe?: Record<string, unknown>;
    livenessProbe?: Record<string, unknown>;
    lifecycle?: { preStop?: { exec?: { command: string[] } } };
    resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
    securityContext?: { readOnlyRootFilesystem?: boolean };
    volumeMounts?: { name: string; mountPath: string }[];
  }[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
interface DeploymentManifest extends Manifest {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}
const deployment = (name: string) =>
  byKind('Deployment').find((d) => d.metadata.name === name) as DeploymentManifest | undefined;

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('lists only files that exist, and every manifest file is applied or an example', () => {
    expect(kustomization.kind).toBe('Kustomization');
    for (const resource of kustomization.resources) expect(files, resource).toContain(resource);
    for (const file of files)
      expect(kustomization.resources.includes(file) || file.endsWith('.example.yaml')).toBe(true);
  });

  it.each(all.map(({ file, m }) => [`${file}: ${m.kind} ${m.metadata.name}`, m] as const))(
    '%s is valid against the Kubernetes schema',
    (_name, m) => {
      const model = MODELS[`${m.apiVersion}/${m.kind}`];
      expect(model, `no schema for ${m.apiVersion} ${m.kind}`).toBeDefined();
      expect(() => model!(m).validate()).not.toThrow();
    },
  );

  it('the schema check catches a broken manifest', () => {
    const api = structuredClone(deployment('aidressup-api')!);
    (api.spec as unknown as { replicas: unknown }).replicas = 'two';
    expect(() => MODELS['apps/v1/Deployment']!(api).validate()).toThrow();
  });

  it('has an API Deployment and a worker Deployment from the same image, with probes and resources', () => {
    const api = deployment('aidressup-api')!;
    const worker = deployment('aidressup-worker')!;
    expect(api).toBeDefined();
    expect(worker).toBeDefined();
    const [a] = api.spec.template.spec.containers;
    const [w] = worker.spec.template.spec.containers;
    expect(a!.image).toBe(w!.image);
    expect(kustomization.images.map((i) => i.name)).toContain(a!.image.split(':')[0]);
    expect(a!.command).toEqual(['node', 'apps/server/dist/server.js']);
    expect(w!.command).toEqual(['node', 'apps/server/dist/worker.js']);
    expect(a!.readinessProbe).toMatchObject({ httpGet: { path: '/api/health', port: 'http' } });
    expect(a!.livenessProbe).toBeDefined();
    // The worker's probe runs a file the build makes from apps/server/src.
    for (const probe of [w!.readinessProbe, w!.livenessProbe]) {
      const command = (probe as { exec: { command: string[] } }).exec.command;
      const built = command[1]!.replace(/^apps\/server\/dist\//, 'apps/server/src/').replace(/\.js$/, '.ts');
      expect(fs.existsSync(fileURLToPath(new URL(`../${built}`, import.meta.url))), built).toBe(true);
    }
    for (const c of [a!, w!]) {
      expect(c.resources?.requests?.cpu).toBeDefined();
      expect(c.resources?.limits?.memory).toBeDefined();
      expect(c.securityContext?.readOnlyRootFilesystem).toBe(true);
      expect(c.volumeMounts?.map((v) => v.mountPath)).toEqual(expect.arrayContaining(['/data', '/tmp']));
      expect(c.envFrom).toEqual([
        { configMapRef: { name: 'aidressup-config' } },
        { secretRef: { name: 'aidressup-secrets' } },
      ]);
    }
    for (const d of [api, worker]) {
      expect(d.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
      expect(d.spec.template.metadata.labels).toMatchObject(d.spec.selector.matchLabels);
    }
  });

  it('gives the graceful shutdown room: preStop + SHUTDOWN_GRACE_MS + closing < terminationGracePeriodSeconds', () => {
    const config = byKind('ConfigMap')[0] as Manifest & { data: Record<string, string> };
    const graceS = Number(config.data.SHUTDOWN_GRACE_MS) / 1000;
    for (const name of ['aidressup-api', 'aidressup-worker']) {
      const pod = deployment(name)!.spec.template.spec;
      const preStop = pod.containers[0]!.lifecycle?.preStop?.exec?.command;
      const preStopS = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
      // The server cuts other connections 5 s past the grace (plugins/closing.ts).
      expect(pod.terminationGracePeriodSeconds, name).toBeGreaterThanOrEqual(preStopS + graceS + 5);
    }
  });

  it('selects the right pods from the Service and the disruption budgets', () => {
    const api = deployment('aidressup-api')!.spec.template.metadata.labels;
    const worker = deployment('aidressup-worker')!.spec.template.metadata.labels;
    const service = byKind('Service')[0] as Manifest & { spec: { selector: Record<string, string> } };
    expect(api).toMatchObject(service.spec.selector);
    expect(worker).not.toMatchObject(service.spec.selector);
    const pdbs = byKind('PodDisruptionBudget') as (Manifest & {
      spec: { selector: { matchLabels: Record<string, string> } };
    })[];
    expect(pdbs.map((p) => p.metadata.name).sort()).toEqual(['aidressup-api', 'aidressup-worker']);
    expect(api).toMatchObject(pdbs.find((p) => p.metadata.name === 'aidressup-api')!.spec.selector.matchLabels);
    expect(worker).toMatchObject(pdbs.find((p) => p.metadata.name === 'aidressup-worker')!.spec.selector.matchLabels);
  });

  it('holds settings the server accepts, and the example Secret the keys the server needs', () => {
    const config = byKind('ConfigMap')[0] as Manifest & { data: Record<string, string> };
    const secret = all.find(({ m }) => m.kind === 'Secret')!.m as Manifest & { stringData: Record<string, string> };
    expect(kustomization.resources).not.toContain('secret.example.yaml');
    expect(() => loadConfig({ ...config.data, ...secret.stringData })).not.toThrow();
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'SESSION_SECRET'])
      expect(Object.keys(secret.stringData)).toContain(key);
  });
});
