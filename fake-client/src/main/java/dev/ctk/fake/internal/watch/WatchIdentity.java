package dev.ctk.fake.internal.watch;

import dev.ctk.fake.internal.select.FieldLabels;

/**
 * What one watch asked for, as fault patterns and messages describe it.
 *
 * @param group the API group ({@code ""} for core)
 * @param kind the kind, e.g. {@code ConfigMap}, or {@code null} when the watch was opened without a resource type
 * @param plural the plural resource, e.g. {@code configmaps}
 * @param namespace the namespace, or {@code null} for a watch across all namespaces (and cluster-scoped kinds)
 * @param labelSelector the label selector in kube's canonical form, {@code ""} for none
 * @param fieldSelector the field selector in kube's canonical form, {@code ""} for none
 * @param fieldLabels the field labels of the kind, to read another selector of the same kind in canonical form
 */
public record WatchIdentity(String group, String kind, String plural, String namespace, String labelSelector,
    String fieldSelector, FieldLabels fieldLabels) {

  /** The identity of a watch with this filter on a collection of a kind with these field labels. */
  static WatchIdentity of(WatchFilter filter, String group, String kind, String plural, FieldLabels fieldLabels) {
    return new WatchIdentity(group, kind, plural, filter.namespace(), filter.labels().toString(),
        filter.fields() == null ? "" : filter.fields().toString(), fieldLabels);
  }

  /** The identity from a storage key ({@code group/plural}) alone: no kind. */
  static WatchIdentity of(WatchFilter filter) {
    String key = filter.storageKey();
    int slash = key.lastIndexOf('/');
    return of(filter, slash < 0 ? "" : key.substring(0, slash), null, slash < 0 ? key : key.substring(slash + 1),
        FieldLabels.standard());
  }

  /** E.g. {@code ConfigMap in default labelSelector=app=web}. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(kind != null ? kind : plural);
    out.append(namespace == null ? " in all namespaces" : " in " + namespace);
    if (!labelSelector.isEmpty()) {
      out.append(" labelSelector=").append(labelSelector);
    }
    if (!fieldSelector.isEmpty()) {
      out.append(" fieldSelector=").append(fieldSelector);
    }
    return out.toString();
  }
}
