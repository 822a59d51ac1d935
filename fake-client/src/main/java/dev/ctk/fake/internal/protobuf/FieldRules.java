package dev.ctk.fake.internal.protobuf;

import java.util.HashMap;
import java.util.Map;

/**
 * What the protobuf schema does not say about kube's JSON, taken from the Go struct tags of {@code k8s.io/api}: which
 * fields are embedded structs whose fields JSON lifts into the parent ({@code json:",inline"}), and which fields are
 * Go pointers whose zero value means something other than "not set".
 *
 * <p>kube's Go types marshal every non-pointer field, zero or not, so a protobuf body from kubectl carries
 * {@code generateName: ""}, {@code generation: 0}, {@code stdin: false} and the like; kube reads them as unset and its
 * JSON leaves them out ({@code omitempty}). {@link KubeJson} does the same with every zero number, {@code false} and
 * empty string, except for the fields listed {@code keep-zero} here: pointers such as {@code replicas} where {@code 0}
 * is a request of its own ({@code kubectl create deployment --replicas=0}), not the default, and the few numbers kube
 * writes even when zero ({@code kubectl create priorityclass --value=0}).
 */
final class FieldRules {

  /** What a field is, beyond its protobuf type. */
  enum Rule {
    /** An embedded struct: its fields go into the parent's JSON object. */
    INLINE,
    /** A field whose zero value kube's JSON keeps (a pointer, or a field without {@code omitempty}). */
    KEEP_ZERO
  }

