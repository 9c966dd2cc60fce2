// The `yaml` library, loaded on first use: most runs never need it (js-yaml reads everything without
// errors or anchors), and loading it costs every `validate` start tens of milliseconds.
import { createRequire } from "node:module";

type YamlLib = typeof import("yaml");
let lib: YamlLib | undefined;

export function yamlLib(): YamlLib {
  lib ??= createRequire(import.meta.url)("yaml") as YamlLib;
  return lib;
}

/**
 * Uses a `yaml` module the caller has loaded already (the CLI's bundle holds one, code-cached) instead of
 * loading the package from node_modules on first use: that costs a synth ~0.1 s of module resolution and
 * compiling. The same package version (the workspace pins one).
 */
export function provideYamlLib(loaded: YamlLib): void {
  lib ??= loaded;
}
