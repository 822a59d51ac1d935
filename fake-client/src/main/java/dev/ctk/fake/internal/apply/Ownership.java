package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.ctk.fake.internal.apply.ManagedFields.Entry;
import dev.ctk.fake.internal.apply.ManagedFields.EntryKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who owns which field after a write, with kube's rules (structured-merge-diff's updater and the field manager
 * layers around it).
 *
 * <ul>
 *   <li>An update (create, update, patch) owns what it added or changed; every other manager loses those fields and
 *       the ones the update removed. An object without managedFields is not tracked by updates (kube starts
 *       tracking at create, or at the first apply).
 *   <li>An apply merges the configuration into the live object, owns exactly the fields of the configuration, and
 *       removes the fields it applied last time and omits now, unless another manager owns them. Changing a field
 *       another manager owns is a conflict unless {@code force}, which takes the field over.
 *   <li>The first apply to an object without managedFields records its existing fields under
 *       {@code before-first-apply}.
 *   <li>Sets never hold {@code apiVersion}, {@code kind}, or the server-set metadata; at most ten updaters are kept,
 *       the oldest merged into {@code ancient-changes}.
 * </ul>
 */
final class Ownership {

  /** The fields kube strips from every manager's set. */
  private static final FieldSet SERVER_SET = FieldSet.of(List.of(
      path("apiVersion"), path("kind"), path("metadata"), path("metadata", "name"),
      path("metadata", "namespace"), path("metadata", "creationTimestamp"), path("metadata", "selfLink"),
      path("metadata", "uid"), path("metadata", "clusterName"), path("metadata", "generation"),
      path("metadata", "managedFields"), path("metadata", "resourceVersion")));

  private static final EntryKey CURRENT_OPERATION = EntryKey.updater("current-operation", "", "");
  private static final int MAX_UPDATERS = 10;
  static final String BEFORE_FIRST_APPLY = "before-first-apply";
  static final String ANCIENT_CHANGES = "ancient-changes";

  private final FieldType type;
  private final IgnoredFields ignored;
  private final String apiVersion;

  /**
   * @param type the type of the whole object
   * @param ignored fields the endpoint cannot change
   * @param apiVersion the apiVersion of the request
   */
  Ownership(FieldType type, IgnoredFields ignored, String apiVersion) {
    this.type = type;
    this.ignored = ignored;
    this.apiVersion = apiVersion;
  }

  /** The result of an apply: the object to write and the new managers. */
  record Applied(JsonNode object, ManagedFields managers) {
  }

  /**
   * Records an update by {@code updater} (or by nobody, {@code null}: fields it changes are owned by no one).
   *
   * @param live the object before ({@link ZeroObjects} for a create)
   * @param next the object after
   * @param managers the managers before (modified)
   * @param creating whether the update creates the object (tracking starts there)
   * @return the managers after
   */
  ManagedFields update(JsonNode live, JsonNode next, ManagedFields managers, EntryKey updater, boolean creating,
      String now) {
    if (managers.isEmpty() && !creating) {
      return managers;
    }
    Comparison changes = Comparison.of(live, next, type).filtered(ignored);
    FieldSet changed = changes.changed();
    if (!managers.isEmpty()) {
      reassign(changes, changed, managers, CURRENT_OPERATION, true);
    }
    FieldSet owned = changed.difference(SERVER_SET);
    if (updater != null && !owned.isEmpty()) {
      Entry previous = managers.entries().get(updater);
      FieldSet all = previous == null ? owned : owned.union(previous.fields());
      managers.entries().put(updater, new Entry(apiVersion, now, all));
    }
    capUpdaters(managers);
    return managers;
  }

  /**
   * Applies a configuration (kube's field manager: before-first-apply, merge, prune, conflicts).
   *
   * @param live the live object ({@code {}} when the apply creates it); read only: it shares its nodes with the stored
   *     version, and the result shares none with it
   * @param managers the live managers (not modified)
   * @throws ApplyConflicts when fields other managers own would change and {@code force} is off
   * @throws ApplyMerge.InvalidConfig when the configuration's lists cannot be merged
   */
  Applied apply(JsonNode live, JsonNode config, ManagedFields managers, EntryKey applier, boolean force,
      String now, JsonNode zero) throws ApplyConflicts, ApplyMerge.InvalidConfig {
    ManagedFields working = managers.copy();
    if (working.isEmpty()) {
      EntryKey before = EntryKey.updater(BEFORE_FIRST_APPLY, apiVersion, applier.subresource());
      update(zero, live, working, before, true, now);
    }
    JsonNode merged = ApplyMerge.merge(live, config, type);
    Entry last = working.entries().get(applier);
    FieldSet applied = ignored.filter(FieldSets.of(config, type));
    working.entries().put(applier, new Entry(apiVersion, now, applied));
    JsonNode pruned = last == null ? merged : prune(merged, working, last.fields());
    Comparison changes = Comparison.of(live, pruned, type).filtered(ignored);
    Map<EntryKey, FieldSet> conflicts = reassign(changes, changes.changed(), working, applier, force);
    if (!conflicts.isEmpty()) {
      throw ApplyConflicts.of(conflicts);
    }
    Entry mine = working.entries().get(applier);
    if (mine != null) {
      FieldSet stripped = mine.fields().difference(SERVER_SET);
      // kube stamps the applier's time only when the apply changed the object; otherwise its entry keeps the time
      // it had, or has none (a second applier of the same values)
      String time = JsonValues.equal(pruned, live) ? (last == null ? null : last.time()) : now;
      if (stripped.isEmpty()) {
        working.entries().remove(applier);
      } else {
        working.entries().put(applier, new Entry(apiVersion, time, stripped));
      }
    }
    return new Applied(pruned, working);
  }

