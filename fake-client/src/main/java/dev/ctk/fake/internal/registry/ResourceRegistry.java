package dev.ctk.fake.internal.registry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The resources the fake API server serves: the {@link BuiltinKinds} table plus the kinds registered by
 * CustomResourceDefinitions.
 *
 * <p>Thread-safe: readers see an immutable snapshot; CRD registration replaces it under the registry's monitor.
 */
public final class ResourceRegistry {

  private volatile Snapshot snapshot;

  /** A registry holding the built-in kinds only. */
  public ResourceRegistry() {
    this.snapshot = new Snapshot(BuiltinKinds.all(), Map.of());
  }

  /** The resource served at {@code /apis/{group}/{version}/{plural}} (group {@code ""} for {@code /api/v1}). */
  public Optional<ResourceType> byPath(String group, String version, String plural) {
    return Optional.ofNullable(snapshot.byPath.get(group + "/" + version + "/" + plural));
  }

  /** The resource whose objects have this {@code apiVersion} and {@code kind}. */
  public Optional<ResourceType> byKind(String apiVersion, String kind) {
    return Optional.ofNullable(snapshot.byKind.get(apiVersion + "/" + kind));
  }

  /**
   * The first served resource (in {@link #all()} order) whose objects are stored under {@code storageKey}: the type
   * the store reports its objects with.
   */
  public Optional<ResourceType> byStorageKey(String storageKey) {
    return Optional.ofNullable(snapshot.byStorageKey.get(storageKey));
  }

  /**
   * Orders storage keys as {@link #all()} first serves them (built-ins in table order, then custom resources in
   * registration order); keys not served come last.
   */
  public Comparator<String> storageOrder() {
    Map<String, Integer> order = snapshot.storageOrder;
    return Comparator.comparingInt(key -> order.getOrDefault(key, Integer.MAX_VALUE));
  }

  /** Every served resource, built-ins first in table order, then custom resources in registration order. */
  public List<ResourceType> all() {
    return snapshot.all;
  }

  /** Served API groups (not the core group) and their versions, preferred version first. */
  public Map<String, List<String>> groups() {
    return snapshot.groups;
  }

  /** Resources served in one group/version, in registry order. */
  public List<ResourceType> inGroupVersion(String group, String version) {
    List<ResourceType> out = new ArrayList<>();
    for (ResourceType t : snapshot.all) {
      if (t.group().equals(group) && t.version().equals(version)) {
        out.add(t);
      }
    }
    return out;
  }

  /** The types a CRD registered, by CRD name (empty if none). */
  public List<ResourceType> typesOfCrd(String crdName) {
    return snapshot.crds.getOrDefault(crdName, List.of());
  }

  /**
   * Registers (or replaces) the served versions of a CRD.
   *
   * @param crdName {@code metadata.name} of the CRD
   * @param types one type per served version
   */
  public synchronized void registerCrd(String crdName, List<ResourceType> types) {
    Map<String, List<ResourceType>> crds = new LinkedHashMap<>(snapshot.crds);
    crds.put(crdName, List.copyOf(types));
    snapshot = new Snapshot(BuiltinKinds.all(), crds);
  }

  /** Removes a CRD's kinds; returns the removed types. */
  public synchronized List<ResourceType> unregisterCrd(String crdName) {
    Map<String, List<ResourceType>> crds = new LinkedHashMap<>(snapshot.crds);
    List<ResourceType> removed = crds.remove(crdName);
    snapshot = new Snapshot(BuiltinKinds.all(), crds);
    return removed == null ? List.of() : removed;
  }

  private static final class Snapshot {
    final List<ResourceType> all;
    final Map<String, ResourceType> byPath = new LinkedHashMap<>();
    final Map<String, ResourceType> byKind = new LinkedHashMap<>();
    final Map<String, ResourceType> byStorageKey = new HashMap<>();
    final Map<String, Integer> storageOrder = new HashMap<>();
    final Map<String, List<ResourceType>> crds;
    final Map<String, List<String>> groups;

    Snapshot(List<ResourceType> builtins, Map<String, List<ResourceType>> crds) {
      List<ResourceType> list = new ArrayList<>(builtins);
      crds.values().forEach(list::addAll);
      this.all = List.copyOf(list);
      this.crds = Map.copyOf(crds);
      Map<String, List<String>> g = new LinkedHashMap<>();
      for (ResourceType t : all) {
        byPath.putIfAbsent(t.group() + "/" + t.version() + "/" + t.plural(), t);
        byKind.putIfAbsent(t.apiVersion() + "/" + t.kind(), t);
        if (byStorageKey.putIfAbsent(t.storageKey(), t) == null) {
          storageOrder.put(t.storageKey(), storageOrder.size());
        }
        if (!t.group().isEmpty()) {
          List<String> versions = g.computeIfAbsent(t.group(), k -> new ArrayList<>());
          if (!versions.contains(t.version())) {
            versions.add(t.version());
          }
        }
      }
      g.values().forEach(v -> v.sort(KubeVersionOrder.INSTANCE));
      Map<String, List<String>> frozen = new LinkedHashMap<>();
      g.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
      this.groups = Collections.unmodifiableMap(frozen);
    }
  }
}
