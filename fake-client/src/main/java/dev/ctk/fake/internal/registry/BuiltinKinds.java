package dev.ctk.fake.internal.registry;

import static dev.ctk.fake.internal.registry.AdmissionRules.CONFIG_MAP;
import static dev.ctk.fake.internal.registry.AdmissionRules.CRON_JOB;
import static dev.ctk.fake.internal.registry.AdmissionRules.DAEMON_SET;
import static dev.ctk.fake.internal.registry.AdmissionRules.DEPLOYMENT;
import static dev.ctk.fake.internal.registry.AdmissionRules.EVENTS_EVENT;
import static dev.ctk.fake.internal.registry.AdmissionRules.JOB;
import static dev.ctk.fake.internal.registry.AdmissionRules.METADATA_ONLY;
import static dev.ctk.fake.internal.registry.AdmissionRules.NAMESPACE;
import static dev.ctk.fake.internal.registry.AdmissionRules.PATH_SEGMENT_NAMES;
import static dev.ctk.fake.internal.registry.AdmissionRules.PERSISTENT_VOLUME_CLAIM;
import static dev.ctk.fake.internal.registry.AdmissionRules.POD;
import static dev.ctk.fake.internal.registry.AdmissionRules.REPLICA_SET;
import static dev.ctk.fake.internal.registry.AdmissionRules.SECRET;
import static dev.ctk.fake.internal.registry.AdmissionRules.SERVICE;
import static dev.ctk.fake.internal.registry.AdmissionRules.STATEFUL_SET;
import static dev.ctk.fake.internal.registry.GenerationPolicy.NONE;
import static dev.ctk.fake.internal.registry.GenerationPolicy.TRACKED;
import static dev.ctk.fake.internal.registry.GenerationPolicy.TRACKED_WITH_ANNOTATIONS;
import static dev.ctk.fake.internal.registry.NamedSubresource.CONNECT;
import static dev.ctk.fake.internal.registry.NamedSubresource.PROXY;

