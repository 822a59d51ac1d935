package dev.ctk.fake.internal.patch;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Strategic-merge metadata of one Go type of the Kubernetes API, path-aware: {@link #child(String)}
 * walks from a kind's root type into the types of its fields, so {@code ports} merges on
 * {@code containerPort} under a container but on {@code port} under a Service spec.
 *
 * <p>The metadata is the {@code patchStrategy} / {@code patchMergeKey} struct tags of
 * {@code k8s.io/api} (core/v1, apps/v1, batch/v1) and {@code ObjectMeta}, transcribed in
 * {@link #FIELDS}. A field the table does not list has no strategy: its lists are replaced and its
 * maps merged, which is what kube does for every untagged field.
 *
 * <pre>{@code
 * PatchSchema deployment = PatchSchema.forType("Deployment");
 * PatchSchema container = deployment.child("spec").child("template").child("spec").child("containers");
 * container.mergeKey("ports");   // "containerPort"
 * }</pre>
 *
 * @since 0.1.0
 */
public final class PatchSchema {

  /**
   * The struct tags, one field a line: the Go type, the JSON field, its {@code patchStrategy}
   * ({@code -} for none), its {@code patchMergeKey} ({@code -} for none, which for a {@code merge}
   * list means a list of primitives merged as a set) and the type of the field's value or of its
   * list elements ({@code -} when nothing below it has a strategy). A kind's root type (the Go type its
   * row in {@code BuiltinKinds} names) also gets {@code metadata ObjectMeta}.
   */
  static final String FIELDS = """
      ObjectMeta                 finalizers                 merge             -              -
      ObjectMeta                 ownerReferences            merge             uid            -
      PodTemplateSpec            metadata                   -                 -              ObjectMeta
      PodTemplateSpec            spec                       -                 -              PodSpec
      PodSpec                    volumes                    merge,retainKeys  name           -
      PodSpec                    initContainers             merge             name           Container
      PodSpec                    containers                 merge             name           Container
      PodSpec                    ephemeralContainers        merge             name           Container
      PodSpec                    imagePullSecrets           merge             name           -
      PodSpec                    hostAliases                merge             ip             -
      PodSpec                    topologySpreadConstraints  merge             topologyKey    -
      PodSpec                    schedulingGates            merge             name           -
      PodSpec                    resourceClaims             merge,retainKeys  name           -
      Container                  ports                      merge             containerPort  -
      Container                  env                        merge             name           -
      Container                  volumeMounts               merge             mountPath      -
      Container                  volumeDevices              merge             devicePath     -
      PodStatus                  conditions                 merge             type           -
      PodStatus                  hostIPs                    merge             ip             -
      PodStatus                  podIPs                     merge             ip             -
      PodStatus                  resourceClaimStatuses      merge,retainKeys  name           -
      Pod                        spec                       -                 -              PodSpec
      Pod                        status                     -                 -              PodStatus
      ReplicationController      spec                       -                 -              ReplicationControllerSpec
      ReplicationController      status                     -                 -              ReplicationControllerStatus
      ReplicationControllerSpec  template                   -                 -              PodTemplateSpec
      ReplicationControllerStatus conditions                merge             type           -
      Service                    spec                       -                 -              ServiceSpec
      Service                    status                     -                 -              ServiceStatus
      ServiceSpec                ports                      merge             port           -
      ServiceStatus              conditions                 merge             type           -
      ServiceAccount             secrets                    merge             name           -
      Node                       spec                       -                 -              NodeSpec
      Node                       status                     -                 -              NodeStatus
      NodeSpec                   podCIDRs                   merge             -              -
      NodeStatus                 conditions                 merge             type           -
      NodeStatus                 addresses                  merge             type           -
      Namespace                  status                     -                 -              NamespaceStatus
      NamespaceStatus            conditions                 merge             type           -
      PersistentVolumeClaim      status                     -                 -              PersistentVolumeClaimStatus
      PersistentVolumeClaimStatus conditions                merge             type           -
      Deployment                 spec                       -                 -              DeploymentSpec
      Deployment                 status                     -                 -              DeploymentStatus
      DeploymentSpec             template                   -                 -              PodTemplateSpec
      DeploymentSpec             strategy                   retainKeys        -              -
      DeploymentStatus           conditions                 merge             type           -
      ReplicaSet                 spec                       -                 -              ReplicaSetSpec
      ReplicaSet                 status                     -                 -              ReplicaSetStatus
      ReplicaSetSpec             template                   -                 -              PodTemplateSpec
      ReplicaSetStatus           conditions                 merge             type           -
      StatefulSet                spec                       -                 -              StatefulSetSpec
      StatefulSet                status                     -                 -              StatefulSetStatus
      StatefulSetSpec            template                   -                 -              PodTemplateSpec
      StatefulSetStatus          conditions                 merge             type           -
      DaemonSet                  spec                       -                 -              DaemonSetSpec
      DaemonSet                  status                     -                 -              DaemonSetStatus
      DaemonSetSpec              template                   -                 -              PodTemplateSpec
      DaemonSetStatus            conditions                 merge             type           -
      Job                        spec                       -                 -              JobSpec
      Job                        status                     -                 -              JobStatus
      JobSpec                    template                   -                 -              PodTemplateSpec
      JobStatus                  conditions                 merge             type           -
      CronJob                    spec                       -                 -              CronJobSpec
      CronJobSpec                jobTemplate                -                 -              JobTemplateSpec
      JobTemplateSpec            metadata                   -                 -              ObjectMeta
      JobTemplateSpec            spec                       -                 -              JobSpec
      PodDisruptionBudget        spec                       -                 -              PodDisruptionBudgetSpec
      PodDisruptionBudget        status                     -                 -              PodDisruptionBudgetStatus
      PodDisruptionBudgetSpec    selector                   replace           -              -
      PodDisruptionBudgetStatus  conditions                 merge             type           -
      HorizontalPodAutoscaler    status                     -                 -              HorizontalPodAutoscalerStatus
      HorizontalPodAutoscalerStatus conditions              merge             type           -
      """;

  /** A field's tags: strategy {@code merge} (lists), {@code replace} (maps) or none. */
  private static final class Field {
    final boolean merge;
    final boolean replace;
    final boolean retainKeys;
    final String mergeKey;
    final String valueType;

    Field(String strategy, String mergeKey, String valueType) {
      this.merge = strategy.contains("merge");
      this.replace = strategy.contains("replace");
      this.retainKeys = strategy.contains("retainKeys");
      this.mergeKey = mergeKey;
      this.valueType = valueType;
    }
  }

  private static final Map<String, Map<String, Field>> TYPES = new HashMap<>();
  private static final Field METADATA = new Field("-", null, "ObjectMeta");

  static {
    for (String line : FIELDS.strip().split("\n")) {
      String[] c = line.trim().split("\\s+");
      TYPES.computeIfAbsent(c[0], t -> new LinkedHashMap<>())
          .put(c[1], new Field(c[2], dash(c[3]), dash(c[4])));
    }
  }

  private static final PatchSchema EMPTY = new PatchSchema(null, false);

  private final String type;
  private final boolean root;

  private PatchSchema(String type, boolean root) {
    this.type = type;
    this.root = root;
  }

  private static String dash(String cell) {
    return cell.equals("-") ? null : cell;
  }

  /**
   * Schema of a built-in kind's objects.
   *
   * @param goType the kind's Go type, from its row in {@code dev.ctk.fake.internal.registry.BuiltinKinds}, e.g.
   *     {@code Deployment}
   * @return the type's schema, with {@code metadata} ({@code finalizers} merge as a set, {@code ownerReferences} by
   *     {@code uid}); a type without rows in {@link #FIELDS} replaces every other list
   */
  public static PatchSchema forType(String goType) {
    return new PatchSchema(goType, true);
  }

  /**
   * A schema that knows nothing: every list is replaced, every map merged.
   *
   * @return the empty schema
   */
  public static PatchSchema empty() {
    return EMPTY;
  }

  /**
   * The Go types {@link #FIELDS} has rows for.
   *
   * @return the type names, e.g. {@code PodSpec}
   */
  public static Set<String> describedTypes() {
    return Collections.unmodifiableSet(TYPES.keySet());
  }

  /**
   * The fields of this type that have tags or a described type below them.
   *
   * @return the field names, {@code metadata} included for a kind's root type
   */
  public Set<String> fields() {
    Set<String> fields = new LinkedHashSet<>();
    if (root) {
      fields.add("metadata");
    }
    fields.addAll(TYPES.getOrDefault(type, Collections.emptyMap()).keySet());
    return fields;
  }

  /**
   * The schema of a field's value, or of its elements when the field is a list.
   *
   * @param field JSON field name
   * @return the child schema; {@link #empty()} for fields without tagged descendants
   */
  public PatchSchema child(String field) {
    Field meta = field(field);
    return meta == null || meta.valueType == null ? EMPTY : new PatchSchema(meta.valueType, false);
  }

  /**
   * Whether the list field merges ({@code patchStrategy:"merge"}) instead of being replaced.
   *
   * @param field JSON field name
   * @return {@code true} for merging lists (by {@link #mergeKey} or, without a key, as a set)
   */
  public boolean mergesList(String field) {
    Field meta = field(field);
    return meta != null && meta.merge;
  }

  /**
   * The merge key of a merging list of objects.
   *
   * @param field JSON field name
   * @return the key, e.g. {@code name}; {@code null} when the list does not merge or holds primitives
   */
  public String mergeKey(String field) {
    Field meta = field(field);
    return meta == null ? null : meta.mergeKey;
  }

  /**
   * Whether the map field is replaced whole ({@code patchStrategy:"replace"}).
   *
   * @param field JSON field name
   * @return {@code true} for atomic maps
   */
  public boolean replacesMap(String field) {
    Field meta = field(field);
    return meta != null && meta.replace;
  }

  /**
   * Whether the field has the {@code retainKeys} strategy (clients such as {@code kubectl apply} send
   * a {@code $retainKeys} directive for it; the directive itself is honoured on any field).
   *
   * @param field JSON field name
   * @return {@code true} for e.g. a Deployment's {@code spec.strategy} or a Pod's {@code volumes}
   */
  public boolean retainsKeys(String field) {
    Field meta = field(field);
    return meta != null && meta.retainKeys;
  }

  /**
   * The Go type name this schema describes, for diagnostics.
   *
   * @return e.g. {@code PodSpec}; {@code ""} for the empty schema
   */
  public String typeName() {
    return type == null ? "" : type;
  }

  private Field field(String name) {
    if (type == null) {
      return null;
    }
    if (root && name.equals("metadata")) {
      return METADATA;
    }
    return TYPES.getOrDefault(type, Collections.emptyMap()).get(name);
  }

  @Override
  public String toString() {
    return "PatchSchema[" + typeName() + "]";
  }
}
