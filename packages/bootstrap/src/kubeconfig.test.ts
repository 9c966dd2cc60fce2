// Finding the kubeconfig: a missing, unreadable or invalid one is named with where we looked, never client-node's localhost:8080 fallback.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { kubeAccess, loadKubeConfig } from "./kube.ts";

const dir = mkdtempSync(join(tmpdir(), "kubeconfig-"));
const home = join(dir, "home");
mkdirSync(home);
const config = (server: string, context = "lab") =>
  `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${server}"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: ${context}, context: {cluster: c, user: u}}]\ncurrent-context: ${context}\n`;
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe("loadKubeConfig", () => {
  it("without KUBECONFIG or ~/.kube/config: says where it looked and to pass --kubeconfig", () => {
    expect(() => loadKubeConfig({ env: { HOME: home } })).toThrow(
      `no kubeconfig found (looked in ${join(home, ".kube", "config")}); pass --kubeconfig FILE (e.g. after \`aws eks update-kubeconfig --name CLUSTER\`)`,
    );
    const a = join(dir, "a");
    const b = join(dir, "b");
    expect(() => loadKubeConfig({ env: { HOME: home, KUBECONFIG: `${a}${delimiter}${b}` } })).toThrow(`no kubeconfig found (looked in KUBECONFIG: ${a}, ${b}); pass --kubeconfig FILE`);
    // and kubeAccess (what bootstrap uses) says the same instead of calling http://localhost:8080
    expect(() => kubeAccess({ backupDir: dir, ...{ kubeconfig: join(dir, "missing") } })).toThrow(expect.objectContaining({ name: "KubeconfigError", message: expect.stringMatching(/^--kubeconfig .*missing: no such file; pass --kubeconfig FILE/) }));
  });

  it("an invalid or unreadable file is named as such", () => {
    const bad = file("bad", "clusters: [unterminated\n");
    expect(() => loadKubeConfig({ kubeconfig: bad })).toThrow(expect.objectContaining({ name: "KubeconfigError", message: expect.stringMatching(new RegExp(`^kubeconfig ${bad}: not a valid kubeconfig: .*; fix it or pass --kubeconfig FILE$`)) }));
    const folder = join(dir, "a-folder");
    mkdirSync(folder, { recursive: true });
    expect(() => loadKubeConfig({ kubeconfig: folder })).toThrow(expect.objectContaining({ name: "KubeconfigError", message: expect.stringMatching(new RegExp(`^kubeconfig ${folder}: cannot be read: EISDIR`)) }));
    if (process.getuid?.() !== 0) {
      const secret = file("secret", config("https://127.0.0.1:6443"));
      chmodSync(secret, 0o000);
      expect(() => loadKubeConfig({ kubeconfig: secret })).toThrow(expect.objectContaining({ message: expect.stringContaining(`kubeconfig ${secret}: cannot be read: EACCES`) }));
    }
  });

  it("an unknown --context lists the ones there are", () => {
    const f = file("one", config("https://127.0.0.1:6443"));
    expect(() => loadKubeConfig({ kubeconfig: f, context: "prod" })).toThrow(`kubeconfig ${f}: no context 'prod' (it has lab); pass --context NAME`);
  });

  it("reads ~/.kube/config, and merges KUBECONFIG's files with the first one's current context", () => {
    mkdirSync(join(home, ".kube"), { recursive: true });
    writeFileSync(join(home, ".kube", "config"), config("https://home.example:6443"));
    expect(loadKubeConfig({ env: { HOME: home } }).getCurrentCluster()?.server).toBe("https://home.example:6443");
    const first = file("first", config("https://first.example:6443", "first"));
    const second = file("second", config("https://second.example:6443", "second"));
    const kc = loadKubeConfig({ env: { HOME: home, KUBECONFIG: [join(dir, "absent"), first, second].join(delimiter) } });
    expect(kc.getCurrentContext()).toBe("first");
    expect(kc.getContexts().map((c) => c.name).sort()).toEqual(["first", "second"]);
    // both name their cluster `c`: the first file's wins, as with kubectl
    expect(kc.getCurrentCluster()?.server).toBe("https://first.example:6443");
  });
});
