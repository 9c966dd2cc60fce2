// The `yaml` library, loaded on first use: most runs never need it (js-yaml reads everything without
// errors or anchors), and loading it costs every `validate` start tens of milliseconds.
import { createRequire } from "node:module";

type YamlLib = typeof import("yaml");
let lib: YamlLib | undefined;

export function yamlLib(): YamlLib {
  lib ??= createRequire(import.meta.url)("yaml") as YamlLib;
  return lib;
}
