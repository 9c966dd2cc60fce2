// Test helper: starts moto server (the AWS API emulator) on 127.0.0.1 at a free port, and resets/seeds it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

/** The moto release the e2e tests and the committed capacity snapshot were made with (other releases serve other data). */
export const MOTO_VERSION = "5.2.5";
/** The command that installs it, as every setup error says. */
export const MOTO_INSTALL = `python3 -m pip install "moto[server]==${MOTO_VERSION}"`;
/** Names the Python that has moto (e.g. a venv's `bin/python`, as .ci/run sets up) when `python3` is not it. */
export const MOTO_PYTHON_ENV = "EKS_GITOPS_MOTO_PYTHON";

/** moto is missing, or of another release than MOTO_VERSION: the message says what is installed and what to run. */
export class MotoSetupError extends Error {
  override name = "MotoSetupError";
}

export interface MotoInstall {
  readonly python: string;
  readonly version: string;
  /** The folder of the installed `moto` package (its `ec2/resources` hold the instance-type data it serves). */
  readonly packageDir: string;
}

/** The Python to run moto with: $EKS_GITOPS_MOTO_PYTHON, else `python3` from PATH. */
export function motoPython(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[MOTO_PYTHON_ENV];
  return named !== undefined && named !== "" ? named : "python3";
}

/**
 * Checks, before any test runs against it, that the Python found has moto server at exactly MOTO_VERSION:
 * another release answers with other data and the tests would fail with snapshot diffs instead of this message.
 */
export function checkMoto(python = motoPython()): MotoInstall {
  const how = `install it: ${MOTO_INSTALL} (or into a venv, then ${MOTO_PYTHON_ENV}=<venv>/bin/python)`;
  const r = spawnSync(python, ["-c", "import os, moto, moto.server, flask; print(moto.__version__); print(os.path.dirname(moto.__file__))"], { encoding: "utf8" });
  if (r.error) throw new MotoSetupError(`${python} not found (${r.error.message}); the AWS emulator tests need Python 3 with moto ${MOTO_VERSION}: ${how}`);
  if (r.status !== 0) {
    const last = r.stderr.trim().split("\n").pop() ?? "";
    throw new MotoSetupError(`moto server ${MOTO_VERSION} is not installed for ${python} (${last}); ${how}`);
  }
  const [version = "", packageDir = ""] = r.stdout.trim().split("\n");
  if (version !== MOTO_VERSION) {
    throw new MotoSetupError(`${python} has moto ${version}, the AWS emulator tests need moto ${MOTO_VERSION} (another release serves other instance-type data); ${how}`);
  }
  return { python, version, packageDir };
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
