package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.ctk.fake.internal.patch.PatchSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Server-side apply types of the built-in kinds, as kube derives them from its OpenAPI: a list with
 * {@code x-kubernetes-list-type} merges as that type says; otherwise a list whose strategic-merge tags say
 * {@code patchStrategy: merge} is a keyed list on its {@code patchMergeKey} (a set when it has no key); every
 * other list is atomic. The strategic-merge tags come from {@link PatchSchema}; {@link #OVERRIDES} adds what the
 * list types and {@code +structType=atomic} / {@code +mapType=atomic} markers say beyond them.
 *
 * <pre>{@code
 * FieldType deployment = BuiltinTypes.forType("Deployment");
 * deployment.field("spec").field("selector").atomicObject();     // true: LabelSelector is atomic
 * }</pre>
 */
final class BuiltinTypes implements FieldType {

  /**
   * One edge a line: the Go type, the JSON field, its merge relation ({@code atomic}, {@code set},
   * {@code map:key1,key2=default}, {@code -} for none) and the Go type of its value or items ({@code -} when the
   * strategic-merge table already knows it or nothing below it matters).
   */
  static final String OVERRIDES = """
      Container                 ports                     map:containerPort,protocol=TCP       -
      ServiceSpec               ports                     map:port,protocol=TCP                -
      PodSpec                   topologySpreadConstraints map:topologyKey,whenUnsatisfiable    TopologySpreadConstraint
      TopologySpreadConstraint  labelSelector             atomic                               -
      DeploymentSpec            selector                  atomic                               -
      ReplicaSetSpec            selector                  atomic                               -
      StatefulSetSpec           selector                  atomic                               -
      DaemonSetSpec             selector                  atomic                               -
      JobSpec                   selector                  atomic                               -
      ServiceSpec               selector                  atomic                               -
      ReplicationControllerSpec selector                  atomic                               -
      PodDisruptionBudgetSpec   selector                  atomic                               -
      Container                 env                       map:name                             EnvVar
      EnvVar                    valueFrom                 -                                    EnvVarSource
      EnvVarSource              configMapKeyRef           atomic                               -
      EnvVarSource              secretKeyRef              atomic                               -
      EnvVarSource              fieldRef                  atomic                               -
      EnvVarSource              resourceFieldRef          atomic                               -
      PodSpec                   affinity                  -                                    Affinity
      Affinity                  nodeAffinity              -                                    NodeAffinity
      NodeAffinity              requiredDuringSchedulingIgnoredDuringExecution atomic          -
      ObjectMeta                ownerReferences           map:uid                              OwnerReference
      PodSpec                   nodeSelector              atomic                               -
      PodSpec                   imagePullSecrets          map:name                             LocalObjectReference
      Container                 resources                 -                                    ResourceRequirements
      ResourceRequirements      claims                    map:name                             -
      ServiceAccount            secrets                   map:name                             ObjectReference
      RoleBinding               roleRef                   atomic                               -
      ClusterRoleBinding        roleRef                   atomic                               -
      NetworkPolicy             spec                      -                                    NetworkPolicySpec
      NetworkPolicySpec         podSelector               atomic                               -
      PersistentVolumeClaim     spec                      -                                    PersistentVolumeClaimSpec
      PersistentVolumeClaimSpec selector                  atomic                               -
      PersistentVolumeClaimSpec dataSource                atomic                               -
      Ingress                   spec                      -                                    IngressSpec
      IngressSpec               defaultBackend            -                                    IngressBackend
      IngressBackend            service                   -                                    IngressServiceBackend
      IngressServiceBackend     port                      atomic                               -
      """;

  /**
   * Go types marked {@code +structType=atomic} whose values sit in lists the table types ({@link #OVERRIDES}): each
   * item of such a list is owned and replaced whole ({@code k:{"uid":"..."}:{}} in managedFields).
   */
  private static final java.util.Set<String> ATOMIC_STRUCTS =
      java.util.Set.of("OwnerReference", "LocalObjectReference", "ObjectReference");

  /** How one field merges. */
  private record Traits(boolean atomic, ListKind listKind, List<String> keys, Map<String, JsonNode> defaults) {
    static final Traits NONE = new Traits(false, ListKind.ATOMIC, List.of(), Map.of());
  }

  private static final Traits ATOMIC = new Traits(true, ListKind.ATOMIC, List.of(), Map.of());

  private record Edge(Traits traits, String childType) {
  }

  private static final Map<String, Edge> EDGES = new HashMap<>();

  static {
    for (String line : OVERRIDES.strip().split("\n")) {
      String[] c = line.trim().split("\\s+");
      EDGES.put(c[0] + " " + c[1], new Edge(traits(c[2]), c[3].equals("-") ? null : c[3]));
    }
  }

  private static Traits traits(String relation) {
    if (relation.equals("atomic")) {
      return ATOMIC;
    }
    if (relation.equals("set")) {
      return new Traits(false, ListKind.SET, List.of(), Map.of());
    }
    if (relation.startsWith("map:")) {
      List<String> keys = new ArrayList<>();
      Map<String, JsonNode> defaults = new LinkedHashMap<>();
      for (String key : relation.substring(4).split(",")) {
        int eq = key.indexOf('=');
        if (eq < 0) {
          keys.add(key);
        } else {
          keys.add(key.substring(0, eq));
          defaults.put(key.substring(0, eq), TextNode.valueOf(key.substring(eq + 1)));
        }
      }
      return new Traits(false, ListKind.MAP, List.copyOf(keys), Map.copyOf(defaults));
    }
    return Traits.NONE;
  }

  private final PatchSchema schema;
  private final String goType;
  private final Traits traits;

  private BuiltinTypes(PatchSchema schema, String goType, Traits traits) {
    this.schema = schema;
    this.goType = goType;
    this.traits = traits;
  }

  /**
   * The type of a whole object of a built-in kind.
   *
   * @param goType the kind's Go type, from its row in {@code BuiltinKinds}
   */
  static FieldType forType(String goType) {
    return new BuiltinTypes(PatchSchema.forType(goType), goType, Traits.NONE);
  }

  /** The type of {@code ObjectMeta}, which custom resources share with the built-in kinds. */
  static FieldType objectMeta() {
    return forType("ConfigMap").field("metadata");
  }

  /**
   * The Go types {@link #OVERRIDES} has rows for.
   *
   * @return the type names
   */
  static java.util.Set<String> overriddenTypes() {
    java.util.Set<String> types = new java.util.LinkedHashSet<>();
    EDGES.keySet().forEach(edge -> types.add(edge.substring(0, edge.indexOf(' '))));
    return types;
  }

  @Override
  public boolean atomicObject() {
    return traits.atomic();
  }

  @Override
  public ListKind listKind() {
    return traits.listKind();
  }

  @Override
  public List<String> listKeys() {
    return traits.keys();
  }

  @Override
  public JsonNode keyDefault(String key) {
    return traits.defaults().get(key);
  }

  /** Built-in objects are treated as structs: every key is a declared field (free-form maps hold scalars). */
  @Override
  public boolean declares(String name) {
    return true;
  }

  @Override
  public FieldType field(String name) {
    Edge edge = EDGES.get(goType + " " + name);
    PatchSchema child = schema.child(name);
    String childType = edge != null && edge.childType() != null ? edge.childType() : child.typeName();
    Traits childTraits;
    if (edge != null) {
      childTraits = edge.traits();
    } else if (schema.mergesList(name)) {
      String key = schema.mergeKey(name);
      childTraits = key == null ? new Traits(false, ListKind.SET, List.of(), Map.of())
          : new Traits(false, ListKind.MAP, List.of(key), Map.of());
    } else {
      childTraits = Traits.NONE;
    }
    return new BuiltinTypes(child, childType, childTraits);
  }

  @Override
  public FieldType element() {
    return new BuiltinTypes(schema, goType, ATOMIC_STRUCTS.contains(goType) ? ATOMIC : Traits.NONE);
  }

  @Override
  public String toString() {
    return "builtin " + (goType.isEmpty() ? "?" : goType);
  }
}
