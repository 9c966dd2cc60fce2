// Ingress and NetworkPolicy native checks with kube-apiserver 1.36.5's messages.
import { describe, expect, it } from "vitest";
import { NETWORKING } from "./networking.ts";
import { runNative } from "./testing.ts";

type Obj = Record<string, any>;
const backend = (port: Obj = { number: 80 }, name = "web") => ({ service: { name, port } });
const ingress = (spec: Obj, annotations?: Obj): Obj => ({ apiVersion: "networking.k8s.io/v1", kind: "Ingress", metadata: { name: "web", namespace: "shop", annotations }, spec });
const rule = (path: Obj, host = "shop.example.com") => ({ host, http: { paths: [{ path: "/", pathType: "Prefix", backend: backend(), ...path }] } });
const policy = (spec: Obj): Obj => ({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name: "deny", namespace: "shop" }, spec: { podSelector: {}, ...spec } });

describe("Ingress", () => {
  it("accepts rules, wildcard hosts, TLS and a class", () => {
    expect(runNative(NETWORKING, ingress({ ingressClassName: "alb", rules: [rule({}), rule({ pathType: "Exact", path: "/api" }, "*.example.com")], tls: [{ hosts: ["shop.example.com"], secretName: "tls" }] }))).toEqual([]);
    expect(runNative(NETWORKING, ingress({ defaultBackend: backend({ name: "http" }, "1-web") }))).toEqual([]);
  });

  it("needs rules or a default backend, and checks hosts", () => {
    expect(runNative(NETWORKING, ingress({}))).toEqual(["/spec spec: Invalid value: null: either `defaultBackend` or `rules` must be specified [native:networking/ingress-spec]"]);
    expect(runNative(NETWORKING, ingress({ rules: [rule({}, "10.0.0.1"), rule({}, "*.*.example.com")] }))).toEqual([
      '/spec/rules/0/host spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address [native:networking/ingress-host]',
      `/spec/rules/1/host spec.rules[1].host: Invalid value: "*.*.example.com": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') [native:networking/ingress-host]`,
    ]);
  });

  it("checks paths by type and backends", () => {
    expect(runNative(NETWORKING, ingress({ rules: [rule({ path: "api/../x" })] }))).toEqual([
      '/spec/rules/0/http/paths/0/path spec.rules[0].http.paths[0].path: Invalid value: "api/../x": must be an absolute path [native:networking/ingress-path]',
      "/spec/rules/0/http/paths/0/path spec.rules[0].http.paths[0].path: Invalid value: \"api/../x\": must not contain '/../' [native:networking/ingress-path]",
    ]);
    expect(runNative(NETWORKING, ingress({ rules: [rule({ pathType: undefined })] }))).toEqual([
      "/spec/rules/0/http/paths/0/pathType spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified [native:networking/ingress-path]",
    ]);
    expect(runNative(NETWORKING, ingress({ rules: [rule({ backend: backend({ name: "http", number: 80 }) }), rule({ backend: backend({}) }), rule({ backend: backend({ number: 70000 }, "Web") })] }))).toEqual([
      '/spec/rules/0/http/paths/0/backend spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number [native:networking/ingress-backend]',
      "/spec/rules/1/http/paths/0/backend spec.rules[1].http.paths[0].backend: Required value: port name or number is required [native:networking/ingress-backend]",
      `/spec/rules/2/http/paths/0/backend/service/name spec.rules[2].http.paths[0].backend.service.name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') [native:networking/ingress-backend]`,
      "/spec/rules/2/http/paths/0/backend/service/port/number spec.rules[2].http.paths[0].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive [native:networking/ingress-backend]",
    ]);
  });

  it("requires the class annotation to match ingressClassName", () => {
    expect(runNative(NETWORKING, ingress({ ingressClassName: "alb", rules: [rule({})] }, { "kubernetes.io/ingress.class": "nginx" }))).toEqual([
      '/annotations/kubernetes.io~1ingress.class annotations.kubernetes.io/ingress.class: Invalid value: "nginx": must match `ingressClassName` when both are specified [native:networking/ingress-class]',
    ]);
  });
});

describe("NetworkPolicy", () => {
  it("accepts peers, port ranges and both policy types", () => {
    expect(
      runNative(NETWORKING, policy({ policyTypes: ["Ingress", "Egress"], ingress: [{ from: [{ podSelector: { matchLabels: { app: "web" } } }], ports: [{ port: 8000, endPort: 8080 }, { port: "http" }] }], egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/16", except: ["10.0.1.0/24"] } }] }] })),
    ).toEqual([]);
  });

  it("checks ports, peers and ipBlocks", () => {
    expect(runNative(NETWORKING, policy({ ingress: [{ ports: [{ port: 9000, endPort: 8000 }, { port: "http", endPort: 90 }, { endPort: 90 }], from: [{}, { ipBlock: { cidr: "10.0.0.0/16" }, podSelector: {} }] }] }))).toEqual([
      "/spec/ingress/0/ports/0/endPort spec.ingress[0].ports[0].endPort: Invalid value: 9000: must be greater than or equal to `port` [native:networking/network-policy-port]",
      "/spec/ingress/0/ports/1/endPort spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric [native:networking/network-policy-port]",
      "/spec/ingress/0/ports/2/endPort spec.ingress[0].ports[2].endPort: Invalid value: 90: may not be specified when `port` is not specified [native:networking/network-policy-port]",
      "/spec/ingress/0/from/0 spec.ingress[0].from[0]: Required value: must specify a peer [native:networking/network-policy-peer]",
      "/spec/ingress/0/from/1 spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer [native:networking/network-policy-peer]",
    ]);
    expect(runNative(NETWORKING, policy({ egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/33" } }, { ipBlock: { cidr: "10.0.0.0/16", except: ["10.1.0.0/24", "10.0.0.0/8"] } }] }] }))).toEqual([
      '/spec/egress/0/to/0/ipBlock/cidr spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64) [native:networking/network-policy-ip-block]',
      '/spec/egress/0/to/1/ipBlock/except/0 spec.egress[0].to[1].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr` [native:networking/network-policy-ip-block]',
      '/spec/egress/0/to/1/ipBlock/except/1 spec.egress[0].to[1].ipBlock.except[1]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr` [native:networking/network-policy-ip-block]',
    ]);
    expect(runNative(NETWORKING, policy({ egress: [{ to: [{ ipBlock: { cidr: "fd00::/8", except: ["fd00:1::/32"] } }] }] }))).toEqual([]);
    // 1.36's strict CIDR checks (StrictIPCIDRValidation is on by default)
    expect(runNative(NETWORKING, policy({ egress: [{ to: [{ ipBlock: { cidr: "10.0.5.1/24" } }, { ipBlock: { cidr: "010.0.0.0/16" } }, { ipBlock: { cidr: "::ffff:10.0.0.0/104" } }] }] }))).toEqual([
      '/spec/egress/0/to/0/ipBlock/cidr spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.5.1/24": must not have bits set beyond the prefix length [native:networking/network-policy-ip-block]',
      '/spec/egress/0/to/1/ipBlock/cidr spec.egress[0].to[1].ipBlock.cidr: Invalid value: "010.0.0.0/16": must not have leading 0s in IP or prefix length [native:networking/network-policy-ip-block]',
      '/spec/egress/0/to/2/ipBlock/cidr spec.egress[0].to[2].ipBlock.cidr: Invalid value: "::ffff:10.0.0.0/104": must not have an IPv4-mapped IPv6 address [native:networking/network-policy-ip-block]',
    ]);
  });
});