  /**
   * kube's {@code update}: every manager but {@code actor} loses the fields the change removed and, when it owns a
   * field the change added or modified ({@code changed}, the comparison's), either loses it ({@code force}) or the
   * change is refused.
   *
   * @return the conflicts when the change is refused (nothing changed then); empty when it went through
   */
  private static Map<EntryKey, FieldSet> reassign(Comparison changes, FieldSet changed, ManagedFields managers,
      EntryKey actor, boolean force) {
    Map<EntryKey, FieldSet> conflicts = new LinkedHashMap<>();
    for (Map.Entry<EntryKey, Entry> e : managers.entries().entrySet()) {
      if (e.getKey().equals(actor)) {
        continue;
      }
      FieldSet conflict = e.getValue().fields().intersection(changed);
      if (!conflict.isEmpty()) {
        conflicts.put(e.getKey(), conflict);
      }
    }
    if (!force && !conflicts.isEmpty()) {
      return conflicts;
    }
    List<EntryKey> empty = new ArrayList<>();
    for (Map.Entry<EntryKey, Entry> e : managers.entries().entrySet()) {
      FieldSet rest = e.getValue().fields();
      if (!e.getKey().equals(actor)) {
        FieldSet conflict = conflicts.get(e.getKey());
        if (conflict != null) {
          rest = rest.difference(conflict);
        }
        rest = rest.difference(changes.removed());
        e.setValue(e.getValue().withFields(rest));
      }
      if (rest.isEmpty()) {
        empty.add(e.getKey());
      }
    }
    empty.forEach(managers.entries()::remove);
    return Map.of();
  }

  /**
   * Removes what the applier applied last time and omits now, unless some manager (the applier's new set included)
   * owns it; fields nobody owns that the removal took along are put back (kube's prune, add back owned and add back
   * dangling items).
   */
  private JsonNode prune(JsonNode merged, ManagedFields managers, FieldSet lastApplied) {
    if (lastApplied.isEmpty()) {
      return merged;
    }
    FieldSet last = lastApplied.withNamedFieldsAsMembers(type);
    JsonNode pruned = orEmpty(FieldSets.remove(merged, last, type));
    FieldSet owned = new FieldSet();
    for (Entry e : managers.entries().values()) {
      owned = owned.union(e.fields());
    }
    FieldSet mergedSet = FieldSets.of(merged, type).withNamedFieldsAsMembers(type);
    FieldSet prunedSet = FieldSets.of(pruned, type).withNamedFieldsAsMembers(type);
    FieldSet keep = prunedSet.union(owned.withNamedFieldsAsMembers(type));
    pruned = orEmpty(FieldSets.remove(merged, mergedSet.difference(keep), type));
    prunedSet = FieldSets.of(pruned, type).withNamedFieldsAsMembers(type);
    return orEmpty(FieldSets.remove(merged, mergedSet.difference(prunedSet).intersection(last), type));
  }

  private static JsonNode orEmpty(JsonNode node) {
    return node == null ? JsonNodeFactory.instance.objectNode() : node;
  }

  /** Keeps at most ten updaters: the oldest are merged, per apiVersion, into an {@code ancient-changes} entry. */
  private static void capUpdaters(ManagedFields managers) {
    List<EntryKey> updaters = new ArrayList<>();
    for (EntryKey m : managers.entries().keySet()) {
      if (!m.applied()) {
        updaters.add(m);
      }
    }
    if (updaters.size() <= MAX_UPDATERS) {
      return;
    }
    updaters.sort(Comparator
        .comparingLong((EntryKey m) -> ManagedFields.seconds(managers.entries().get(m).time()))
        .thenComparing(EntryKey::identity));
    Map<String, EntryKey> firstOfVersion = new LinkedHashMap<>();
    int count = updaters.size();
    for (int i = 0; i < updaters.size() && count > MAX_UPDATERS; i++) {
      EntryKey manager = updaters.get(i);
      Entry entry = managers.entries().get(manager);
      String version = entry.apiVersion();
      EntryKey bucket = EntryKey.updater(ANCIENT_CHANGES, version, "");
      EntryKey first = firstOfVersion.get(version);
      if (first == null) {
        firstOfVersion.put(version, manager);
        continue;
      }
      if (!managers.entries().containsKey(bucket)) {
        managers.entries().put(bucket, managers.entries().remove(first));
      }
      Entry merged = managers.entries().get(bucket);
      managers.entries().put(bucket, new Entry(version, entry.time(), entry.fields().union(merged.fields())));
      managers.entries().remove(manager);
      count--;
    }
  }

  private static List<PathElement> path(String... fields) {
    List<PathElement> out = new ArrayList<>();
    for (String f : fields) {
      out.add(PathElement.field(f));
    }
    return out;
  }
}
