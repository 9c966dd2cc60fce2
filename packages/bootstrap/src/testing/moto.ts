// Test helper: starts moto server (the AWS API emulator) on 127.0.0.1 at a free port, and resets/seeds it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { type MotoInstall, motoPython, motoVerdict } from "./moto-check.ts";

export { MOTO_INSTALL, MOTO_PYTHON_ENV, MOTO_VERSION, type MotoInstall, MotoSetupError, motoPython } from "./moto-check.ts";

/**
 * Checks, before any test runs against it, that the Python found has moto server at exactly MOTO_VERSION:
 * another release answers with other data and the tests would fail with snapshot diffs instead of this message.
 */
export function checkMoto(python = motoPython()): MotoInstall {
  const probe = "import os, moto, moto.server, flask; print(moto.__version__); print(os.path.dirname(moto.__file__))";
  return motoVerdict(python, spawnSync(python, ["-c", probe], { encoding: "utf8" }));
}

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

export async function startMoto(): Promise<Moto> {
  const { python } = checkMoto();
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  let log = "";
  const child: ChildProcess = spawn(python, ["-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)], {
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
