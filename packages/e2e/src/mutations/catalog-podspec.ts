// Per-kind knowledge for issue 23's pod-spec and core-volume checks: the kinds of bases-podspec.ts (Pod, PodTemplate,
// PersistentVolume, PersistentVolumeClaim) and pod-template edits for every workload kind. Rules restated from the
// API's behaviour as field paths and values.
import type { EnumField, NumericField, RuleEdit } from "./catalog.ts";
import { deleteAt, getAt, type Json, type Path, setAt } from "./paths.ts";

export const PODSPEC_KINDS = ["Pod", "PodTemplate", "PersistentVolume", "PersistentVolumeClaim"] as const;
export type PodSpecKind = (typeof PODSPEC_KINDS)[number];

const edit = (name: string, apply: (o: Json) => void): RuleEdit => ({ name, apply });
const set = (name: string, path: Path, value: Json): RuleEdit => edit(name, (o) => setAt(o, path, structuredClone(value)));
const push = (o: Json, path: Path, item: Json) => {
  const list = getAt(o, path);
  if (Array.isArray(list)) list.push(structuredClone(item));
  else setAt(o, path, [structuredClone(item)]);
};

const POD = ["spec"] as const;
const TEMPLATE_POD = ["template", "spec"] as const;
const C0 = (pod: Path) => [...pod, "containers", 0];
/** The pod's metadata (annotations live there): the object's own for a Pod, the template's otherwise. */
const metaOf = (pod: Path): Path => (pod.length === 1 ? ["metadata"] : [...pod.slice(0, -1), "metadata"]);
const addVolume = (name: string, pod: Path, volume: Json): RuleEdit => edit(name, (o) => push(o, [...pod, "volumes"], volume));
const annotate = (name: string, pod: Path, key: string, value: string): RuleEdit => edit(name, (o) => setAt(o, [...metaOf(pod), "annotations", key], value));