import dev.ctk.fake.internal.select.FieldLabels;
import dev.ctk.fake.internal.status.GoText;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything the fake knows about each built-in kind, one row a kind, read by every engine that needs it: the
 * registry and discovery (group, version, names, scope, verbs, subresources), the store (generation rule, what a
 * delete answers, the stored form), strategic merge patch and server-side apply (the kind's Go type, the root of
 * the merge keys and list types in {@code PatchSchema} and {@code BuiltinTypes}; the empty object server-side apply
 * starts from), field selectors (the labels, their values and kube's error text) and admission (the defaulting and
 * validation rule set). Read top to bottom like {@code kubectl api-resources}.
 *
 * <p>A row must say, for its kind, the scope, whether it serves {@code /status}, its generation rule, its admission
 * rules and its empty object ({@code {}} when the Go type has no struct or list field); {@link Row#build()} refuses
 * a row that leaves one out. The rest has kube's common default: no {@code /scale}, no other subresource, the
 * standard field labels, every verb, a Status answered to a delete. Generation rules, verbs and delete answers follow each kind's registry
 * strategy in kube-apiserver 1.32 (Deployment bumps on spec and annotation changes; ConfigMap, Pod, Service and
 * Namespace keep no generation; no {@code deletecollection} for Namespaces). {@code events.k8s.io/v1} Events are
 * kept in the {@code core/v1} Event collection, as kube keeps them ({@link EventForms}).
 */
public final class BuiltinKinds {

  /** An empty Pod template as Go serializes it. */
  private static final String TEMPLATE =
      "{\"metadata\":{\"creationTimestamp\":null},\"spec\":{\"containers\":null}}";

  private static final List<ResourceType> TABLE = List.of(
      core("pods", "Pod").namespaced().status().generation(NONE).admission(POD)
          .shortNames("po").categories("all").returnsDeletedObject()
          .zero("{\"spec\":{\"containers\":null},\"status\":{}}")
          .fieldLabels(FieldLabels.converted()
              .label("spec.nodeName", "spec.nodeName", "")
              .label("spec.restartPolicy", "spec.restartPolicy", "")
              .label("spec.schedulerName", "spec.schedulerName", "")
              .label("spec.serviceAccountName", "spec.serviceAccountName", "")
              .label("spec.hostNetwork", "spec.hostNetwork", "false")
              .label("status.phase", "status.phase", "")
              .label("status.podIP", "status.podIPs.0.ip|status.podIP", "")
              .neverSet("status.podIPs")
              .label("status.nominatedNodeName", "status.nominatedNodeName", "")
              .alias("spec.host", "spec.nodeName"))
          .subresources(
              NamedSubresource.of("attach", "PodAttachOptions", CONNECT),
              NamedSubresource.of("binding", "Binding", List.of("create")),
              NamedSubresource.of("ephemeralcontainers", "Pod", List.of("get", "patch", "update")),
              NamedSubresource.of("eviction", "Eviction", List.of("create")).inGroup("policy", "v1"),
              NamedSubresource.of("exec", "PodExecOptions", CONNECT),
              NamedSubresource.of("log", "Pod", List.of("get")),
              NamedSubresource.of("portforward", "PodPortForwardOptions", CONNECT),
              NamedSubresource.of("proxy", "PodProxyOptions", PROXY),
              NamedSubresource.of("resize", "Pod", List.of("get", "patch", "update"))
                  .servedIn(KubeMinor::servesPodResize))
          .build(),
      core("services", "Service").namespaced().status().generation(NONE).admission(SERVICE)
          .shortNames("svc").categories("all").returnsDeletedObject()
          .zero("{\"spec\":{},\"status\":{\"loadBalancer\":{}}}")
          .fieldLabels(FieldLabels.converted()
              .label("spec.clusterIP", "spec.clusterIP", "")
              .label("spec.type", "spec.type", ""))
          .subresources(NamedSubresource.of("proxy", "ServiceProxyOptions", PROXY))
          .build(),
      core("configmaps", "ConfigMap").namespaced().noStatus().generation(NONE).admission(CONFIG_MAP)
          .shortNames("cm")
          .zero("{}")
          .build(),
      core("secrets", "Secret").namespaced().noStatus().generation(NONE).admission(SECRET)
          .fieldLabels(FieldLabels.converted().label("type", "type", ""))
          .zero("{}")
          .build(),
      core("namespaces", "Namespace").cluster().status().generation(NONE).admission(NAMESPACE)
          .shortNames("ns").returnsDeletedObject().noDeleteCollection()
          .zero("{\"spec\":{},\"status\":{}}")
          .fieldLabels(FieldLabels.converted().withoutNamespace().label("status.phase", "status.phase", ""))
          .subresources(NamedSubresource.of("finalize", "Namespace", List.of("update")))
          .build(),
      core("nodes", "Node").cluster().status().generation(NONE).admission(METADATA_ONLY)
          .shortNames("no")
          .zero("{\"spec\":{},\"status\":{\"daemonEndpoints\":{\"kubeletEndpoint\":{\"Port\":0}},\"nodeInfo\":{}}}")
          .fieldLabels(FieldLabels.converted().withoutNamespace()
              .label("spec.unschedulable", "spec.unschedulable", "false"))
          .subresources(NamedSubresource.of("proxy", "NodeProxyOptions", PROXY))
          .build(),
      core("serviceaccounts", "ServiceAccount").namespaced().noStatus().generation(NONE).admission(METADATA_ONLY)
          .shortNames("sa").returnsDeletedObject()
          .subresources(NamedSubresource.of("token", "TokenRequest", List.of("create"))
              .inGroup("authentication.k8s.io", "v1"))
          .zero("{}")
          .build(),
      core("endpoints", "Endpoints").namespaced().noStatus().generation(NONE).admission(METADATA_ONLY)
          .shortNames("ep")
          .zero("{}")
          .build(),
      core("events", "Event").namespaced().noStatus().generation(NONE).admission(METADATA_ONLY)
          .shortNames("ev")
          .zero("{\"involvedObject\":{},\"source\":{},\"firstTimestamp\":null,\"lastTimestamp\":null,"
              + "\"eventTime\":null}")
          .fieldLabels(FieldLabels.converted()
              .label("involvedObject.kind", "involvedObject.kind", "")
              .label("involvedObject.namespace", "involvedObject.namespace", "")
              .label("involvedObject.name", "involvedObject.name", "")
              .label("involvedObject.uid", "involvedObject.uid", "")
              .label("involvedObject.apiVersion", "involvedObject.apiVersion", "")
              .label("involvedObject.resourceVersion", "involvedObject.resourceVersion", "")
              .label("involvedObject.fieldPath", "involvedObject.fieldPath", "")
              .label("reason", "reason", "")
              .label("reportingComponent", "reportingComponent", "")
              .label("source", "source.component|reportingComponent", "")
              .label("type", "type", ""))
          .storedAs(EventForms.CORE)
          .build(),
      core("persistentvolumeclaims", "PersistentVolumeClaim").namespaced().status().generation(NONE)
          .admission(PERSISTENT_VOLUME_CLAIM)
          .shortNames("pvc").returnsDeletedObject()
          .zero("{\"spec\":{\"resources\":{}},\"status\":{}}")
          .build(),
      core("persistentvolumes", "PersistentVolume").cluster().status().generation(NONE).admission(METADATA_ONLY)
          .shortNames("pv").returnsDeletedObject()
          .zero("{\"spec\":{},\"status\":{}}")
          .build(),
      core("limitranges", "LimitRange").namespaced().noStatus().generation(NONE).admission(METADATA_ONLY)
          .shortNames("limits")
          .zero("{\"spec\":{\"limits\":null}}")
          .build(),
      core("resourcequotas", "ResourceQuota").namespaced().status().generation(NONE).admission(METADATA_ONLY)
          .shortNames("quota").returnsDeletedObject()
          .zero("{\"spec\":{},\"status\":{}}")
          .build(),
      core("replicationcontrollers", "ReplicationController").namespaced().status().generation(TRACKED)
          .admission(METADATA_ONLY)
          .shortNames("rc").categories("all").scale(ScalePaths.WORKLOADS)
          .zero("{\"spec\":{},\"status\":{\"replicas\":0}}")
          .fieldLabels(FieldLabels.converted().label("status.replicas", "status.replicas", "0"))
          .build(),
      kind("apps", "v1", "deployments", "Deployment").namespaced().status().generation(TRACKED_WITH_ANNOTATIONS)
          .admission(DEPLOYMENT)
          .shortNames("deploy").categories("all").scale(ScalePaths.WORKLOADS)
          .zero("{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + ",\"strategy\":{}},\"status\":{}}")
          .build(),
      kind("apps", "v1", "replicasets", "ReplicaSet").namespaced().status().generation(TRACKED)
          .admission(REPLICA_SET)
          .shortNames("rs").categories("all").scale(ScalePaths.WORKLOADS)
          .zero("{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + "},\"status\":{\"replicas\":0}}")
          .build(),
      kind("apps", "v1", "statefulsets", "StatefulSet").namespaced().status().generation(TRACKED)
          .admission(STATEFUL_SET)
          .shortNames("sts").categories("all").scale(ScalePaths.WORKLOADS)
          .zero("{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + ",\"updateStrategy\":{}},"
              + "\"status\":{\"replicas\":0,\"availableReplicas\":0}}")
          .build(),
      kind("apps", "v1", "daemonsets", "DaemonSet").namespaced().status().generation(TRACKED).admission(DAEMON_SET)
          .shortNames("ds").categories("all")
          .zero("{\"spec\":{\"selector\":null,\"template\":" + TEMPLATE + ",\"updateStrategy\":{}},"
              + "\"status\":{\"currentNumberScheduled\":0,\"numberMisscheduled\":0,\"desiredNumberScheduled\":0,"
              + "\"numberReady\":0}}")
          .build(),
      kind("apps", "v1", "controllerrevisions", "ControllerRevision").namespaced().noStatus().generation(NONE)
          .admission(METADATA_ONLY)
          .zero("{\"data\":null}")
          .build(),
      kind("batch", "v1", "jobs", "Job").namespaced().status().generation(TRACKED).admission(JOB)
          .categories("all")
          .zero("{\"spec\":{\"template\":" + TEMPLATE + "},\"status\":{}}")
          .fieldLabels(FieldLabels.converted()
              .label("status.successful", "status.succeeded", "0")
              .rejecting(label -> "field label " + GoText.quote(label) + " not supported for Job"))
          .build(),
      kind("batch", "v1", "cronjobs", "CronJob").namespaced().status().generation(TRACKED).admission(CRON_JOB)
          .shortNames("cj").categories("all")
          .zero("{\"spec\":{\"jobTemplate\":{\"metadata\":{\"creationTimestamp\":null},\"spec\":{\"template\":"
              + TEMPLATE + "}}},\"status\":{}}")
          .build(),
      kind("networking.k8s.io", "v1", "ingresses", "Ingress").namespaced().status().generation(TRACKED)
          .admission(METADATA_ONLY)
          .shortNames("ing")
          .zero("{\"spec\":{},\"status\":{\"loadBalancer\":{}}}")
          .build(),
      kind("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy").namespaced().noStatus()
          .generation(TRACKED).admission(METADATA_ONLY)
          .shortNames("netpol")
          .zero("{\"spec\":{\"podSelector\":{}}}")
          .build(),
      kind("networking.k8s.io", "v1", "ingressclasses", "IngressClass").cluster().noStatus().generation(TRACKED)
          .admission(METADATA_ONLY)
          .zero("{}")
          .build(),
      kind("rbac.authorization.k8s.io", "v1", "roles", "Role").namespaced().noStatus().generation(NONE)
          .admission(PATH_SEGMENT_NAMES)
          .zero("{\"rules\":null}")
          .build(),
      kind("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding").namespaced().noStatus()
          .generation(NONE).admission(PATH_SEGMENT_NAMES)
          .zero("{\"roleRef\":{}}")
          .build(),
      kind("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole").cluster().noStatus().generation(NONE)
          .admission(PATH_SEGMENT_NAMES)
          .zero("{\"rules\":null}")
          .build(),
      kind("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding").cluster().noStatus()
          .generation(NONE).admission(PATH_SEGMENT_NAMES)
          .zero("{\"roleRef\":{}}")
          .build(),
      kind("apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition").cluster()
          .status().generation(TRACKED).admission(METADATA_ONLY)
          .shortNames("crd", "crds")
          .zero("{}")
          .build(),
      kind("coordination.k8s.io", "v1", "leases", "Lease").namespaced().noStatus().generation(NONE)
          .admission(METADATA_ONLY)
          .zero("{\"spec\":{}}")
          .build(),
      kind("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget").namespaced().status().generation(TRACKED)
          .admission(METADATA_ONLY)
          .shortNames("pdb")
          .zero("{\"spec\":{},\"status\":{\"disruptionsAllowed\":0,\"currentHealthy\":0,\"desiredHealthy\":0,"
              + "\"expectedPods\":0}}")
          .build(),
      kind("discovery.k8s.io", "v1", "endpointslices", "EndpointSlice").namespaced().noStatus().generation(NONE)
          .admission(METADATA_ONLY)
          .zero("{}")
          .build(),
      kind("events.k8s.io", "v1", "events", "Event").namespaced().noStatus().generation(NONE).admission(EVENTS_EVENT)
          .shortNames("ev")
          .storedAs(EventForms.EVENTS_V1)
          .zero("{}")
          .build(),
      kind("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler").namespaced().status()
          .generation(NONE).admission(METADATA_ONLY)
          .shortNames("hpa").categories("all")
          .zero("{\"spec\":{\"scaleTargetRef\":{}},\"status\":{}}")
          .build(),
      kind("storage.k8s.io", "v1", "storageclasses", "StorageClass").cluster().noStatus().generation(NONE)
          .admission(METADATA_ONLY)
          .shortNames("sc").returnsDeletedObject()
          .zero("{}")
          .build());

  private BuiltinKinds() {}

  /**
   * Every built-in resource, in table order.
   *
   * @return the rows
   */
  public static List<ResourceType> all() {
    return TABLE;
  }

  static Row core(String plural, String kind) {
    return new Row("", "v1", plural, kind);
  }

  static Row kind(String group, String version, String plural, String kind) {
    return new Row(group, version, plural, kind);
  }

  /**
   * One kind's row. The kind's Go type is its name in every built-in group; the singular name is the kind in lower
   * case.
   */
  static final class Row {
    private final ResourceType.Builder builder;
    private final String kind;
    private final List<String> undeclared = new ArrayList<>(List.of("scope", "status", "generation", "admission",
        "zero object"));

    Row(String group, String version, String plural, String kind) {
      this.kind = group.isEmpty() ? kind : group + "/" + kind;
      this.builder = ResourceType.builder(group, version, plural, kind).goType(kind);
    }

    private Row declared(String column) {
      undeclared.remove(column);
      return this;
    }

    Row namespaced() {
      builder.namespaced(true);
      return declared("scope");
    }

    Row cluster() {
      builder.namespaced(false);
      return declared("scope");
    }

    Row status() {
      builder.statusSubresource(true);
      return declared("status");
    }

    Row noStatus() {
      builder.statusSubresource(false);
      return declared("status");
    }

    Row generation(GenerationPolicy policy) {
      builder.generationPolicy(policy);
      return declared("generation");
    }

    Row admission(AdmissionRules rules) {
      builder.admissionRules(rules);
      return declared("admission");
    }

    Row scale(ScalePaths paths) {
      builder.scaleSubresource(paths);
      return this;
    }

    Row shortNames(String... names) {
      builder.shortNames(List.of(names));
      return this;
    }

    Row categories(String... names) {
      builder.categories(List.of(names));
      return this;
    }

    Row returnsDeletedObject() {
      builder.returnsDeletedObject(true);
      return this;
    }

    Row noDeleteCollection() {
      builder.deleteCollection(false);
      return this;
    }

    Row zero(String json) {
      builder.zeroObject(json);
      return declared("zero object");
    }

    Row fieldLabels(FieldLabels labels) {
      builder.fieldLabels(labels);
      return this;
    }

    Row subresources(NamedSubresource... subresources) {
      builder.namedSubresources(List.of(subresources));
      return this;
    }

    Row storedAs(StoredForm form) {
      builder.storedAs(form);
      return this;
    }

    ResourceType build() {
      if (!undeclared.isEmpty()) {
        throw new IllegalStateException("the row of " + kind + " in BuiltinKinds does not declare its "
            + String.join(", ", undeclared) + ": every row says its scope, status, generation, admission and zero object");
      }
      return builder.build();
    }
  }
}
