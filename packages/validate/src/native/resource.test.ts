// resource.k8s.io/v1 native checks with kube-apiserver 1.36.5's messages (captured with packages/e2e/src/probe.ts).
import { describe, expect, it } from "vitest";
import { RESOURCE } from "./resource.ts";
import { selectorProblem } from "./resource-cel.ts";
import { runNative } from "./testing.ts";

const claim = (requests: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: "resource.k8s.io/v1",
  kind: "ResourceClaim",
  metadata: { name: "gpu", namespace: "ml" },
  spec: { devices: { requests, ...extra } },
});
const gpu = (exactly: Record<string, unknown> = {}) => ({ name: "gpu", exactly: { deviceClassName: "gpu.example.com", ...exactly } });
const slice = (spec: Record<string, unknown>) => ({
  apiVersion: "resource.k8s.io/v1",
  kind: "ResourceSlice",
  metadata: { name: "s" },
  spec: { driver: "gpu.example.com", nodeName: "node-1", pool: { name: "node-1", resourceSliceCount: 1 }, ...spec },
});
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe("ResourceClaim", () => {
  it("accepts exact and prioritized requests, constraints and config naming them", () => {
    const requests = [gpu({ count: 2 }), { name: "nic", firstAvailable: [{ name: "fast", deviceClassName: "nic.example.com" }, { name: "any", deviceClassName: "nic.example.com", allocationMode: "All" }] }];
    const extra = { constraints: [{ requests: ["gpu"], matchAttribute: "gpu.example.com/numa" }], config: [{ requests: ["gpu", "nic/fast"], opaque: { driver: "gpu.example.com", parameters: {} } }] };
    expect(runNative(RESOURCE, claim(requests, extra))).toEqual([]);
  });

  it("checks the request union, names, classes and allocation mode after defaulting (count 0 becomes 1)", () => {
    expect(runNative(RESOURCE, claim([gpu({ count: 0 })]))).toEqual([]);
    expect(runNative(RESOURCE, claim([{ name: "GPU_0" }, { ...gpu(), firstAvailable: [{ name: "a", deviceClassName: "c" }] }, gpu({ count: -1 }), gpu({ allocationMode: "All", count: 2 }), gpu({ allocationMode: "Some", deviceClassName: "" })]))).toEqual([
      `/spec/devices/requests/0/name spec.devices.requests[0].name: Invalid value: "GPU_0": ${LABEL_MSG} [native:resource]`,
      "/spec/devices/requests/0 spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required [native:resource]",
      "/spec/devices/requests/1 spec.devices.requests[1]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set [native:resource]",
      "/spec/devices/requests/2/exactly/count spec.devices.requests[2].exactly.count: Invalid value: -1: must be greater than zero [native:resource]",
      "/spec/devices/requests/3/exactly/count spec.devices.requests[3].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All' [native:resource]",
      "/spec/devices/requests/4/exactly/deviceClassName spec.devices.requests[4].exactly.deviceClassName: Required value [native:resource]",
      '/spec/devices/requests/4/exactly/allocationMode spec.devices.requests[4].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount" [native:resource]',
      '/spec/devices/requests/2 spec.devices.requests[2]: Duplicate value: "gpu" [native:resource]',
      '/spec/devices/requests/3 spec.devices.requests[3]: Duplicate value: "gpu" [native:resource]',
      '/spec/devices/requests/4 spec.devices.requests[4]: Duplicate value: "gpu" [native:resource]',
    ]);
  });

  it("checks constraints, config and tolerations", () => {
    const requests = [gpu({ tolerations: [{ key: "k", operator: "Exists", value: "v" }, { key: "k", operator: "Exists", effect: "Sometimes" }] })];
    const extra = {
      constraints: [{ requests: ["missing"], matchAttribute: "numa" }, { requests: ["gpu"] }],
      config: [{}, { opaque: { driver: "gpu.example.com", parameters: [1] } }],
    };
    expect(runNative(RESOURCE, claim(requests, extra))).toEqual([
      '/spec/devices/requests/0/exactly/tolerations/0/value spec.devices.requests[0].exactly.tolerations[0].value: Invalid value: "v": must be empty for operator `Exists` [native:resource]',
      '/spec/devices/requests/0/exactly/tolerations/1/effect spec.devices.requests[0].exactly.tolerations[1].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "None" [native:resource]',
      "/spec/devices/constraints/0/requests/0 spec.devices.constraints[0].requests[0]: Invalid value: \"missing\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/' [native:resource]",
      '/spec/devices/constraints/0/matchAttribute spec.devices.constraints[0].matchAttribute: Invalid value: "numa": a fully qualified name must be a domain and a name separated by a slash [native:resource]',
      '/spec/devices/constraints/1 spec.devices.constraints[1]: Required value: exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set [native:resource]',
      "/spec/devices/config/0/opaque spec.devices.config[0].opaque: Required value [native:resource]",
      '/spec/devices/config/1/opaque/parameters spec.devices.config[1].opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object [native:resource]',
    ]);
  });
});

