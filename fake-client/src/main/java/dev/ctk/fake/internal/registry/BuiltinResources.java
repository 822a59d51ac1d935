package dev.ctk.fake.internal.registry;

import static dev.ctk.fake.internal.registry.GenerationPolicy.NONE;
import static dev.ctk.fake.internal.registry.GenerationPolicy.TRACKED;
import static dev.ctk.fake.internal.registry.GenerationPolicy.TRACKED_WITH_ANNOTATIONS;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The built-in kinds ctk's fake API server serves, as a table: one row per resource, read top to bottom like
 * {@code kubectl api-resources}.
 *
 * <p>Columns: group, version, plural, singular, kind, scope, status subresource, generation policy, short names,
 * categories. Generation policies follow each kind's registry strategy in kube-apiserver 1.32 (for example
 * Deployment bumps on spec and annotation changes; ConfigMap, Pod, Service and Namespace keep no generation); so do
 * the verbs (no {@code deletecollection} for Namespaces) and what a delete answers. {@code events.k8s.io/v1} Events
 * are kept in the {@code core/v1} Event collection, as kube keeps them ({@link EventForms}).
 */
public final class BuiltinResources {

  private static final boolean NS = true;
  private static final boolean CLUSTER = false;
  private static final boolean STATUS = true;
  private static final boolean NO_STATUS = false;

  /** The kinds serving {@code /scale} with the workload paths (autoscaling/v1 Scale). */
  private static final Set<String> SCALABLE = Set.of("apps/Deployment", "apps/ReplicaSet",
      "apps/StatefulSet", "/ReplicationController");

  /**
   * The kinds whose registry sets {@code ReturnDeletedObject} in kube-apiserver 1.3x: a delete that removes one of
   * them at once answers the object, every other kind a {@code Status} of {@code Success}. (Services joined in 1.23,
   * when their storage moved onto the generic registry; kube 1.20 answers a Status for them.)
   */
  private static final Set<String> RETURN_DELETED_OBJECT = Set.of("/Pod", "/Service", "/ServiceAccount",
      "/PersistentVolume", "/PersistentVolumeClaim", "/ResourceQuota", "/Namespace", "storage.k8s.io/StorageClass");

  /** The kinds kube serves without {@code deletecollection}. */
  private static final Set<String> NO_DELETE_COLLECTION = Set.of("/Namespace");

