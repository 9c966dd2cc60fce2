// Test helper: starts moto server (the AWS API emulator) on 127.0.0.1 at a free port, and resets/seeds it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

/** The moto release .ci/run installs; the tests were written against it. */
export const MOTO_VERSION = "5.2.5";
const INSTALL = `python3 -m pip install "moto[server]==${MOTO_VERSION}"`;

export interface Moto {
  readonly endpoint: string;
  /** Forgets every resource (POST /moto-api/reset). */
  reset(): Promise<void>;
  /** Seeds moto's random generator so generated ids (e.g. the OIDC issuer) repeat. */
  seed(n: number): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/** Fails with the install command when python or moto is missing, instead of timing out later. */
function checkMotoInstalled(): void {
  const r = spawnSync("python3", ["-c", "import moto, moto.server, flask; print(moto.__version__)"], { encoding: "utf8" });
  if (r.error) throw new Error(`python3 not found (${r.error.message}); the AWS emulator tests need python3 with moto: ${INSTALL}`);
  if (r.status !== 0) throw new Error(`moto server is not installed for python3: ${INSTALL}\n${r.stderr.trim().split("\n").pop()}`);
}

export async function startMoto(): Promise<Moto> {
  checkMotoInstalled();
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  let log = "";
  const child: ChildProcess = spawn("python3", ["-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, MOTO_IAM_LOAD_MANAGED_POLICIES: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (log = (log + d).slice(-4000)));
  child.stderr?.on("data", (d) => (log = (log + d).slice(-4000)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto server exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${endpoint}/moto-api/data.json`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`moto server did not answer on ${endpoint} within 30 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const post = async (path: string) => {
    const res = await fetch(`${endpoint}${path}`, { method: "POST" });
    if (!res.ok) throw new Error(`moto ${path}: HTTP ${res.status}`);
  };
  return {
    endpoint,
    reset: () => post("/moto-api/reset"),
    seed: (n) => post(`/moto-api/seed?a=${n}`),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
