// Starts etcd + kube-apiserver on 127.0.0.1 (random ports, temp data dir, generated token and service-account key) and stops them.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import getPort from "get-port";
import { writeKubeconfig } from "./kubeconfig.ts";
import { type ServerProcess, startServerProcess } from "./server-process.ts";
import { type ServerBinaries, serverBinaries } from "./tools.ts";

export interface TestCluster {
  /** `https://127.0.0.1:<port>` */
  readonly server: string;
  /** Bearer token of a `system:masters` user. */
  readonly token: string;
  /** PEM of the CA that signed the server certificate. */
  readonly caPem: string;
  readonly kubeconfigPath: string;
  /** Temporary folder with etcd data, certificates, logs and the kubeconfig; removed by stop(). */
  readonly dir: string;
  /** Milliseconds from spawning etcd to the apiserver's /readyz answering ok. */
  readonly startupMs: number;
  /** Stops the apiserver, then etcd, and removes `dir` (kept when KEEP_E2E_DIR is set). Idempotent. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly binaries?: ServerBinaries;
  /** How long to wait for /readyz. @default 90_000 */
  readonly readyTimeoutMs?: number;
}

const SERVICE_CIDR = "10.0.0.0/24";

/** Starts a fresh, empty cluster; retries once when a random port was taken between picking and binding. */
export async function startTestCluster(options: StartOptions = {}): Promise<TestCluster> {
  const binaries = options.binaries ?? serverBinaries();
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await startOnce(binaries, options.readyTimeoutMs ?? 90_000);
    } catch (err) {
      lastError = err;
      if (!(err instanceof PortInUseError)) throw err;
    }
  }
  throw lastError;
}

class PortInUseError extends Error {}

async function startOnce(binaries: ServerBinaries, readyTimeoutMs: number): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), "eks-gitops-e2e-"));
  const started = performance.now();
  const [etcdClient, etcdPeer, apiPort] = [await getPort(), await getPort(), await getPort()];
  const token = randomBytes(24).toString("hex");
  writeFileSync(join(dir, "tokens.csv"), `${token},e2e-admin,e2e-admin,"system:masters"\n`, { mode: 0o600 });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  writeFileSync(join(dir, "sa.key"), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  writeFileSync(join(dir, "sa.pub"), publicKey.export({ type: "spki", format: "pem" }));

  const processes: ServerProcess[] = [];
  const onExit = () => {
    for (const p of processes) p.signalStop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void stopAll().finally(() => process.kill(process.pid, signal));
  };
  let stopped: Promise<void> | undefined;
  const stopAll = () => {
    stopped ??= (async () => {
      process.off("exit", onExit);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      // The apiserver first: stopped the other way round it retries etcd instead of exiting.
      for (const p of [...processes].reverse()) await p.stop();
      if (!process.env.KEEP_E2E_DIR) rmSync(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  process.once("exit", onExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const peerUrl = `http://127.0.0.1:${etcdPeer}`;
    const etcd = startServerProcess(
      "etcd",
      binaries.etcd,
      [
        "--name=e2e",
        `--data-dir=${join(dir, "etcd")}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=e2e=${peerUrl}`,
        // Throwaway data: durability only costs time.
        "--unsafe-no-fsync",
        "--log-level=warn",
      ],
      join(dir, "etcd.log"),
      // etcd stops last, so its reaper clears the folder if this process died without a teardown.
      process.env.KEEP_E2E_DIR ? undefined : dir,
    );
    processes.push(etcd);
    await waitFor(etcd, readyTimeoutMs, async () => (await httpGetText(`${etcdUrl}/health`)).includes('"health":"true"'));

    const certDir = join(dir, "certs");
    const apiserver = startServerProcess(
      "kube-apiserver",
      binaries.kubeApiserver,
      [
        `--etcd-servers=${etcdUrl}`,
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        `--secure-port=${apiPort}`,
        // Self-signed serving certificate (for 127.0.0.1 and localhost) written here; its CA goes into the kubeconfig.
        `--cert-dir=${certDir}`,
        `--token-auth-file=${join(dir, "tokens.csv")}`,
        "--authorization-mode=RBAC",
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        `--service-account-key-file=${join(dir, "sa.pub")}`,
        `--service-account-signing-key-file=${join(dir, "sa.key")}`,
        `--service-cluster-ip-range=${SERVICE_CIDR}`,
        // The default reconciler rejects a loopback address for the kubernetes Service endpoints.
        "--endpoint-reconciler-type=none",
        "--enable-priority-and-fairness=false",
        "--profiling=false",
      ],
      join(dir, "kube-apiserver.log"),
    );
    processes.push(apiserver);
    const server = `https://127.0.0.1:${apiPort}`;
    const caFile = join(certDir, "apiserver.crt");
    await waitFor(apiserver, readyTimeoutMs, async () => {
      if (!existsSync(caFile)) return false;
      return (await httpsGetText(`${server}/readyz`, token, readFileSync(caFile, "utf8"))) === "ok";
    });
    const startupMs = performance.now() - started;
    const caPem = readFileSync(caFile, "utf8");
    const kubeconfigPath = join(dir, "kubeconfig.yaml");
    writeKubeconfig(kubeconfigPath, { server, caPem, token });
    return { server, token, caPem, kubeconfigPath, dir, startupMs, stop: stopAll };
  } catch (err) {
    const tails = processes.map((p) => `--- ${p.name} (${p.logFile}) ---\n${p.logTail()}`).join("\n");
    const inUse = processes.some((p) => /address already in use/.test(p.logTail(200)));
    await stopAll();
    const message = `${(err as Error).message}\n${tails}`;
    throw inUse ? new PortInUseError(message) : new Error(message);
  }
}

/** Polls `check` every 100 ms until true; fails early when the process exits. */
async function waitFor(proc: ServerProcess, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!proc.running()) throw new Error(`${proc.name} exited with code ${await proc.exited} before it was ready`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${proc.name} was not ready after ${timeoutMs} ms`);
}

function httpGetText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(url, { timeout: 2000 }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve(body));
    }).on("error", reject);
  });
}

function httpsGetText(url: string, token: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca, headers: { Authorization: `Bearer ${token}` }, timeout: 2000 }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve(body));
    }).on("error", reject);
  });
}