  private static final List<ResourceType> TABLE = List.of(
      // group, version, plural, singular, kind, scope, status, generation, shortNames, categories
      row("", "v1", "pods", "pod", "Pod", NS, STATUS, NONE, "po", "all"),
      row("", "v1", "services", "service", "Service", NS, STATUS, NONE, "svc", "all"),
      row("", "v1", "configmaps", "configmap", "ConfigMap", NS, NO_STATUS, NONE, "cm", ""),
      row("", "v1", "secrets", "secret", "Secret", NS, NO_STATUS, NONE, "", ""),
      row("", "v1", "namespaces", "namespace", "Namespace", CLUSTER, STATUS, NONE, "ns", ""),
      row("", "v1", "nodes", "node", "Node", CLUSTER, STATUS, NONE, "no", ""),
      row("", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount", NS, NO_STATUS, NONE, "sa", ""),
      row("", "v1", "endpoints", "endpoints", "Endpoints", NS, NO_STATUS, NONE, "ep", ""),
      row("", "v1", "events", "event", "Event", NS, NO_STATUS, NONE, "ev", ""),
      row("", "v1", "persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim", NS, STATUS, NONE,
          "pvc", ""),
      row("", "v1", "persistentvolumes", "persistentvolume", "PersistentVolume", CLUSTER, STATUS, NONE, "pv", ""),
      row("", "v1", "limitranges", "limitrange", "LimitRange", NS, NO_STATUS, NONE, "limits", ""),
      row("", "v1", "resourcequotas", "resourcequota", "ResourceQuota", NS, STATUS, NONE, "quota", ""),
      row("", "v1", "replicationcontrollers", "replicationcontroller", "ReplicationController", NS, STATUS, TRACKED,
          "rc", "all"),
      row("apps", "v1", "deployments", "deployment", "Deployment", NS, STATUS, TRACKED_WITH_ANNOTATIONS, "deploy",
          "all"),
      row("apps", "v1", "replicasets", "replicaset", "ReplicaSet", NS, STATUS, TRACKED, "rs", "all"),
      row("apps", "v1", "statefulsets", "statefulset", "StatefulSet", NS, STATUS, TRACKED, "sts", "all"),
      row("apps", "v1", "daemonsets", "daemonset", "DaemonSet", NS, STATUS, TRACKED, "ds", "all"),
      row("apps", "v1", "controllerrevisions", "controllerrevision", "ControllerRevision", NS, NO_STATUS, NONE, "",
          ""),
      row("batch", "v1", "jobs", "job", "Job", NS, STATUS, TRACKED, "", "all"),
      row("batch", "v1", "cronjobs", "cronjob", "CronJob", NS, STATUS, TRACKED, "cj", "all"),
      row("networking.k8s.io", "v1", "ingresses", "ingress", "Ingress", NS, STATUS, TRACKED, "ing", ""),
      row("networking.k8s.io", "v1", "networkpolicies", "networkpolicy", "NetworkPolicy", NS, NO_STATUS, TRACKED,
          "netpol", ""),
      row("networking.k8s.io", "v1", "ingressclasses", "ingressclass", "IngressClass", CLUSTER, NO_STATUS, TRACKED,
          "", ""),
      row("rbac.authorization.k8s.io", "v1", "roles", "role", "Role", NS, NO_STATUS, NONE, "", ""),
      row("rbac.authorization.k8s.io", "v1", "rolebindings", "rolebinding", "RoleBinding", NS, NO_STATUS, NONE, "",
          ""),
      row("rbac.authorization.k8s.io", "v1", "clusterroles", "clusterrole", "ClusterRole", CLUSTER, NO_STATUS, NONE,
          "", ""),
      row("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding",
          CLUSTER, NO_STATUS, NONE, "", ""),
      row("apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition",
          "CustomResourceDefinition", CLUSTER, STATUS, TRACKED, "crd,crds", ""),
      row("coordination.k8s.io", "v1", "leases", "lease", "Lease", NS, NO_STATUS, NONE, "", ""),
      row("policy", "v1", "poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudget", NS, STATUS, TRACKED,
          "pdb", ""),
      row("discovery.k8s.io", "v1", "endpointslices", "endpointslice", "EndpointSlice", NS, NO_STATUS, NONE, "", ""),
      row("events.k8s.io", "v1", "events", "event", "Event", NS, NO_STATUS, NONE, "ev", ""),
      row("autoscaling", "v2", "horizontalpodautoscalers", "horizontalpodautoscaler", "HorizontalPodAutoscaler", NS,
          STATUS, NONE, "hpa", "all"),
      row("storage.k8s.io", "v1", "storageclasses", "storageclass", "StorageClass", CLUSTER, NO_STATUS, NONE, "sc",
          ""));

  private BuiltinResources() {}

  /** Every built-in resource, in table order. */
  public static List<ResourceType> all() {
    return TABLE;
  }

  private static ResourceType row(String group, String version, String plural, String singular, String kind,
      boolean namespaced, boolean status, GenerationPolicy generation, String shortNames, String categories) {
    return ResourceType.builder(group, version, plural, kind)
        .scaleSubresource(SCALABLE.contains(group + "/" + kind) ? ScalePaths.WORKLOADS : null)
        .singular(singular)
        .namespaced(namespaced)
        .statusSubresource(status)
        .generationPolicy(generation)
        .shortNames(split(shortNames))
        .categories(split(categories))
        .deleteCollection(!NO_DELETE_COLLECTION.contains(group + "/" + kind))
        .returnsDeletedObject(RETURN_DELETED_OBJECT.contains(group + "/" + kind))
        .storedAs(EventForms.of(group, kind))
        .build();
  }

  private static List<String> split(String csv) {
    return csv.isEmpty() ? List.of() : new ArrayList<>(Arrays.asList(csv.split(",")));
  }
}
