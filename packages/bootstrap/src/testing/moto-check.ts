// What the e2e suites need of moto, and the verdict on what an interpreter answered: pure (no process is started
// here), so its test needs no Python; moto.ts asks the interpreter and passes the answer in.

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

/** How the interpreter answered moto.ts's probe: its version, then its package folder (the fields of spawnSync's result that matter). */
export interface MotoProbeAnswer {
  readonly error?: Error;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The Python to run moto with: $EKS_GITOPS_MOTO_PYTHON, else `python3` from PATH. */
export function motoPython(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[MOTO_PYTHON_ENV];
  return named !== undefined && named !== "" ? named : "python3";
}

/** The install `python` answered with, or a MotoSetupError saying what is installed and the exact command to run. */
export function motoVerdict(python: string, answer: MotoProbeAnswer): MotoInstall {
  const how = `install it: ${MOTO_INSTALL} (or into a venv, then ${MOTO_PYTHON_ENV}=<venv>/bin/python)`;
  if (answer.error) throw new MotoSetupError(`${python} not found (${answer.error.message}); the AWS emulator tests need Python 3 with moto ${MOTO_VERSION}: ${how}`);
  if (answer.status !== 0) {
    const last = answer.stderr.trim().split("\n").pop() ?? "";
    throw new MotoSetupError(`moto server ${MOTO_VERSION} is not installed for ${python} (${last}); ${how}`);
  }
  const [version = "", packageDir = ""] = answer.stdout.trim().split("\n");
  if (version !== MOTO_VERSION) {
    throw new MotoSetupError(`${python} has moto ${version}, the AWS emulator tests need moto ${MOTO_VERSION} (another release serves other instance-type data); ${how}`);
  }
  return { python, version, packageDir };
}
