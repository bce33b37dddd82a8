/**
 * The scale-out rows: the public read through one server process and through two, and a 20 MB upload on local disk
 * and on S3 (s3rver, a real S3 REST server), next to a bare S3 PutObject of the same bytes.
 */
import autocannon from 'autocannon';
import { Document, NodeIO } from '@gltf-transform/core';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { freePort } from '../helpers/test-env.js';
import { startS3Server } from '../helpers/s3-server.js';

export interface ReadScaleOut {
  oneServer: autocannon.Result;
  twoServers: autocannon.Result;
}

export interface UploadFigures {
  bytes: number;
  localMs: number;
  s3Ms: number;
  putObjectMs: number;
}

async function startServerProcess(env: Record<string, string>): Promise<{ url: string; handle: ChildProcessHandle }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const handle = startTsProcess('server/main.ts', { ...env, PORT: String(port), PUBLIC_BASE_URL: url });
  for (let i = 0; ; i++) {
    if (
      (await fetch(`${url}/ready`).then(
        (res) => res.status,
        () => 0,
      )) === 200
    )
      return { url, handle };
    if (i > 300) throw new Error(`a server did not start:\n${handle.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The 1-model public read through `firstServer` alone, then through it and a second server
 * process on the same database and Redis, the same connections spread over both.
 */
export async function measureReadScaleOut(options: {
  env: Record<string, string>;
  firstServer: string;
  sharePath: string;
  headers: Record<string, string>;
  connections: number;
  duration: number;
}): Promise<ReadScaleOut> {
  const second = await startServerProcess(options.env);
  try {
    // autocannon spreads connections over several URLs (round robin); its types know only one.
    const run = (urls: string[]) =>
      autocannon({
        url: urls.map((u) => `${u}${options.sharePath}`) as unknown as string,
        headers: options.headers,
        connections: options.connections,
        duration: options.duration,
      });
    await run([options.firstServer, second.url]); // warm-up: both servers' JIT and share state
    const oneServer = await run([options.firstServer]);
    const twoServers = await run([options.firstServer, second.url]);
    return { oneServer, twoServers };
  } finally {
    await second.handle.stop();
  }
}

/** A valid glTF of about `megabytes` MB: one mesh of random triangles. */
async function largeGlb(megabytes: number): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const vertices = Math.floor((megabytes * 1024 * 1024) / 12 / 3) * 3;
  const position = new Float32Array(vertices * 3);
  for (let i = 0; i < position.length; i++) position[i] = Math.random();
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(position).setBuffer(buffer));
  const scene = doc
    .createScene()
    .addChild(doc.createNode('Large').setMesh(doc.createMesh('Large').addPrimitive(primitive)));
  doc.getRoot().setDefaultScene(scene);
  return new NodeIO().writeBinary(doc);
}

/**
 * POST /assets of a 20 MB model with local and with S3 storage (medians of `rounds`); the anchor, a bare PutObject of
 * the same bytes to the same S3 server, leaves only the API's own cost in the ratio.
 */
export async function measureUploads(options: {
  env: Record<string, string>;
  localServer: string;
  ownerHeaders: Record<string, string>;
  rounds?: number;
}): Promise<UploadFigures> {
  const rounds = options.rounds ?? 3;
  const glb = await largeGlb(20);
  const s3 = await startS3Server({ bucket: 'bench-uploads' });
  const s3Server = await startServerProcess({ ...options.env, ...s3.env });
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
  });
  try {
    const upload = async (server: string) => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from(glb)]), 'large.glb');
      const started = performance.now();
      const res = await fetch(`${server}/assets`, {
        method: 'POST',
        headers: { authorization: options.ownerHeaders.authorization! },
        body: form,
      });
      const body = await res.text();
      if (res.status !== 201) throw new Error(`upload to ${server}: ${res.status} ${body}`);
      return performance.now() - started;
    };
    const put = async (i: number) => {
      const started = performance.now();
      await client.send(
        new PutObjectCommand({
          Bucket: 'bench-uploads',
          Key: `anchor/${i}.glb`,
          Body: glb,
          ContentType: 'model/gltf-binary',
        }),
      );
      return performance.now() - started;
    };
    const local: number[] = [];
    const onS3: number[] = [];
    const bare: number[] = [];
    await upload(options.localServer); // warm-up (validator start-up, connection pools)
    for (let i = 0; i < rounds; i++) {
      local.push(await upload(options.localServer));
      onS3.push(await upload(s3Server.url));
      bare.push(await put(i));
    }
    return { bytes: glb.byteLength, localMs: median(local), s3Ms: median(onS3), putObjectMs: median(bare) };
  } finally {
    client.destroy();
    await s3Server.handle.stop();
    await s3.close();
  }
}
