package dev.ctk.fake.internal.apply;

import java.util.ArrayList;
import java.util.List;

/**
 * Fields a write through one endpoint cannot change, and so never owns (kube's reset fields): {@code status} on the
 * main resource of a kind with a status subresource; everything but {@code status} on {@code /status}.
 */
enum IgnoredFields {

  /** Nothing is ignored (kinds without a status subresource). */
  NONE,
  /** The main resource of a kind with a status subresource. */
  STATUS,
  /** The {@code status} subresource. */
  ALL_BUT_STATUS;

  private static final PathElement STATUS_FIELD = PathElement.field("status");

  /** What a write on {@code subresource} ({@code null}, {@code status}, {@code scale}) ignores. */
  static IgnoredFields of(boolean statusSubresource, String subresource) {
    if ("status".equals(subresource)) {
      return ALL_BUT_STATUS;
    }
    return statusSubresource ? STATUS : NONE;
  }

  /** The set without the ignored fields. */
  FieldSet filter(FieldSet set) {
    switch (this) {
      case STATUS:
        return set.recursiveDifference(FieldSet.of(List.of(List.of(STATUS_FIELD))));
      case ALL_BUT_STATUS:
        FieldSet out = new FieldSet();
        if (set.hasMember(STATUS_FIELD)) {
          out.insert(List.of(STATUS_FIELD));
        }
        for (List<PathElement> path : set.withPrefix(STATUS_FIELD).paths()) {
          out.insert(prefixed(path));
        }
        return out;
      default:
        return set;
    }
  }

  private static List<PathElement> prefixed(List<PathElement> path) {
    List<PathElement> out = new ArrayList<>(path.size() + 1);
    out.add(STATUS_FIELD);
    out.addAll(path);
    return out;
  }
}
