package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's apps/v1 and batch/v1 defaulting: Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and CronJob, each
 * with its pod template defaulted as a Pod's spec is ({@link PodDefaults#template}).
 */
final class WorkloadDefaults {

  private WorkloadDefaults() {}

  /** {@code SetDefaults_Deployment}: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, deadline 600. */
  static void deployment(ObjectNode deployment) {
    ObjectNode spec = Json.object(deployment, "spec");
    replicas(spec);
    ObjectNode strategy = Json.object(spec, "strategy");
    Json.putIfAbsent(strategy, "type", "RollingUpdate");
    if (strategy.path("type").asText().equals("RollingUpdate")) {
      ObjectNode rollingUpdate = Json.object(strategy, "rollingUpdate");
      Json.putIfAbsent(rollingUpdate, "maxUnavailable", "25%");
      Json.putIfAbsent(rollingUpdate, "maxSurge", "25%");
    }
    integer(spec, "revisionHistoryLimit", 10);
    integer(spec, "progressDeadlineSeconds", 600);
    PodDefaults.template(spec);
  }

  /** {@code SetDefaults_ReplicaSet}: replicas 1. */
  static void replicaSet(ObjectNode replicaSet) {
    ObjectNode spec = Json.object(replicaSet, "spec");
    replicas(spec);
    PodDefaults.template(spec);
  }

  /**
   * {@code SetDefaults_StatefulSet}: replicas 1, podManagementPolicy OrderedReady, RollingUpdate with partition 0,
   * revisionHistoryLimit 10, persistentVolumeClaimRetentionPolicy Retain/Retain.
   */
  static void statefulSet(ObjectNode statefulSet) {
    ObjectNode spec = Json.object(statefulSet, "spec");
    Json.putIfAbsent(spec, "podManagementPolicy", "OrderedReady");
    ObjectNode strategy = Json.object(spec, "updateStrategy");
    Json.putIfAbsent(strategy, "type", "RollingUpdate");
    if (strategy.path("type").asText().equals("RollingUpdate")) {
      integer(Json.object(strategy, "rollingUpdate"), "partition", 0);
    }
    ObjectNode retention = Json.object(spec, "persistentVolumeClaimRetentionPolicy");
    Json.putIfAbsent(retention, "whenDeleted", "Retain");
    Json.putIfAbsent(retention, "whenScaled", "Retain");
    replicas(spec);
    integer(spec, "revisionHistoryLimit", 10);
    PodDefaults.template(spec);
  }

  /**
   * What kube 1.37 adds to {@code SetDefaults_StatefulSet} (MaxUnavailableStatefulSet on by default): a RollingUpdate
   * strategy's {@code rollingUpdate.maxUnavailable} defaults to 1.
   */
  static void statefulSetMaxUnavailable(ObjectNode statefulSet) {
    ObjectNode strategy = Json.object(Json.object(statefulSet, "spec"), "updateStrategy");
    if (strategy.path("type").asText().equals("RollingUpdate")) {
      ObjectNode rollingUpdate = Json.object(strategy, "rollingUpdate");
      if (Json.absent(rollingUpdate, "maxUnavailable")) {
        rollingUpdate.put("maxUnavailable", 1);
      }
    }
  }

  /** {@code SetDefaults_DaemonSet}: RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10. */
  static void daemonSet(ObjectNode daemonSet) {
    ObjectNode spec = Json.object(daemonSet, "spec");
    ObjectNode strategy = Json.object(spec, "updateStrategy");
    Json.putIfAbsent(strategy, "type", "RollingUpdate");
    if (strategy.path("type").asText().equals("RollingUpdate")) {
      ObjectNode rollingUpdate = Json.object(strategy, "rollingUpdate");
      if (Json.absent(rollingUpdate, "maxUnavailable")) {
        rollingUpdate.put("maxUnavailable", 1);
      }
      if (Json.absent(rollingUpdate, "maxSurge")) {
        rollingUpdate.put("maxSurge", 0);
      }
    }
    integer(spec, "revisionHistoryLimit", 10);
    PodDefaults.template(spec);
  }

  /**
   * {@code SetDefaults_Job}: completions and parallelism 1 when neither is set (parallelism 1 when only it is
   * missing), backoffLimit 6, completionMode NonIndexed, suspend false, podReplacementPolicy TerminatingOrFailed
   * (Failed with a podFailurePolicy). The generated selector and labels need the uid: see {@link JobSelector}.
   */
  static void job(ObjectNode job) {
    jobSpec(Json.object(job, "spec"));
  }

  private static void jobSpec(ObjectNode spec) {
    if (Json.absent(spec, "completions") && Json.absent(spec, "parallelism")) {
      spec.put("completions", 1);
    }
    integer(spec, "parallelism", 1);
    Json.putIfAbsent(spec, "completionMode", "NonIndexed");
    boolean perIndex = spec.path("completionMode").asText().equals("Indexed") && spec.has("backoffLimitPerIndex");
    if (Json.absent(spec, "backoffLimit")) {
      spec.put("backoffLimit", perIndex ? Integer.MAX_VALUE : 6);
    }
    if (Json.absent(spec, "suspend")) {
      spec.put("suspend", false);
    }
    Json.putIfAbsent(spec, "podReplacementPolicy", spec.has("podFailurePolicy") ? "Failed" : "TerminatingOrFailed");
    PodDefaults.template(spec);
  }

  /**
   * {@code SetDefaults_CronJob}: concurrencyPolicy Allow, suspend false, successfulJobsHistoryLimit 3,
   * failedJobsHistoryLimit 1; the job template's pod template gets pod defaults (its job spec does not: kube
   * defaults a JobSpec only inside a Job).
   */
  static void cronJob(ObjectNode cronJob) {
    ObjectNode spec = Json.object(cronJob, "spec");
    Json.putIfAbsent(spec, "concurrencyPolicy", "Allow");
    if (Json.absent(spec, "suspend")) {
      spec.put("suspend", false);
    }
    integer(spec, "successfulJobsHistoryLimit", 3);
    integer(spec, "failedJobsHistoryLimit", 1);
    if (spec.path("jobTemplate").path("spec") instanceof ObjectNode jobSpec) {
      PodDefaults.template(jobSpec);
    }
  }

  private static void replicas(ObjectNode spec) {
    integer(spec, "replicas", 1);
  }

  private static void integer(ObjectNode node, String field, int value) {
    if (Json.absent(node, field)) {
      node.put(field, value);
    }
  }
}
