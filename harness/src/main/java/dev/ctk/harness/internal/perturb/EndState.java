package dev.ctk.harness.internal.perturb;

import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The objects of a fake cluster at the end of a run, normalized for comparison with another run of the same test:
 * without metadata.uid, resourceVersion, creationTimestamp, generation, managedFields, selfLink and the uids of
 * ownerReferences; a deletionTimestamp only says that it is set. Objects named by generateName (their name starts
 * with their generateName) are matched by kind, namespace, generateName and owners, as multisets, since their names
 * differ from run to run; in every value, and in the generateName and owners they are matched by (a child named
 * after a generated owner), a generated name reads as its generateName followed by {@value #GENERATED}. The
 * comparison also ignores {@link #IGNORED_BY_DEFAULT} (condition times, Service addresses the server allocates) and
 * the fields the user lists. Also finds leaks: an object whose owner (by uid) does not exist, an object being deleted
 * whose finalizers were never removed.
 */
public final class EndState {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  /** What a generated name's random suffix reads as in compared values. */
  public static final String GENERATED = "<generated>";

  /**
   * The fields every end-state comparison ignores, on top of the user's: the times of status conditions ({@code
   * status.conditions[*].lastTransitionTime}, {@code lastUpdateTime}, {@code lastHeartbeatTime}, {@code
   * lastProbeTime}: a perturbation moves the write that sets them) and a Service's server-allocated addresses ({@code
   * Service:spec.clusterIP}, {@code spec.clusterIPs}, {@code spec.ports[*].nodePort}: the lowest free one, so they
   * swap between Services when a perturbation reorders their creates).
   */
  public static final List<FieldPath> IGNORED_BY_DEFAULT = Stream.of("status.conditions[*].lastTransitionTime",
      "status.conditions[*].lastUpdateTime", "status.conditions[*].lastHeartbeatTime",
      "status.conditions[*].lastProbeTime", "Service:spec.clusterIP", "Service:spec.clusterIPs",
      "Service:spec.ports[*].nodePort")
      .map(path -> FieldPath.parse(path, "EndState.IGNORED_BY_DEFAULT", IllegalStateException::new)).toList();

  private static final List<String> DROPPED_METADATA = List.of("uid", "resourceVersion", "creationTimestamp",
      "generation", "managedFields", "selfLink");

  /**
   * One object.
   *
   * @param kind its kind
   * @param apiVersion its apiVersion
   * @param namespace its namespace, or {@code null}
   * @param name its name
   * @param generateName its generateName when it was named by it, else {@code null}
   * @param owners its owners as {@code Kind/name}, sorted, joined by commas
   * @param body the normalized object
   */
  public record Item(String kind, String apiVersion, String namespace, String name, String generateName, String owners,
      Map<String, Object> body) {

    /** {@code ConfigMap default/web}, as reports name objects. */
    public String display() {
      return kind + " " + (namespace == null ? "" : namespace + "/") + name;
    }

    /** The key it is matched by: its name, or its generateName and owners. */
    public String matchKey() {
      return apiVersion + " " + kind + " " + namespace + " "
          + (generateName == null ? "name=" + name : "generateName=" + generateName + " owners=" + owners);
    }
  }

  /**
   * A leak.
   *
   * @param key what stays the same across runs (no uids), to tell a leak of the reference run from a new one
   * @param text one line
   * @param object the object, as {@link Item#display()} names it
   */
  public record Leak(String key, String text, String object) {}

  private final List<Item> items;
  private final List<Leak> leaks;

  private EndState(List<Item> items, List<Leak> leaks) {
    this.items = List.copyOf(items);
    this.leaks = List.copyOf(leaks);
  }

  /** The end state of a fake cluster now: every stored object of every kind. */
  public static EndState capture(FakeCluster cluster) {
    return of(cluster.objects());
  }

  /** The end state of these objects. */
  public static EndState of(List<GenericKubernetesResource> objects) {
    List<Item> items = new ArrayList<>();
    Set<String> uids = new HashSet<>();
    for (GenericKubernetesResource object : objects) {
      if (object.getMetadata() != null && object.getMetadata().getUid() != null) {
        uids.add(object.getMetadata().getUid());
      }
    }
    Map<String, String> generatedNames = new TreeMap<>(Comparator.comparing(String::length).reversed()
        .thenComparing(Comparator.naturalOrder()));
    List<Item> raw = new ArrayList<>();
    for (GenericKubernetesResource object : objects) {
      Item item = normalize(object);
      raw.add(item);
      if (item.generateName() != null) {
        generatedNames.put(item.name(), item.generateName() + GENERATED);
      }
    }
    // generated names first, then what matching reads: a child's generateName and owners may carry them
    List<Leak> leaks = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      Item item = raw.get(i);
      if (!generatedNames.isEmpty()) {
        replaceNames(item.body(), generatedNames);
        item = new Item(item.kind(), item.apiVersion(), item.namespace(), item.name(),
            item.generateName() == null ? null : replaceNames(item.generateName(), generatedNames),
            replaceNames(item.owners(), generatedNames), item.body());
      }
      items.add(item);
      leaks.addAll(leaksOf(objects.get(i), item, uids));
    }
    items.sort(Comparator.comparing(Item::matchKey));
    return new EndState(items, leaks);
  }

  public List<Item> items() {
    return items;
  }

  /** The leaks, in object order. */
  public List<Leak> leaks() {
    return leaks;
  }

  /**
   * Writes every generated name (a random suffix) in the object's values as its generateName followed by {@value
   * #GENERATED}, so that a field naming a generated object ({@code annotations: {child: web-7xk2p}}) compares equal
   * across runs.
   */
  @SuppressWarnings("unchecked")
  private static Object replaceNames(Object node, Map<String, String> generatedNames) {
    if (node instanceof Map<?, ?> map) {
      ((Map<Object, Object>) map).replaceAll((k, v) -> replaceNames(v, generatedNames));
      return map;
    }
    if (node instanceof List<?> list) {
      ((List<Object>) list).replaceAll(v -> replaceNames(v, generatedNames));
      return list;
    }
    if (node instanceof String text) {
      return replaceNames(text, generatedNames);
    }
    return node;
  }

  /** A text with every generated name in it read as its generateName followed by {@value #GENERATED}. */
  private static String replaceNames(String text, Map<String, String> generatedNames) {
    String replaced = text;
    for (Map.Entry<String, String> name : generatedNames.entrySet()) {
      if (replaced.contains(name.getKey())) {
        replaced = replaced.replace(name.getKey(), name.getValue());
      }
    }
    return replaced;
  }

  @SuppressWarnings("unchecked")
  private static Item normalize(GenericKubernetesResource object) {
    Map<String, Object> body = SERIALIZATION.convertValue(object, LinkedHashMap.class);
    ObjectMeta meta = object.getMetadata() == null ? new ObjectMeta() : object.getMetadata();
    Object rawMeta = body.get("metadata");
    if (rawMeta instanceof Map<?, ?> map) {
      Map<String, Object> metadata = (Map<String, Object>) map;
      DROPPED_METADATA.forEach(metadata::remove);
      if (metadata.containsKey("deletionTimestamp")) {
        metadata.put("deletionTimestamp", "(set)");
      }
      if (metadata.get("ownerReferences") instanceof List<?> owners) {
        owners.forEach(owner -> {
          if (owner instanceof Map<?, ?> reference) {
            reference.remove("uid");
          }
        });
      }
    }
    String generateName = meta.getGenerateName();
    String name = meta.getName();
    boolean generated = generateName != null && !generateName.isEmpty() && name != null
        && name.startsWith(generateName);
    if (generated && rawMeta instanceof Map<?, ?> map) {
      map.remove("name");
    }
    String owners = meta.getOwnerReferences() == null ? "" : meta.getOwnerReferences().stream()
        .map(o -> o.getKind() + "/" + o.getName()).sorted().collect(Collectors.joining(","));
    return new Item(object.getKind(), object.getApiVersion(), meta.getNamespace(), name,
        generated ? generateName : null, owners, body);
  }

  private static List<Leak> leaksOf(GenericKubernetesResource object, Item item, Set<String> uids) {
    List<Leak> found = new ArrayList<>();
    ObjectMeta meta = object.getMetadata();
    if (meta == null) {
      return found;
    }
    if (meta.getOwnerReferences() != null) {
      for (OwnerReference owner : meta.getOwnerReferences()) {
        if (owner.getUid() != null && !uids.contains(owner.getUid())) {
          String ownerName = owner.getKind() + " " + owner.getName();
          found.add(new Leak("orphan " + item.matchKey() + " owner " + ownerName,
              item.display() + " is owned by " + ownerName + " (uid " + owner.getUid() + "), which does not exist",
              item.display()));
        }
      }
    }
    if (meta.getDeletionTimestamp() != null && meta.getFinalizers() != null && !meta.getFinalizers().isEmpty()) {
      found.add(new Leak("finalizers " + item.matchKey() + " " + meta.getFinalizers(), item.display()
          + " is being deleted (deletionTimestamp " + meta.getDeletionTimestamp() + ") but its finalizers "
          + meta.getFinalizers() + " were never removed", item.display()));
    }
    return found;
  }

  /**
   * How this (perturbed) end state differs from the reference: {@code missing: ...}, {@code extra: ...} and {@code
   * <object> differs at <path>: reference <a>, perturbed <b>}, in object order.
   *
   * @param reference the reference run's end state
   * @param ignored fields that may differ, beside {@link #IGNORED_BY_DEFAULT}
   * @return one line per difference; empty when they match
   */
  public List<Difference> diff(EndState reference, List<FieldPath> ignored) {
    Map<String, List<Item>> expected = grouped(reference.items, ignored);
    Map<String, List<Item>> actual = grouped(items, ignored);
    Set<String> keys = new java.util.TreeSet<>(expected.keySet());
    keys.addAll(actual.keySet());
    List<Difference> differences = new ArrayList<>();
    for (String key : keys) {
      List<Item> left = new ArrayList<>(expected.getOrDefault(key, List.of()));
      List<Item> right = new ArrayList<>(actual.getOrDefault(key, List.of()));
      // equal pairs match each other, whatever their order (multisets)
      for (var it = left.iterator(); it.hasNext(); ) {
        Item a = it.next();
        for (int j = 0; j < right.size(); j++) {
          if (a.body().equals(right.get(j).body())) {
            right.remove(j);
            it.remove();
            break;
          }
        }
      }
      while (!left.isEmpty() && !right.isEmpty()) {
        Item a = left.remove(0);
        Item b = right.remove(0);
        List<String> paths = new ArrayList<>();
        compare("", a.body(), b.body(), paths);
        for (String line : paths) {
          differences.add(new Difference(b.display() + " differs at " + line, b.display()));
        }
      }
      for (Item a : left) {
        differences.add(new Difference("missing: " + a.display() + generatedNote(a), a.display()));
      }
      for (Item b : right) {
        differences.add(new Difference("extra: " + b.display() + generatedNote(b), b.display()));
      }
    }
    return differences;
  }

  /**
   * One difference.
   *
   * @param text one line
   * @param object the object it is about, as {@link Item#display()} names it
   */
  public record Difference(String text, String object) {}

  private static String generatedNote(Item item) {
    return item.generateName() == null ? "" : " (generateName " + item.generateName() + ")";
  }

  private static Map<String, List<Item>> grouped(List<Item> items, List<FieldPath> ignored) {
    Map<String, List<Item>> groups = new TreeMap<>();
    for (Item item : items) {
      Map<String, Object> body = SERIALIZATION.clone(item.body());
      IGNORED_BY_DEFAULT.forEach(path -> path.removeFrom(item.kind(), body));
      ignored.forEach(path -> path.removeFrom(item.kind(), body));
      groups.computeIfAbsent(item.matchKey(), k -> new ArrayList<>())
          .add(new Item(item.kind(), item.apiVersion(), item.namespace(), item.name(), item.generateName(),
              item.owners(), body));
    }
    return groups;
  }

  private static void compare(String path, Object a, Object b, List<String> out) {
    if (Objects.equals(a, b)) {
      return;
    }
    if (a instanceof Map<?, ?> left && b instanceof Map<?, ?> right) {
      Set<Object> keys = new java.util.LinkedHashSet<>(left.keySet());
      keys.addAll(right.keySet());
      for (Object key : keys) {
        compare(child(path, String.valueOf(key)), left.get(key), right.get(key), out);
      }
      return;
    }
    if (a instanceof List<?> left && b instanceof List<?> right && left.size() == right.size()) {
      for (int i = 0; i < left.size(); i++) {
        compare(path + "[" + i + "]", left.get(i), right.get(i), out);
      }
      return;
    }
    out.add(path + ": reference " + render(a) + ", perturbed " + render(b));
  }

  private static String child(String path, String key) {
    if (key.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      return path.isEmpty() ? key : path + "." + key;
    }
    return path + "[\"" + key + "\"]";
  }

  /**
   * A value as JSON, in one line, whole; {@code (absent)} for none. Never shortened: two long values that differ
   * only after their first characters would read the same, and the difference is the failure.
   */
  public static String render(Object value) {
    if (value == null) {
      return "(absent)";
    }
    return SERIALIZATION.asJson(value).replace("\r", "").replace("\n", " ");
  }
}
