package dev.ctk.fake.internal.registry;

/**
 * Which of the fake's defaulting and validation rule sets a kind gets: one column of its row in
 * {@link BuiltinKinds}. {@code dev.ctk.fake.internal.admission.Admission} maps each constant to its rules with an
 * exhaustive switch, so a constant added here without rules does not compile.
 */
public enum AdmissionRules {
  /** Metadata checks only, names as DNS-1123 subdomains: most kinds, and every custom resource. */
  METADATA_ONLY,
  /** Metadata checks only, names as path segments (the RBAC kinds). */
  PATH_SEGMENT_NAMES,
  /** core/v1 Pod: defaults, spec validation and the update rules. */
  POD,
  /** core/v1 PersistentVolumeClaim: defaults and the update rules. */
  PERSISTENT_VOLUME_CLAIM,
  /** core/v1 Service: defaults, address allocation, names as DNS-1035 labels and the update rules. */
  SERVICE,
  /** core/v1 Namespace: names as DNS-1123 labels. */
  NAMESPACE,
  /** core/v1 ConfigMap: at most 1 MiB of values; {@code immutable} once set. */
  CONFIG_MAP,
  /** core/v1 Secret: the default type, at most 1 MiB of data, {@code immutable} once set, a type never changed. */
  SECRET,
  /** apps/v1 Deployment: defaults, selector and template checks. */
  DEPLOYMENT,
  /** apps/v1 ReplicaSet: defaults, selector and template checks. */
  REPLICA_SET,
  /** apps/v1 StatefulSet: defaults, selector and template checks, the fields an update may change. */
  STATEFUL_SET,
  /** apps/v1 DaemonSet: defaults, selector and template checks. */
  DAEMON_SET,
  /** batch/v1 Job: defaults, generated selector, the update rules. */
  JOB,
  /** batch/v1 CronJob: defaults. */
  CRON_JOB,
  /** events.k8s.io/v1 Event: the update rules. */
  EVENTS_EVENT
}