/** Pod-spec edits the server refuses, for any pod spec at `pod` (Pods, templates of every workload). */
export const podSpecRejected = (pod: Path): RuleEdit[] => [
  addVolume("downwardAPI volume with an env-only field path", pod, { name: "dapi-bad", downwardAPI: { items: [{ path: "node", fieldRef: { fieldPath: "spec.nodeName" } }] } }),
  addVolume("downwardAPI resourceFieldRef without containerName", pod, { name: "dapi-res", downwardAPI: { items: [{ path: "cpu", resourceFieldRef: { resource: "limits.cpu" } }] } }),
  addVolume("downwardAPI item path starting with ..", pod, { name: "dapi-dots", downwardAPI: { items: [{ path: "..data", fieldRef: { fieldPath: "metadata.name" } }] } }),
  addVolume("projected token shorter than 10 minutes", pod, { name: "tok-short", projected: { sources: [{ serviceAccountToken: { path: "t", expirationSeconds: 599 } }] } }),
  addVolume("projected token path absolute", pod, { name: "tok-abs", projected: { sources: [{ serviceAccountToken: { path: "/t" } }] } }),
  addVolume("projected source with two projections", pod, { name: "proj-two", projected: { sources: [{ configMap: { name: "a" }, secret: { name: "b" } }] } }),
  addVolume("projected duplicate paths", pod, {
    name: "proj-dup",
    projected: { sources: [{ configMap: { name: "a", items: [{ key: "k", path: "p" }] } }, { secret: { name: "b", items: [{ key: "k", path: "p" }] } }] },
  }),
  addVolume("nfs relative path", pod, { name: "nfs-rel", nfs: { server: "fs.example.com", path: "exports" } }),
  addVolume("csi driver not a DNS subdomain", pod, { name: "csi-bad", csi: { driver: "Secrets Store!" } }),
  addVolume("iscsi iqn without a known prefix", pod, { name: "iscsi-bad", iscsi: { targetPortal: "10.0.0.1:3260", iqn: "bogus", lun: 0 } }),
  addVolume("ephemeral claim template naming itself", pod, {
    name: "eph-named",
    ephemeral: { volumeClaimTemplate: { metadata: { name: "x" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } } },
  }),
  addVolume("two sources in one volume", pod, { name: "two-src", configMap: { name: "a" }, downwardAPI: { items: [] } }),
  edit("os windows with runAsUser", (o) => {
    setAt(o, [...pod, "os"], { name: "windows" });
    setAt(o, [...pod, "securityContext", "runAsUser"], 1000);
  }),
  edit("os linux with windowsOptions", (o) => {
    setAt(o, [...pod, "os"], { name: "linux" });
    setAt(o, [...C0(pod), "securityContext", "windowsOptions"], { runAsUserName: "ContainerUser" });
  }),
  set("runAsUserName with two backslashes", [...pod, "securityContext", "windowsOptions"], { runAsUserName: "a\\b\\c" }),
  set("hostProcess without hostNetwork", [...pod, "securityContext", "windowsOptions"], { hostProcess: true }),
  set("recursiveReadOnly without readOnly", [...C0(pod), "volumeMounts"], [{ name: "scratch", mountPath: "/scratch", recursiveReadOnly: "Enabled" }]),
  set("AppArmor Localhost without a profile", [...C0(pod), "securityContext", "appArmorProfile"], { type: "Localhost" }),
  edit("shareProcessNamespace with hostPID", (o) => {
    setAt(o, [...pod, "shareProcessNamespace"], true);
    setAt(o, [...pod, "hostPID"], true);
  }),
  edit("hostUsers false with hostNetwork", (o) => {
    setAt(o, [...pod, "hostUsers"], false);
    setAt(o, [...pod, "hostNetwork"], true);
  }),
  set("dnsConfig search domain with double dots", [...pod, "dnsConfig"], { searches: ["bad..domain"] }),
  set("hugepages not a whole number of pages", [...C0(pod), "resources"], { limits: { "hugepages-2Mi": "3Mi", memory: "1Gi" }, requests: { "hugepages-2Mi": "3Mi", memory: "1Gi" } }),
  set("pod-level requests below the containers'", [...pod, "resources"], { requests: { cpu: "50m" }, limits: { cpu: "2" } }),
  set("pod-level memory limit below a container's", [...pod, "resources"], { limits: { memory: "64Mi" } }),
  edit("hostnameOverride with setHostnameAsFQDN", (o) => {
    setAt(o, [...pod, "hostnameOverride"], "worker-host");
    setAt(o, [...pod, "setHostnameAsFQDN"], true);
  }),
  annotate("AppArmor annotation for an unknown container", pod, "container.apparmor.security.beta.kubernetes.io/sidecar", "runtime/default"),
  annotate("seccomp pod annotation naming no profile", pod, "seccomp.security.alpha.kubernetes.io/pod", "default"),
  annotate("pod deletion cost with a plus sign", pod, "controller.kubernetes.io/pod-deletion-cost", "+10"),
  annotate("seccomp annotation against the RuntimeDefault field", pod, "seccomp.security.alpha.kubernetes.io/pod", "unconfined"),
];

/** Pod-spec edits the server accepts (unusual but legal, and legal in any pair). */
export const podSpecAccepted = (pod: Path): RuleEdit[] => [
  addVolume("downwardAPI subscripted annotation and memory in Mi", pod, {
    name: "dapi-ok",
    downwardAPI: { items: [{ path: "team", fieldRef: { fieldPath: "metadata.annotations['team']" } }, { path: "mem", resourceFieldRef: { containerName: "worker", resource: "requests.memory", divisor: "1Mi" } }] },
  }),
  addVolume("projected token of exactly 10 minutes", pod, { name: "tok-600", projected: { sources: [{ serviceAccountToken: { path: "token", expirationSeconds: 600 } }] } }),
  addVolume("projected token of 2^32 seconds", pod, { name: "tok-max", projected: { sources: [{ serviceAccountToken: { path: "token", expirationSeconds: 4294967296 } }] } }),
  addVolume("nfs volume with an absolute path", pod, { name: "nfs-ok", nfs: { server: "fs.example.com", path: "/exports/data", readOnly: true } }),
  addVolume("csi Secrets Store volume", pod, { name: "csi-ok", csi: { driver: "secrets-store.csi.k8s.io", readOnly: true, volumeAttributes: { secretProviderClass: "aws" } } }),
  addVolume("iscsi volume with an iqn target", pod, { name: "iscsi-ok", iscsi: { targetPortal: "10.0.0.1:3260", iqn: "iqn.2001-04.com.example:storage.disk1", lun: 1 } }),
  addVolume("hostPath with type DirectoryOrCreate", pod, { name: "host-ok", hostPath: { path: "/var/log/app", type: "DirectoryOrCreate" } }),
  set("recursiveReadOnly Enabled with readOnly", [...C0(pod), "volumeMounts", 1, "recursiveReadOnly"], "Enabled"),
  set("AppArmor Localhost with a profile", [...C0(pod), "securityContext", "appArmorProfile"], { type: "Localhost", localhostProfile: "k8s-apparmor-default" }),
  set("dnsConfig searches with a root and an underscore", [...pod, "dnsConfig", "searches"], [".", "_tcp.example.com.", "svc.cluster.local."]),
  set("hugepages in whole pages with memory", [...C0(pod), "resources"], { limits: { "hugepages-2Mi": "4Mi", memory: "256Mi" }, requests: { "hugepages-2Mi": "4Mi", memory: "256Mi" } }),
  set("pod-level limits above the containers'", [...pod, "resources"], { limits: { cpu: "4", memory: "4Gi" } }),
  set("shareProcessNamespace without hostPID", [...pod, "shareProcessNamespace"], true),
  set("hostUsers false", [...pod, "hostUsers"], false),
  set("os linux", [...pod, "os"], { name: "linux" }),
  annotate("seccomp annotation docker/default matching RuntimeDefault", pod, "seccomp.security.alpha.kubernetes.io/pod", "docker/default"),
  annotate("AppArmor annotation for the container", pod, "container.apparmor.security.beta.kubernetes.io/worker", "localhost/k8s-apparmor-default"),
  annotate("negative pod deletion cost", pod, "controller.kubernetes.io/pod-deletion-cost", "-100"),
];

