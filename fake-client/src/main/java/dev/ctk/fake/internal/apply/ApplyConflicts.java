package dev.ctk.fake.internal.apply;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.ApiError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An apply that would change fields other managers own, without {@code force=true}: kube's 409 Conflict with one
 * {@code FieldManagerConflict} cause per field, e.g. {@code Apply failed with 1 conflict: conflict with
 * "kubectl-client-side-apply" using apps/v1: .spec.replicas}.
 */
final class ApplyConflicts extends Exception {

  private static final long serialVersionUID = 1L;

  /** One conflicting field: who owns it and its path. */
  record Conflict(ManagedFields.EntryKey manager, List<PathElement> path) {
  }

  private final transient List<Conflict> conflicts;

  ApplyConflicts(List<Conflict> conflicts) {
    super(conflicts.size() + " conflicts");
    this.conflicts = List.copyOf(conflicts);
  }

  /** The conflicts of several managers: managers in kube's order (by identifier), each manager's fields in set order. */
  static ApplyConflicts of(Map<ManagedFields.EntryKey, FieldSet> byManager) {
    TreeMap<String, ManagedFields.EntryKey> ordered = new TreeMap<>();
    byManager.keySet().forEach(m -> ordered.put(m.identity(), m));
    List<Conflict> out = new ArrayList<>();
    for (ManagedFields.EntryKey manager : ordered.values()) {
      for (List<PathElement> path : byManager.get(manager).paths()) {
        out.add(new Conflict(manager, path));
      }
    }
    return new ApplyConflicts(out);
  }

  List<Conflict> conflicts() {
    return conflicts;
  }

  /** The conflicting paths as a set. */
  FieldSet paths() {
    FieldSet set = new FieldSet();
    conflicts.forEach(c -> set.insert(c.path()));
    return set;
  }

  /** These conflicts without the given paths. */
  ApplyConflicts without(FieldSet allowed) {
    List<Conflict> rest = new ArrayList<>();
    for (Conflict c : conflicts) {
      if (!allowed.has(c.path())) {
        rest.add(c);
      }
    }
    return new ApplyConflicts(rest);
  }

  /** kube's Status: 409 Conflict, the message, and {@code details.causes}. */
  ApiError toApiError() {
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    ArrayNode causes = details.putArray("causes");
    for (Conflict c : conflicts) {
      causes.addObject()
          .put("reason", "FieldManagerConflict")
          .put("message", "conflict with " + c.manager().describe())
          .put("field", FieldSet.pathText(c.path()));
    }
    return ApiError.of(409, "Conflict", message(), details);
  }

  /** kube's text: one conflict on one line; several grouped by manager, one field a line. */
  String message() {
    if (conflicts.size() == 1) {
      Conflict c = conflicts.get(0);
      return "Apply failed with 1 conflict: conflict with " + c.manager().describe() + ": "
          + FieldSet.pathText(c.path());
    }
    List<String> lines = new ArrayList<>();
    ManagedFields.EntryKey last = null;
    for (Conflict c : conflicts) {
      if (!c.manager().equals(last)) {
        lines.add("conflicts with " + c.manager().describe() + ":");
        last = c.manager();
      }
      lines.add("- " + FieldSet.pathText(c.path()));
    }
    return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
  }
}
