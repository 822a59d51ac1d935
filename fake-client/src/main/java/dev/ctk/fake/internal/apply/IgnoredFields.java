package dev.ctk.fake.internal.apply;

import dev.ctk.fake.internal.version.KubeMinor;
import java.util.ArrayList;
import java.util.List;

/**
 * Fields a write through one endpoint cannot change, and so never owns (kube's reset fields): {@code status} on the
 * main resource of a kind with a status subresource; everything but {@code status} on a built-in kind's
 * {@code /status}; only {@code spec} on a custom resource's {@code /status} before 1.36 (its status strategy resets
 * {@code spec} alone: the metadata an apply there sends is not saved, yet its applier owns it, as in kube),
 * {@code spec} and {@code metadata} from 1.36 on. An update of a custom resource's {@code /status} loses its metadata
 * before its fields are compared, so its writer owns none (kube's updater owns what it sent before 1.36).
 */
enum IgnoredFields {

  /** Nothing is ignored (kinds without a status subresource). */
  NONE,
  /** The main resource of a kind with a status subresource. */
  STATUS,
  /** The {@code status} subresource of a built-in kind. */
  ALL_BUT_STATUS,
  /** The {@code status} subresource of a custom resource, before 1.36. */
  SPEC,
  /** The {@code status} subresource of a custom resource, from 1.36 on (its status strategy resets metadata too). */
  METADATA_AND_SPEC;

  private static final PathElement STATUS_FIELD = PathElement.field("status");
  private static final PathElement SPEC_FIELD = PathElement.field("spec");
  private static final PathElement METADATA_FIELD = PathElement.field("metadata");

  /**
   * What a write on {@code subresource} ({@code null}, {@code status}, {@code scale}) ignores.
   *
   * @param custom whether the kind is a custom resource
   * @param statusSubresource whether the kind has a status subresource
   * @param subresource the subresource written, or {@code null}
   * @param minor the minor emulated
   */
  static IgnoredFields of(boolean custom, boolean statusSubresource, String subresource, KubeMinor minor) {
    if ("status".equals(subresource)) {
      return !custom ? ALL_BUT_STATUS : minor.customStatusResetsMetadata() ? METADATA_AND_SPEC : SPEC;
    }
    return statusSubresource ? STATUS : NONE;
  }

  /** The set without the ignored fields. */
  FieldSet filter(FieldSet set) {
    switch (this) {
      case STATUS:
        return set.recursiveDifference(FieldSet.of(List.of(List.of(STATUS_FIELD))));
      case SPEC:
        return set.recursiveDifference(FieldSet.of(List.of(List.of(SPEC_FIELD))));
      case METADATA_AND_SPEC:
        return set.recursiveDifference(FieldSet.of(List.of(List.of(SPEC_FIELD), List.of(METADATA_FIELD))));
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