const PV_CSI = ["spec", "csi"] as const;
/** Replaces the PersistentVolume's source (whichever an earlier edit left) with another. */
const replaceSource = (name: string, source: string, value: Json, extra: (o: Json) => void = () => {}): RuleEdit =>
  edit(name, (o) => {
    for (const s of ["csi", "local", "nfs", "hostPath", "iscsi", "flexVolume"]) deleteAt(o, ["spec", s]);
    setAt(o, ["spec", source], structuredClone(value));
    extra(o);
  });

export const PODSPEC_ENUM_FIELDS: Record<PodSpecKind, readonly EnumField[]> = {
  Pod: [
    { path: ["spec", "restartPolicy"], values: ["Always", "OnFailure", "Never"] },
    { path: ["spec", "dnsPolicy"], values: ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"] },
    { path: [...C0(POD), "volumeMounts", 1, "recursiveReadOnly"], values: ["Disabled", "Enabled", "IfPossible"] },
  ],
  PodTemplate: [{ path: [...C0(TEMPLATE_POD), "imagePullPolicy"], values: ["Always", "IfNotPresent", "Never"] }],
  PersistentVolume: [
    { path: ["spec", "persistentVolumeReclaimPolicy"], values: ["Delete", "Recycle", "Retain"] },
    { path: ["spec", "volumeMode"], values: ["Block", "Filesystem"] },
  ],
  PersistentVolumeClaim: [
    { path: ["spec", "accessModes", 0], values: ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"] },
    { path: ["spec", "volumeMode"], values: ["Block", "Filesystem"] },
  ],
};

export const PODSPEC_NUMERIC_FIELDS: Record<PodSpecKind, readonly NumericField[]> = {
  Pod: [
    { path: ["spec", "activeDeadlineSeconds"], min: 1, max: 2 ** 31 - 1, integer: true },
    { path: ["spec", "volumes", 0, "projected", "sources", 0, "serviceAccountToken", "expirationSeconds"], min: 600, max: 2 ** 32, integer: true },
  ],
  PodTemplate: [{ path: ["template", "spec", "volumes", 0, "projected", "defaultMode"], min: 0, max: 0o777, integer: true }],
  PersistentVolume: [],
  PersistentVolumeClaim: [],
};

export const PODSPEC_RULE_EDITS: Record<PodSpecKind, readonly RuleEdit[]> = {
  Pod: [
    ...podSpecRejected(POD),
    set("ephemeral containers on create", ["spec", "ephemeralContainers"], [{ name: "debug", image: "busybox" }]),
    edit("nodeName with scheduling gates", (o) => {
      setAt(o, ["spec", "nodeName"], "node-1");
      setAt(o, ["spec", "schedulingGates"], [{ name: "example.com/wait" }]);
    }),
    // (a mirror pod annotation is refused earlier, by admission, with 403: no verdict to compare)
    set("init container image with trailing whitespace", ["spec", "initContainers"], [{ name: "init", image: "busybox " }]),
    addVolume("persistentVolumeClaim naming the ephemeral volume's claim", POD, { name: "ref", persistentVolumeClaim: { claimName: "worker-scratch" } }),
  ],
  PodTemplate: podSpecRejected(TEMPLATE_POD),
  PersistentVolume: [
    set("csi driver with a space", [...PV_CSI, "driver"], "EBS CSI"),
    set("csi node publish secret without namespace", [...PV_CSI, "nodePublishSecretRef"], { name: "creds" }),
    replaceSource("local volume without node affinity", "local", { path: "/mnt/disks/ssd1" }, (o) => deleteAt(o, ["spec", "nodeAffinity"])),
    replaceSource("hostPath / with reclaim Recycle", "hostPath", { path: "/" }, (o) => setAt(o, ["spec", "persistentVolumeReclaimPolicy"], "Recycle")),
    set("a second source", ["spec", "nfs"], { server: "fs.example.com", path: "/exports" }),
    replaceSource("iscsi with a bad iqn", "iscsi", { targetPortal: "10.0.0.1:3260", iqn: "bogus", lun: 0 }),
    replaceSource("nfs with a relative path", "nfs", { server: "fs.example.com", path: "exports" }),
    set("node affinity without required terms", ["spec", "nodeAffinity"], {}),
    replaceSource("volumeAttributesClassName without csi", "nfs", { server: "fs.example.com", path: "/exports" }, (o) => setAt(o, ["spec", "volumeAttributesClassName"], "fast")),
    set("capacity zero", ["spec", "capacity", "storage"], "0"),
  ],
  PersistentVolumeClaim: [
    set("dataSourceRef naming another object", ["spec", "dataSourceRef"], { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "other" }),
    edit("dataSourceRef of a core kind other than a claim", (o) => {
      deleteAt(o, ["spec", "dataSource"]);
      setAt(o, ["spec", "dataSourceRef"], { kind: "ConfigMap", name: "a" });
    }),
    edit("dataSourceRef with an invalid apiGroup", (o) => {
      deleteAt(o, ["spec", "dataSource"]);
      setAt(o, ["spec", "dataSourceRef"], { apiGroup: "Bad_Group", kind: "Thing", name: "t" });
    }),
    set("dataSource without a name", ["spec", "dataSource", "name"], ""),
    set("ReadWriteOncePod with another mode", ["spec", "accessModes"], ["ReadWriteOncePod", "ReadWriteOnce"]),
    set("storage request zero", ["spec", "resources", "requests", "storage"], "0"),
  ],
};

export const PODSPEC_ACCEPTED_EDITS: Record<PodSpecKind, readonly RuleEdit[]> = {
  Pod: podSpecAccepted(POD),
  PodTemplate: podSpecAccepted(TEMPLATE_POD),
  PersistentVolume: [
    replaceSource("local volume with node affinity", "local", { path: "/mnt/disks/ssd1" }),
    replaceSource("nfs with an absolute path", "nfs", { server: "fs.example.com", path: "/exports" }),
    replaceSource("flexVolume with a vendor option", "flexVolume", { driver: "example.com/lvm", options: { "example.com/size": "1" } }),
    edit("csi secrets with namespaces", (o) => {
      // only while the source is still csi (another accepted edit may have replaced it)
      if (getAt(o, [...PV_CSI]) !== undefined) setAt(o, [...PV_CSI, "controllerExpandSecretRef"], { name: "creds", namespace: "kube-system" });
    }),
    set("reclaim Delete", ["spec", "persistentVolumeReclaimPolicy"], "Delete"),
    set("volumeMode Block", ["spec", "volumeMode"], "Block"),
    set("mount options", ["spec", "mountOptions"], ["noatime"]),
  ],
  PersistentVolumeClaim: [
    set("legacy dataSource of another kind (dropped on create)", ["spec", "dataSource"], { kind: "ConfigMap", name: "a" }),
    set("cross-namespace dataSourceRef (dropped: the feature is off)", ["spec", "dataSourceRef"], { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "s", namespace: "other" }),
    edit("dataSourceRef to a volume populator", (o) => {
      deleteAt(o, ["spec", "dataSource"]);
      setAt(o, ["spec", "dataSourceRef"], { apiGroup: "populator.example.com", kind: "Thing", name: "t" });
    }),
    set("volumeMode Block", ["spec", "volumeMode"], "Block"),
    set("ReadWriteOncePod alone", ["spec", "accessModes"], ["ReadWriteOncePod"]),
  ],
};