  /**
   * One rule a line: the message (simple name, any group and version), the field, the rule. {@code keep-zero} lists
   * the fields of the kinds ctk serves whose zero kube's JSON keeps: pointers a client sets to zero on purpose (most
   * of them default to something else when unset), then the numbers and booleans without {@code omitempty}
   * ({@code PriorityClass.value}, a port, the counters of a workload's status). A pointer not listed here loses a
   * zero it was set to.
   */
  static final String RULES = """
      Probe                             handler                          inline
      Volume                            volumeSource                     inline
      PersistentVolumeSpec              persistentVolumeSource           inline
      EphemeralContainer                ephemeralContainerCommon         inline
      ConfigMapEnvSource                localObjectReference             inline
      ConfigMapKeySelector              localObjectReference             inline
      ConfigMapProjection               localObjectReference             inline
      ConfigMapVolumeSource             localObjectReference             inline
      SecretEnvSource                   localObjectReference             inline
      SecretKeySelector                 localObjectReference             inline
      SecretProjection                  localObjectReference             inline
      IngressRule                       ingressRuleValue                 inline
      RuleWithOperations                rule                             inline
      NamedRuleWithOperations           ruleWithOperations               inline
      DeploymentSpec                    replicas                         keep-zero
      DeploymentSpec                    revisionHistoryLimit             keep-zero
      DeploymentSpec                    progressDeadlineSeconds          keep-zero
      ReplicaSetSpec                    replicas                         keep-zero
      StatefulSetSpec                   replicas                         keep-zero
      StatefulSetSpec                   revisionHistoryLimit             keep-zero
      DaemonSetSpec                     revisionHistoryLimit             keep-zero
      ReplicationControllerSpec         replicas                         keep-zero
      RollingUpdateDeployment           maxUnavailable                   keep-zero
      RollingUpdateDeployment           maxSurge                         keep-zero
      RollingUpdateDaemonSet            maxUnavailable                   keep-zero
      RollingUpdateDaemonSet            maxSurge                         keep-zero
      RollingUpdateStatefulSetStrategy  partition                        keep-zero
      RollingUpdateStatefulSetStrategy  maxUnavailable                   keep-zero
      JobSpec                           parallelism                      keep-zero
      JobSpec                           completions                      keep-zero
      JobSpec                           backoffLimit                     keep-zero
      JobSpec                           backoffLimitPerIndex             keep-zero
      JobSpec                           maxFailedIndexes                 keep-zero
      JobSpec                           ttlSecondsAfterFinished          keep-zero
      JobSpec                           activeDeadlineSeconds            keep-zero
      CronJobSpec                       startingDeadlineSeconds          keep-zero
      CronJobSpec                       successfulJobsHistoryLimit       keep-zero
      CronJobSpec                       failedJobsHistoryLimit           keep-zero
      PodDisruptionBudgetSpec           minAvailable                     keep-zero
      PodDisruptionBudgetSpec           maxUnavailable                   keep-zero
      HorizontalPodAutoscalerSpec       minReplicas                      keep-zero
      PodSpec                           terminationGracePeriodSeconds    keep-zero
      PodSpec                           activeDeadlineSeconds            keep-zero
      PodSpec                           automountServiceAccountToken     keep-zero
      PodSpec                           enableServiceLinks               keep-zero
      PodSpec                           hostUsers                        keep-zero
      ServiceAccount                    automountServiceAccountToken     keep-zero
      Probe                             terminationGracePeriodSeconds    keep-zero
      SecurityContext                   runAsUser                        keep-zero
      SecurityContext                   runAsGroup                       keep-zero
      SecurityContext                   runAsNonRoot                     keep-zero
      SecurityContext                   allowPrivilegeEscalation         keep-zero
      SecurityContext                   privileged                       keep-zero
      SecurityContext                   readOnlyRootFilesystem           keep-zero
      PodSecurityContext                runAsUser                        keep-zero
      PodSecurityContext                runAsGroup                       keep-zero
      PodSecurityContext                runAsNonRoot                     keep-zero
      PodSecurityContext                fsGroup                          keep-zero
      ServiceSpec                       allocateLoadBalancerNodePorts    keep-zero
      PersistentVolumeClaimSpec         storageClassName                 keep-zero
      ConfigMapVolumeSource             defaultMode                      keep-zero
      SecretVolumeSource                defaultMode                      keep-zero
      ProjectedVolumeSource             defaultMode                      keep-zero
      DownwardAPIVolumeSource           defaultMode                      keep-zero
      KeyToPath                         mode                             keep-zero
      DownwardAPIVolumeFile             mode                             keep-zero
      DeleteOptions                     gracePeriodSeconds               keep-zero
      DeleteOptions                     orphanDependents                 keep-zero
      PriorityClass                     value                            keep-zero
      ContainerPort                     containerPort                    keep-zero
      ServicePort                       port                             keep-zero
      ContainerStatus                   ready                            keep-zero
      ContainerStatus                   restartCount                     keep-zero
      ReplicaSetStatus                  replicas                         keep-zero
      StatefulSetStatus                 replicas                         keep-zero
      ReplicationControllerStatus       replicas                         keep-zero
      DaemonSetStatus                   currentNumberScheduled           keep-zero
      DaemonSetStatus                   numberMisscheduled               keep-zero
      DaemonSetStatus                   desiredNumberScheduled           keep-zero
      DaemonSetStatus                   numberReady                      keep-zero
      PodDisruptionBudgetStatus         disruptionsAllowed               keep-zero
      PodDisruptionBudgetStatus         currentHealthy                   keep-zero
      PodDisruptionBudgetStatus         desiredHealthy                   keep-zero
      PodDisruptionBudgetStatus         expectedPods                     keep-zero
      HorizontalPodAutoscalerStatus     currentReplicas                  keep-zero
      HorizontalPodAutoscalerStatus     desiredReplicas                  keep-zero
      """;

  private static final Map<String, Rule> TABLE = parse(RULES);

  private FieldRules() {}

  /**
   * The rule of one field, or {@code null} for a plain field.
   *
   * @param message the simple name of the protobuf message, e.g. {@code DeploymentSpec}
   * @param field the field's name, e.g. {@code replicas}
   */
  static Rule of(String message, String field) {
    return TABLE.get(message + "." + field);
  }

  private static Map<String, Rule> parse(String text) {
    Map<String, Rule> rules = new HashMap<>();
    for (String line : text.strip().split("\n")) {
      String[] cells = line.strip().split("\\s+");
      Rule rule = switch (cells[2]) {
        case "inline" -> Rule.INLINE;
        case "keep-zero" -> Rule.KEEP_ZERO;
        default -> throw new IllegalStateException("unknown rule in FieldRules.RULES: " + line);
      };
      if (rules.put(cells[0] + "." + cells[1], rule) != null) {
        throw new IllegalStateException("two rules for one field in FieldRules.RULES: " + line);
      }
    }
    return Map.copyOf(rules);
  }
}