describe("device selectors (CEL)", () => {
  it("refuses what cel-go refuses, in the server's words where cel-js and cel-go agree on the position", () => {
    expect(selectorProblem('self.driver == "gpu.example.com"')?.detail).toBe(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'self' (in container '')\n | self.driver == \"gpu.example.com\"\n | ^",
    );
    expect(selectorProblem('device.vendor == "example"')?.detail).toBe("compilation failed: ERROR: <input>:1:7: undefined field 'vendor'\n | device.vendor == \"example\"\n | ......^");
    expect(selectorProblem("device.driver")?.detail).toBe("must evaluate to bool or the unknown type, not string");
    expect(selectorProblem("1 + 2")?.detail).toBe("must evaluate to bool or the unknown type, not int");
    expect(selectorProblem('device.driver == "a" &&')?.detail).toMatch(/^compilation failed: ERROR: <input>: Syntax error: /);
  });

  it("never refuses an expression the server compiles, also with the Kubernetes libraries cel-js lacks", () => {
    for (const expression of [
      "true",
      'device.attributes["gpu.example.com"].mig',
      'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))',
      'cel.bind(gpu, device.attributes["gpu.example.com"], gpu.model == "a100" && gpu.numa == 0)',
      'has(device.capacity["gpu.example.com"].memory) && device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("1Gi"))',
      '"gpu.example.com" in device.attributes && device.attributes.exists(d, d.startsWith("gpu"))',
      "device.allowMultipleAllocations",
    ]) {
      expect(selectorProblem(expression), expression).toBeUndefined();
    }
  });

  it("reports a selector's problem at its expression, and a missing cel", () => {
    const dc = { apiVersion: "resource.k8s.io/v1", kind: "DeviceClass", metadata: { name: "gpu" }, spec: { selectors: [{ cel: { expression: "1 + 2" } }, {}], extendedResourceName: "cpu" } };
    expect(runNative(RESOURCE, dc)).toEqual([
      '/spec/selectors/0/cel/expression spec.selectors[0].cel.expression: Invalid value: "1 + 2": must evaluate to bool or the unknown type, not int [native:resource/cel-selector]',
      "/spec/selectors/1/cel spec.selectors[1].cel: Required value [native:resource]",
      '/spec/extendedResourceName spec.extendedResourceName: Invalid value: "cpu": must be a valid extended resource name [native:resource]',
    ]);
  });
});

describe("ResourceSlice", () => {
  it("accepts a node-local slice with typed attributes and capacity", () => {
    const devices = [{ name: "gpu-0", attributes: { model: { string: "a100" }, "gpu.example.com/numa": { int: 0 }, v: { version: "1.2.3-rc.1" } }, capacity: { memory: { value: "40Gi" } } }];
    expect(runNative(RESOURCE, slice({ devices }))).toEqual([]);
  });

  it("wants exactly one node selection, and a positive pool count", () => {
    expect(runNative(RESOURCE, slice({ allNodes: true, pool: { name: "p", resourceSliceCount: 0, generation: -1 } }))).toEqual([
      "/spec/pool/resourceSliceCount spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero [native:resource]",
      "/spec/pool/generation spec.pool.generation: Invalid value: -1: must be greater than or equal to zero [native:resource]",
      '/spec spec: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set [native:resource]',
    ]);
  });

  it("checks device attributes (one value, semver, C identifiers), request policies and node fields", () => {
    const devices = [
      {
        name: "gpu-0",
        nodeName: "node-1",
        attributes: { model: { string: "a100", int: 1 }, "gpu-model": { string: "x" }, v: { version: "535.104" } },
        capacity: { memory: { value: "40Gi", requestPolicy: { default: "1Gi" } } },
      },
    ];
    expect(runNative(RESOURCE, slice({ devices }))).toEqual([
      '/spec/devices/0/attributes/model spec.devices[0].attributes[model]: Invalid value: {"IntValue":1,"BoolValue":null,"StringValue":"a100","VersionValue":null,"IntValues":null,"BoolValues":null,"StringValues":null,"VersionValues":null}: exactly one value must be specified [native:resource]',
      "/spec/devices/0/attributes spec.devices[0].attributes: Invalid value: \"gpu-model\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*') [native:resource]",
      '/spec/devices/0/attributes/v/version spec.devices[0].attributes[v].version: Invalid value: "535.104": must be a string compatible with semver.org spec 2.0.0 [native:resource]',
      "/spec/devices/0/capacity/memory/requestPolicy spec.devices[0].capacity[memory].requestPolicy: Forbidden: allowMultipleAllocations must be true [native:resource]",
      "/spec/devices/0 spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec [native:resource]",
    ]);
  });
});
